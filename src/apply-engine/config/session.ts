import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Operation } from '../../api/operation.js';
import { read, type Reader } from '../../entry/prepare.js';
import { userOps } from '../../api/operations/users.js';
import { CliError, UsageError } from '../../core/errors.js';
import type { FixtureRecord } from '../parse.js';
import { makePlan, type Action, type Plan } from '../plan.js';
import { emptyState, type FixtureState } from '../state.js';
import { CONFIG_KIND_NAMES, CONFIG_KINDS } from './kinds.js';
import { findTokens, isSecretMember, tokensOf } from '../refs.js';
import { oneLine, shownValue } from '../../core/terminal-text.js';
import { MASK, maskSecrets } from '../../output/secrets.js';
import { readLive, readUsers, usersByEmail, type LiveAccount } from './live.js';
import { duplicateKeys, matchLive, type Matched } from './match.js';
import { memoReader, translateFileFilters } from './filter-names.js';

/** A plan of configuration files against the live account. */
export interface ConfigPlan {
  plan: Plan;
  /** Words naming each record in lines: `Sales/Qualified`. */
  labels: Map<string, string>;
  live: LiveAccount;
  /** The account's users by e-mail, for ${user:<email>}. */
  users?: Map<string, number>;
  /** The account as a state (matched records, with their live records): what references read while applying. */
  state: FixtureState;
  /** Each file record's spec with references resolved as far as the account tells: what plan lines show. */
  resolved: Matched['resolved'];
  prune: string[];
  files: Array<{ path: string; sha256: string }>;
}

/** --prune values: kind names (comma-separated or repeated), `all` for every configuration kind. */
export function pruneKinds(values: string[]): Set<string> {
  const out = new Set<string>();
  for (const v of values.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean)) {
    if (v === 'all') for (const k of CONFIG_KIND_NAMES) out.add(k);
    else if (CONFIG_KIND_NAMES.includes(v)) out.add(v);
    else throw new UsageError(`--prune: unknown kind "${v}"; give configuration kinds (${CONFIG_KIND_NAMES.join(', ')}) or all`);
  }
  return out;
}

export function fileHashes(files: string[]): Array<{ path: string; sha256: string }> {
  return files.map((path) => ({ path, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') }));
}

/**
 * What can be checked in configuration files without the account (references, env, every spec, natural
 * keys used twice): exit 2 with nothing read or sent. `sandbox start --from` runs it before it starts.
 */
export function checkConfigFiles(records: FixtureRecord[], issues: Array<{ field: string; rule: string }>, env: NodeJS.ProcessEnv): void {
  makePlan(records, emptyState(), { env, prune: false, issues: [...issues, ...duplicateKeys(records)] });
}

/**
 * Checks the files on their own first (references, env, schemas: exit 2 with nothing read or sent),
 * then reads the account's configuration of the kinds involved, matches by natural key and plans.
 */
export async function planConfig(reader: Reader, records: FixtureRecord[], issues: Array<{ field: string; rule: string }>, opts: { env: NodeJS.ProcessEnv; prune: Set<string>; files: string[]; unknownUsers?: UnknownUsers }): Promise<ConfigPlan> {
  checkConfigFiles(records, issues, opts.env);
  const wanted = new Set([...records.map((r) => r.kind.kind), ...opts.prune]);
  const live = await readLive(reader, wanted);
  const users = await usersFor(reader, records, live, opts.unknownUsers);
  const unnamed: Array<{ field: string; rule: string }> = [];
  const translated = await translateFileFilters(memoReader(reader), records, unnamed);
  const matched = matchLive(records, live, { env: opts.env, prune: opts.prune, users, translated });
  matched.issues.push(...unnamed);
  const plan = makePlan(records, matched.state, { env: opts.env, prune: opts.prune.size > 0, issues: matched.issues, users });
  return { plan, labels: matched.labels, live, state: matched.state, resolved: matched.resolved, users, prune: [...opts.prune], files: fileHashes(opts.files) };
}

/**
 * For loading files into a sandbox only (`sandbox start --from`): users the files name by e-mail that
 * the sandbox has none of stand for the token's user (the sandbox's admin), and are reported once.
 * Against an account, an unknown user stays a problem of the files (exit 2).
 */
export interface UnknownUsers {
  onMapped(emails: string[], to: { id: number; email: string }): void;
}

/** The users, read once, when some record refers to one by e-mail (fixtures may too). */
export async function usersFor(reader: Reader, records: FixtureRecord[], live?: LiveAccount, unknown?: UnknownUsers): Promise<Map<string, number> | undefined> {
  const named = records.flatMap((r) => findTokens({ spec: r.spec, params: r.parents }).found.flatMap((f) => (f.token.type === 'user' ? [f.token.email] : [])));
  if (!named.length) return undefined;
  const users = usersByEmail(live?.users.length ? live.users : await readUsers(reader));
  const missing = [...new Set(named.filter((e) => !users.has(e)))].sort();
  if (unknown && missing.length) {
    const me = (await read(reader, userOps.me)) as { id?: unknown; email?: unknown };
    const to = { id: Number(me.id), email: String(me.email ?? '') };
    for (const e of missing) users.set(e, to.id);
    unknown.onMapped(missing, to);
  }
  return users;
}

export const hasChanges = (plan: Plan): boolean => plan.actions.some((a) => a.type !== 'unchanged' && a.type !== 'keep');

/** The operations an action sends. */
function opsOf(a: Action): Operation[] {
  const k = a.kind;
  const options = a.changes.includes('options') && k.options ? [k.options.add, k.options.remove] : [];
  switch (a.type) {
    case 'create':
      return [k.create];
    case 'update':
      return [...(k.update ? [k.update] : []), ...options];
    case 'replace':
      return [...(k.remove ? [k.remove.op] : []), k.create];
    case 'delete':
      return k.remove ? [k.remove.op] : [];
    default:
      return [];
  }
}

/** Scopes the plan needs: one alternative set per operation kind, e.g. `admin`, `deals:full or admin`. */
export function scopesOf(cp: ConfigPlan): string[] {
  const sets = new Set<string>();
  for (const a of cp.plan.actions) for (const op of opsOf(a)) if (op.scopes.length) sets.add([...op.scopes].join(' or '));
  const reads = CONFIG_KINDS.filter((k) => cp.live.records.some((r) => r.ck === k));
  for (const k of reads) for (const r of k.reads([{}])) if (r.op.scopes.length) sets.add([...r.op.scopes].join(' or '));
  return [...sets].sort();
}

/** A value as plan lines and the plan document show it: a secret masked (at any depth). */
function shown(field: string, v: unknown): unknown {
  if (isSecretMember(field) && v !== null && v !== undefined && v !== '') return MASK;
  return maskSecrets(v);
}

/** Field-by-field changes of an update or replace: from the account's value to the files', secrets masked. */
export function diffOf(a: Action): Array<{ field: string; from: unknown; to: unknown }> {
  return a.changes.filter((k) => k !== 'parent').map((k) => ({ field: k, from: shown(k, a.entry?.spec[k]), to: shown(k, a.after?.[k]) }));
}

/**
 * The fields of a record the files give through ${env:…} or a reference to another record's value
 * (not its id), with what they stand for: the plan shows what will be written, not only the template.
 * A value that waits for a record still to be created is null, with `pending` set.
 */
export function templatedValues(cp: ConfigPlan, a: Action): Array<{ field: string; value: unknown; template: unknown; pending: boolean }> {
  const spec = a.rec?.spec;
  const resolved = cp.resolved.get(a.name);
  if (!spec || !resolved) return [];
  const templated = (v: unknown): boolean => {
    if (typeof v === 'string') return tokensOf(v).tokens.some((t) => t.type === 'env' || (t.type === 'ref' && (t.text !== v || t.field.join('.') !== 'id')));
    if (Array.isArray(v)) return v.some(templated);
    return Boolean(v && typeof v === 'object' && Object.values(v).some(templated));
  };
  return Object.entries(spec).filter(([, v]) => templated(v)).map(([field, template]) => ({
    field,
    value: shown(field, resolved.spec[field]),
    template,
    pending: resolved.unknown.some((p) => p[0] === field),
  }));
}

const SIGN: Record<Action['type'], string> = { create: '+', update: '~', replace: '-/+', delete: '-', unchanged: '=', keep: '?' };

/** The words naming a record in a line, printable: account text cannot start a second line or move the cursor. */
export function labelOf(cp: ConfigPlan, name: string): string {
  return oneLine(cp.labels.get(name) ?? name);
}

/**
 * Lines of a plan for people: `~ stage Sales/Qualified: deal_probability 20 -> 30`, and for a field
 * given by a template, the value it stands for: `+ lead-label Partner North: name = "Partner North" (from "Partner ${env:REGION}")`.
 */
export function planLines(cp: ConfigPlan): string[] {
  const out: string[] = [];
  for (const a of cp.plan.actions) {
    if (a.type === 'unchanged' || a.type === 'keep') continue;
    const head = `${SIGN[a.type]} ${a.kind.kind} ${labelOf(cp, a.name)}`;
    const diff = diffOf(a);
    if (!diff.length) out.push(a.type === 'delete' ? `${head} (not in the files: --prune)` : head);
    for (const d of diff) out.push(`${head}: ${d.field} ${shownValue(d.from)} -> ${shownValue(d.to)}`);
    if (a.type === 'create' || a.type === 'replace') {
      for (const t of templatedValues(cp, a)) if (!diff.some((d) => d.field === t.field)) out.push(`${head}: ${t.field} = ${t.pending ? '(known once the records it refers to are created)' : shownValue(t.value)} (from ${shownValue(t.template)})`);
    }
  }
  return out;
}

export function planSummaryLine(cp: ConfigPlan): string {
  const n = (t: Action['type']) => cp.plan.actions.filter((a) => a.type === t).length;
  const changed = hasChanges(cp.plan);
  const head = changed
    ? `Plan: ${n('create')} to create, ${n('update')} to change, ${n('replace')} to replace, ${n('delete')} to delete, ${n('unchanged')} unchanged.`
    : `No changes: the account matches the files (${n('unchanged')} records).`;
  const cost = `Cost: ${cp.plan.cost}${cp.plan.costUnstated ? ' (plus operations whose cost the interface does not state)' : ''} to apply, ${cp.live.cost} to read.`;
  return `${head} ${cost} Scopes: ${scopesOf(cp).join('; ')}.`;
}

/** The plan as one document: `plan --json`, `plan --out` (what `apply --plan` carries out). */
export function planDocument(cp: ConfigPlan): Record<string, unknown> {
  return {
    version: 1,
    changes: hasChanges(cp.plan),
    account: cp.live.fingerprint,
    files: cp.files,
    prune: cp.prune,
    cost: cp.plan.cost,
    read_cost: cp.live.cost,
    scopes: scopesOf(cp),
    actions: cp.plan.actions.map((a) => ({
      action: a.type, kind: a.kind.kind, name: a.name, label: cp.labels.get(a.name) ?? a.name, id: a.entry?.id ?? null, changes: diffOf(a),
      ...(a.type === 'create' || a.type === 'replace' ? { values: templatedValues(cp, a) } : {}), cost: a.cost,
    })),
  };
}

/** A saved plan as `apply --plan` reads it: the files it was made from, what it read and the prune kinds. */
export interface SavedPlan {
  files: Array<{ path: string; sha256: string }>;
  account: string;
  prune: string[];
}

export function readSavedPlan(path: string): SavedPlan {
  let doc: Partial<SavedPlan> & { version?: unknown };
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`--plan ${path}: cannot read a plan (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, 'Write one with crmctl plan -f <dir> --out plan.json.');
  }
  if (doc?.version !== 1 || !Array.isArray(doc.files) || typeof doc.account !== 'string' || !Array.isArray(doc.prune)) {
    throw new UsageError(`--plan ${path}: not a plan written by crmctl plan --out`);
  }
  return doc as SavedPlan;
}

/** A saved plan is carried out only on what it was made from: the same files and the same account. */
export function checkSavedPlan(saved: SavedPlan, cp: ConfigPlan, path: string): void {
  const now = fileHashes(saved.files.map((f) => f.path));
  const edited = saved.files.filter((f, i) => f.sha256 !== now[i]!.sha256).map((f) => f.path);
  if (edited.length) throw new UsageError(`--plan ${path}: the files changed since the plan was made (${edited.join(', ')})`, 'Nothing was sent. Run crmctl plan again.');
  if (cp.live.fingerprint !== saved.account) {
    throw new CliError(`--plan ${path}: the account changed since the plan was made (its configuration reads differently now)`, undefined, 'Nothing was sent. Run crmctl plan again and review the new plan.');
  }
}
