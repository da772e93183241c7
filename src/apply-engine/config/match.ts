import { kinds } from '../kinds.js';
import { topoOrder } from '../order.js';
import type { FixtureRecord } from '../parse.js';
import { dependencies } from '../plan.js';
import { envText, fieldOf, resolveTokens, tokensOf, UNKNOWN, type Token } from '../refs.js';
import { emptyState, specHash, type FixtureState, type StateEntry } from '../state.js';
import { typedEnv } from '../validate.js';
import { CONFIG_KIND_NAMES, configKind, nestedIds } from './kinds.js';
import type { LiveAccount, LiveRecord } from './live.js';

export interface Matched {
  /** The account as a state: one entry per file record found in the account, plus the records --prune removes. */
  state: FixtureState;
  /** Words naming each record (file handle or live handle) in plan lines: `Sales/Qualified`. */
  labels: Map<string, string>;
  issues: Array<{ field: string; rule: string }>;
}

/**
 * Finds each configuration record of the files in the live account by its natural key (a stage by
 * its pipeline and name), in dependency order so that a parent's live id is known before its
 * children are looked up. What is found becomes a state entry holding the live record, so the one
 * planner (plan.ts) compares the files with the account exactly as it compares fixtures with their
 * state file; live records of the kinds named by --prune that no file holds become entries to delete.
 */
export function matchLive(records: FixtureRecord[], live: LiveAccount, opts: { env: NodeJS.ProcessEnv; prune: Set<string>; users?: Map<string, number>; translated?: Map<string, unknown> }): Matched {
  const issues: Matched['issues'] = [];
  const state = emptyState();
  const labels = new Map<string, string>();
  const index = new Map<string, LiveRecord>();
  // Records that share a key (goals: kept in reference.yaml) match no file record: which one is meant cannot be told.
  const shared = new Map<string, number>();
  for (const r of live.records) {
    const k = `${r.ck.kind}\u0001${r.key}`;
    if (r.ck.sharedKey && r.unwritable === r.ck.sharedKey) shared.set(k, (shared.get(k) ?? 0) + 1);
    else index.set(k, r);
  }
  const claimed = new Map<LiveRecord, FixtureRecord>();
  const byName = new Map(records.map((r) => [r.name, r]));
  const order = topoOrder(records.map((r) => r.name), (n) => dependencies(byName.get(n)!, records)).order;
  const placed = new Set(order);
  // A cycle is reported by the planner; the records in it are still matched, in file order.
  for (const r of records) if (!placed.has(r.name)) order.push(r.name);

  for (const name of order) {
    const rec = byName.get(name)!;
    const ck = configKind(rec.kind.kind);
    if (!ck) {
      issues.push({ field: `${rec.file}:${rec.line} ${rec.name}.kind`, rule: `a ${rec.kind.kind} is not configuration (configuration files hold ${CONFIG_KIND_NAMES.join(', ')}); put fixtures in a file without \`config:\`` });
      continue;
    }
    const lookup = (t: Token, path: Array<string | number>): unknown => {
      if (t.type === 'user') return opts.users?.get(t.email) ?? UNKNOWN;
      if (t.type === 'env') {
        const text = envText(t, opts.env);
        return text === undefined ? UNKNOWN : path[0] === 'spec' ? typedEnv(rec.kind.create.body, path.slice(1), text) : text;
      }
      const v = fieldOf(state.records[t.name]?.record, t.field);
      return v === undefined ? UNKNOWN : v;
    };
    const resolved = resolveTokens({ spec: rec.spec, params: rec.parents }, lookup).value as { spec: Record<string, unknown>; params: Record<string, unknown> };
    const parentId = ck.parent ? resolved.params[ck.parent.param] : undefined;
    labels.set(name, fileWords(rec, labels).join('/'));
    const at = `${ck.kind}\u0001${ck.key(resolved.spec, parentId)}`;
    if (shared.has(at)) {
      issues.push({ field: `${rec.file}:${rec.line} ${rec.name}`, rule: `matches ${shared.get(at)} ${ck.kind}s of the account (${labels.get(name)}), so which one it is cannot be told; give them different titles (see reference.yaml)` });
      continue;
    }
    const found = index.get(at);
    if (!found) continue;
    const twin = claimed.get(found);
    if (twin) {
      issues.push({ field: `${rec.file}:${rec.line} ${rec.name}`, rule: `is the same ${ck.kind} as ${twin.name} (${twin.file}:${twin.line}): ${labels.get(name)}; a record's natural key must be unique` });
      continue;
    }
    claimed.set(found, rec);
    labels.set(name, found.label);
    state.records[name] = entryOf(found, [...Object.keys(rec.spec), ...(ck.alwaysCompared ?? [])], resolved.spec, opts.translated?.get(name));
  }

  // --prune: what the account holds of those kinds that the files do not.
  const handleOf = new Map(live.records.map((r) => [`${r.ck.kind}:${String(r.id)}`, r.handle]));
  for (const r of live.records) {
    if (!opts.prune.has(r.ck.kind) || claimed.has(r)) continue;
    const name = byName.has(r.handle) ? `${r.handle}-live` : r.handle;
    const parents = Object.entries(r.ck.refs ?? {}).map(([k, kind]) => handleOf.get(`${kind}:${String(r.spec[k])}`));
    for (const [kind, id] of nestedIds(r.ck, r.spec)) parents.push(handleOf.get(`${kind}:${String(id)}`));
    if (r.ck.parent) parents.push(handleOf.get(`${r.ck.parent.kind}:${String(r.parentId)}`));
    state.records[name] = { ...entryOf(r, Object.keys(r.spec)), dependsOn: parents.filter((p): p is string => Boolean(p)) };
    labels.set(name, r.label);
  }
  return { state, labels, issues };
}

/** A live record as the state entry the planner compares a file record with (the keys the file holds). */
function entryOf(r: LiveRecord, keys: string[], file?: Record<string, unknown>, translated?: unknown): StateEntry {
  const live = file && r.ck.compareAs ? r.ck.compareAs(r.spec, file, r.rec, translated) : r.spec;
  const spec: Record<string, unknown> = {};
  for (const k of keys) if (k in live) spec[k] = live[k];
  const params: Record<string, unknown> = r.ck.parent ? { [r.ck.parent.param]: r.parentId } : {};
  if (!kinds().has(r.ck.kind)) throw new Error(`no fixture kind ${r.ck.kind}`);
  return { kind: r.ck.kind, id: r.id, params, specHash: specHash(r.ck.kind, params, spec), spec, record: r.rec, dependsOn: [], updatedAt: new Date().toISOString() };
}

/** The words of a file record: references to other records are named by that record's words. */
function fileWords(rec: FixtureRecord, labels: Map<string, string>): string[] {
  const ck = configKind(rec.kind.kind)!;
  const refName = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    const t = tokensOf(v).tokens.find((x) => x.type === 'ref');
    return t && t.type === 'ref' ? labels.get(t.name)?.split('/').pop() : undefined;
  };
  const nameOf = (_kind: string, v: unknown) => refName(v) ?? (v === undefined ? undefined : String(v));
  return ck.words(rec.spec, nameOf, ck.parent ? refName(rec.parents[ck.parent.param]) : undefined);
}
