import { kinds } from '../kinds.js';
import { topoOrder } from '../order.js';
import type { FixtureRecord } from '../parse.js';
import { dependencies } from '../plan.js';
import { envText, fieldOf, resolveTokens, tokensOf, UNKNOWN, type Token } from '../refs.js';
import { emptyState, redactSecrets, specHash, type FixtureState, type StateEntry } from '../state.js';
import { oneLine } from '../../core/terminal-text.js';
import { typedEnv } from '../validate.js';
import { CONFIG_KIND_NAMES, configKind, nestedIds } from './kinds.js';
import type { LiveAccount, LiveRecord } from './live.js';

export interface Matched {
  /** The account as a state: one entry per file record found in the account, plus the records --prune removes. */
  state: FixtureState;
  /** Words naming each record (file handle or live handle) in plan lines: `Sales/Qualified`. */
  labels: Map<string, string>;
  issues: Array<{ field: string; rule: string }>;
  /** Each file record's spec with its references resolved as far as the account tells (null where a record is still to be created). */
  resolved: Map<string, { spec: Record<string, unknown>; unknown: Array<Array<string | number>> }>;
}

/**
 * Two file records with the same natural key (two lead labels `Dup`) would both be matched with
 * one record of the account, or both created where there is none: whatever the account holds,
 * the files are refused. Keys are compared as written (a stage's pipeline as its reference), so
 * plan, apply and `sandbox start --from` refuse the same files before reading anything.
 */
export function duplicateKeys(records: FixtureRecord[]): Array<{ field: string; rule: string }> {
  const issues: Array<{ field: string; rule: string }> = [];
  const first = new Map<string, FixtureRecord>();
  for (const rec of records) {
    const ck = configKind(rec.kind.kind);
    if (!ck) continue;
    const at = `${ck.kind}\u0001${ck.key(rec.spec, ck.parent ? rec.parents[ck.parent.param] : undefined)}`;
    const twin = first.get(at);
    if (!twin) {
      first.set(at, rec);
      continue;
    }
    issues.push({ field: `${rec.file}:${rec.line} ${rec.name}`, rule: `has the same ${ck.keyWords} as ${twin.name} (${twin.file}:${twin.line}), so both would be matched with one ${ck.kind} of the account; a record's natural key must be unique (crmctl pull lists such records in reference.yaml)` });
  }
  return issues;
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
  const resolvedSpecs: Matched['resolved'] = new Map();
  const index = new Map<string, LiveRecord>();
  // Records that share a key (kept in reference.yaml) match no file record: which one is meant cannot be told.
  const shared = new Map<string, number>();
  for (const r of live.records) {
    const k = `${r.ck.kind}\u0001${r.key}`;
    if (r.shared) shared.set(k, r.shared);
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
    const resolution = resolveTokens({ spec: rec.spec, params: rec.parents }, lookup);
    const resolved = resolution.value as { spec: Record<string, unknown>; params: Record<string, unknown> };
    resolvedSpecs.set(name, { spec: resolved.spec, unknown: resolution.unknown.filter((p) => p[0] === 'spec').map((p) => p.slice(1)) });
    const parentId = ck.parent ? resolved.params[ck.parent.param] : undefined;
    labels.set(name, fileWords(rec, resolved.spec, labels).join('/'));
    const at = `${ck.kind}\u0001${ck.key(resolved.spec, parentId)}`;
    if (shared.has(at)) {
      issues.push({ field: `${rec.file}:${rec.line} ${rec.name}`, rule: `matches ${shared.get(at)} ${ck.kind}s of the account (${oneLine(labels.get(name)!)}), so which one it is cannot be told; ${ck.sharedKeyFix ?? 'rename all but one of them'} (see reference.yaml)` });
      continue;
    }
    const found = index.get(at);
    if (!found) continue;
    const twin = claimed.get(found);
    if (twin) {
      issues.push({ field: `${rec.file}:${rec.line} ${rec.name}`, rule: `is the same ${ck.kind} as ${twin.name} (${twin.file}:${twin.line}): ${oneLine(labels.get(name)!)}; a record's natural key must be unique` });
      continue;
    }
    claimed.set(found, rec);
    labels.set(name, found.label);
    state.records[name] = entryOf(found, [...Object.keys(rec.spec), ...(ck.alwaysCompared ?? [])], resolved.spec, opts.translated?.get(name));
  }

  // --prune: what the account holds of those kinds that the files do not.
  const handleOf = new Map(live.records.map((r) => [`${r.ck.kind}:${String(r.id)}`, r.handle]));
  for (const r of live.records) {
    // What pull lists in reference.yaml (records that share a key, filters not writable) is never
    // configuration: the files could not hold it, so their not holding it does not delete it.
    if (!opts.prune.has(r.ck.kind) || claimed.has(r) || r.unwritable) continue;
    const name = byName.has(r.handle) ? `${r.handle}-live` : r.handle;
    const parents = Object.entries(r.ck.refs ?? {}).map(([k, kind]) => handleOf.get(`${kind}:${String(r.spec[k])}`));
    for (const [kind, id] of nestedIds(r.ck, r.spec)) parents.push(handleOf.get(`${kind}:${String(id)}`));
    if (r.ck.parent) parents.push(handleOf.get(`${r.ck.parent.kind}:${String(r.parentId)}`));
    state.records[name] = { ...entryOf(r, Object.keys(r.spec)), dependsOn: parents.filter((p): p is string => Boolean(p)) };
    labels.set(name, r.label);
  }
  return { state, labels, issues, resolved: resolvedSpecs };
}

/** A live record as the state entry the planner compares a file record with (the keys the file holds). */
function entryOf(r: LiveRecord, keys: string[], file?: Record<string, unknown>, translated?: unknown): StateEntry {
  const live = file && r.ck.compareAs ? r.ck.compareAs(r.spec, file, r.rec, translated) : r.spec;
  // A secret the account answers with (a webhook's password) is compared as the planner compares
  // the files' (a short hash), and never travels further in the plan.
  const spec = redactSecrets(Object.fromEntries(keys.filter((k) => k in live).map((k) => [k, live[k]])));
  const params: Record<string, unknown> = r.ck.parent ? { [r.ck.parent.param]: r.parentId } : {};
  if (!kinds().has(r.ck.kind)) throw new Error(`no fixture kind ${r.ck.kind}`);
  return { kind: r.ck.kind, id: r.id, params, specHash: specHash(r.ck.kind, params, spec), spec, record: r.rec, dependsOn: [], updatedAt: new Date().toISOString() };
}

/**
 * The words of a file record, as the account will read them: references to other records are named
 * by that record's words, other references (${env:REGION}) by the text they stand for.
 */
function fileWords(rec: FixtureRecord, resolved: Record<string, unknown>, labels: Map<string, string>): string[] {
  const ck = configKind(rec.kind.kind)!;
  const refName = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return undefined;
    const t = tokensOf(v).tokens.find((x) => x.type === 'ref');
    return t && t.type === 'ref' && t.text === v ? labels.get(t.name)?.split('/').pop() : undefined;
  };
  const spec = Object.fromEntries(Object.entries(rec.spec).map(([k, v]) => [k, refName(v) !== undefined || resolved[k] === null || resolved[k] === undefined ? v : resolved[k]]));
  const nameOf = (_kind: string, v: unknown) => refName(v) ?? (v === undefined ? undefined : String(v));
  return ck.words(spec, nameOf, ck.parent ? refName(rec.parents[ck.parent.param]) : undefined);
}
