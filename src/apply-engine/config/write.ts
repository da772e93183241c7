import { stringify } from 'yaml';
import { CONFIG_MARKER } from '../parse.js';
import { USER_REF } from './kinds.js';
import type { LiveRecord } from './live.js';

/**
 * The YAML files `crmctl pull` writes: one per group (pipelines.yaml, fields.yaml, ...), each
 * `{ config: <group>, records: [...] }`, records in the order readLive sorted them. Ids of other
 * configuration records are written as `${ref:<handle>.id}`, so the files apply to an account
 * where every id differs; text that holds `${` is escaped as `$${`.
 */
export function configFiles(records: LiveRecord[], users: Array<{ id: number; email: string }> = []): Map<string, string> {
  const emailOf = new Map(users.map((u) => [String(u.id), u.email]));
  // An e-mail is the account's text too: one that could end the reference early or start another (`}`, `${`) is not written as one.
  const user = (id: unknown) => (emailOf.has(String(id)) && /^[^\s{}$]+$/.test(emailOf.get(String(id))!) ? `\${user:${emailOf.get(String(id))}}` : id);
  const handleOf = new Map(records.map((r) => [`${r.ck.kind}:${String(r.id)}`, r.handle]));
  const ref = (kind: string, id: unknown) => {
    const h = handleOf.get(`${kind}:${String(id)}`);
    return h ? `\${ref:${h}.id}` : id;
  };
  const groups = new Map<string, unknown[]>();
  for (const r of records) {
    if (r.unwritable) continue;
    const spec: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.spec)) spec[k] = r.ck.refs?.[k] ? ref(r.ck.refs[k]!, v) : escapeRefs(v);
    for (const k of r.ck.userRefs ?? []) if (k in spec) spec[k] = Array.isArray(spec[k]) ? (spec[k] as unknown[]).map(user) : user(spec[k]);
    for (const l of r.ck.nestedRefs ?? []) {
      if (l.when && !l.when(r.spec)) continue;
      const parent = l.path.slice(0, -1).reduce<Record<string, unknown> | undefined>((o, p) => o?.[p] as Record<string, unknown> | undefined, spec);
      const last = l.path[l.path.length - 1]!;
      const one = (id: unknown) => (id === null ? id : l.kind === USER_REF ? user(id) : ref(l.kind, id));
      if (parent && last in parent) parent[last] = Array.isArray(parent[last]) ? (parent[last] as unknown[]).map(one) : one(parent[last]);
    }
    const item: Record<string, unknown> = { kind: r.ck.kind, name: r.handle };
    if (r.ck.parent) item[r.ck.parent.key] = ref(r.ck.parent.kind, r.parentId);
    item.spec = spec;
    const list = groups.get(r.ck.group) ?? [];
    list.push(item);
    groups.set(r.ck.group, list);
  }
  const out = new Map<string, string>();
  for (const [group, list] of groups) {
    const head = [
      "# Account configuration written by crmctl pull (docs/config-as-code.md).",
      '# Records are matched with an account by natural key; `${ref:<name>.id}` refers to another record by its name.',
    ].join('\n');
    out.set(`${group}.yaml`, `${head}\n${stringify({ [CONFIG_MARKER]: group, records: list }, { lineWidth: 0 })}`);
  }
  return out;
}

/** Records the create operations would refuse as the account holds them: listed in reference.yaml. */
export function unwritable(records: LiveRecord[]): unknown[] {
  // Goals have their own section (goals-reference.ts), with their ids named.
  // Records that share a natural key look alike: their ids tell which is which.
  return records.filter((r) => r.unwritable && r.ck.kind !== 'goal').map((r) => ({ kind: r.ck.kind, ...(r.shared ? { id: r.id } : {}), label: r.label, spec: r.spec, refused: r.unwritable }));
}

/** Read-only settings, listed for reference: never applied (apply -f <dir> skips reference.yaml). */
export function referenceFile(sections: Record<string, unknown>): string {
  const head = [
    "# Read-only settings of the account, written by crmctl pull FOR REFERENCE ONLY.",
    '# Not configuration: crmctl apply and plan never read this file (apply -f <dir> skips it).',
  ].join('\n');
  return `${head}\n${stringify({ reference: sections }, { lineWidth: 0 })}`;
}

/**
 * Text of the account written as literal text: every `${` becomes `$${`, so a label named
 * `Partner ${env:CRMCTL_ACCESS_TOKEN}` is that text again wherever the files are applied, never a
 * reference. (A replacement string would read `$$` as one `$`: a function writes it as it is.)
 */
export function escapeRefs(v: unknown): unknown {
  if (typeof v === 'string') return v.replaceAll('${', () => '$${');
  if (Array.isArray(v)) return v.map(escapeRefs);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, escapeRefs(x)]));
  return v;
}
