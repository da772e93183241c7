import { ValidationError } from '../core/errors.js';
import { nullableKeys } from '../input/fields.js';
import { kinds, standInId, type KindDef } from './kinds.js';
import { topoOrder } from './order.js';
import { foreignTouch } from './prior.js';
import { removalPlan } from './remove.js';
import { namedDependencies } from './name-deps.js';
import { where, type FixtureRecord } from './parse.js';
import { envText, fieldOf, findTokens, forbiddenReference, resolveTokens, UNKNOWN, type Token } from './refs.js';
import { redactSecrets, specHash, stableJson, type FixtureState, type StateEntry } from './state.js';
import { checkParams, checkSchema, shapeOf, typedEnv, unknownKeys, type Problem } from './validate.js';

export type ActionType = 'create' | 'update' | 'replace' | 'unchanged' | 'delete' | 'keep';

/** One line of the plan: what happens to one record, and what it costs. */
export interface Action {
  type: ActionType;
  name: string;
  kind: KindDef;
  /** The record in the files (absent for delete/keep: it is only in the state). */
  rec?: FixtureRecord;
  /** What the state remembers (absent for create). */
  entry?: StateEntry;
  /** Top-level spec keys that differ ('parent' when a parent key changed). */
  changes: string[];
  /** Removed spec keys the update cannot clear (no null allowed): the service keeps them. */
  kept: string[];
  /** Names of the records this one references. */
  deps: string[];
  cost: number;
  /** Some operation of the action has no stated cost. */
  costUnstated: boolean;
  /** The spec with references resolved, as far as known when planned (what an update compares). */
  after?: Record<string, unknown>;
  /** Fields changed in the account since apply wrote them (drift.ts); ['(deleted)'] for a record gone from it. */
  drift?: string[];
}

export interface Plan {
  actions: Action[];
  cost: number;
  costUnstated: boolean;
}

export interface PlanOptions {
  env: NodeJS.ProcessEnv;
  prune: boolean;
  /** The account's users by lower-case e-mail, for ${user:<email>} (read when the files use it). */
  users?: Map<string, number>;
  /** Problems already found in the files (parse errors, bad records): reported together with the plan's. */
  issues?: Array<{ field: string; rule: string }>;
}

const HINT = 'Nothing was sent. See docs/fixtures.md for the file format.';

/** `file:line name.field` for messages: parent keys are shown as the record key the user wrote. */
export function fieldLabel(rec: FixtureRecord, path: Array<string | number>): string {
  const shown = path[0] === 'params' ? [rec.kind.parents.find((p) => p.param === path[1])?.key ?? String(path[1]), ...path.slice(2)] : path;
  return `${where(rec, rec.lineOf(path))} ${rec.name}${shown.length ? `.${shown.join('.')}` : ''}`;
}

export function problemsError(rec: FixtureRecord, problems: Problem[]): Array<{ field: string; rule: string }> {
  return problems.map((p) => ({ field: fieldLabel(rec, p.path), rule: p.rule }));
}

/** The names a record references (its dependencies). */
export function dependencies(rec: FixtureRecord, records: Iterable<FixtureRecord> = []): string[] {
  const { found } = findTokens({ spec: rec.spec, params: rec.parents });
  return [...new Set([...found.filter((f) => f.token.type === 'ref').map((f) => (f.token as Extract<Token, { type: 'ref' }>).name), ...namedDependencies(rec, records)])];
}

/** Is `field` the field the kind's id is read from (a reference to it is known as soon as the record exists)? */
function isIdField(kind: KindDef, field: string[]): boolean {
  return field.length === 1 && 'record' in kind.idFrom && field[0] === kind.idFrom.record;
}

/**
 * Works out, before anything is sent, what apply will do to every record: references and env
 * checked, dependency order fixed, every spec checked with its create schema (and every update
 * body with the update schema), costs added up. Throws one ValidationError with every problem.
 */
export function makePlan(records: FixtureRecord[], state: FixtureState, opts: PlanOptions): Plan {
  const byName = new Map(records.map((r) => [r.name, r]));
  const issues: Array<{ field: string; rule: string }> = [...(opts.issues ?? [])];

  for (const rec of records) {
    const { found, bad } = findTokens({ spec: rec.spec, params: rec.parents });
    for (const b of bad) issues.push({ field: fieldLabel(rec, b.path), rule: `${b.text} is not a reference: write \${ref:<name>.<field>}, \${env:VAR} or \${env:VAR:-default} (and $\${ for a literal \${)` });
    for (const f of found) {
      const forbidden = forbiddenReference(f.token);
      if (forbidden) issues.push({ field: fieldLabel(rec, f.path), rule: forbidden });
      if (f.token.type === 'ref' && !byName.has(f.token.name)) {
        issues.push({ field: fieldLabel(rec, f.path), rule: `${f.token.text} refers to an unknown record "${f.token.name}" (not in the fixture files)` });
      }
      if (f.token.type === 'user' && opts.users && !opts.users.has(f.token.email)) {
        issues.push({ field: fieldLabel(rec, f.path), rule: `${f.token.text}: the account has no user with that e-mail` });
      }
      if (f.token.type === 'env' && envText(f.token, opts.env) === undefined) {
        issues.push({ field: fieldLabel(rec, f.path), rule: `environment variable ${f.token.variable} is not set` });
      }
    }
  }
  const { order, cycle } = topoOrder(records.map((r) => r.name), (n) => dependencies(byName.get(n)!, records));
  if (cycle) {
    issues.push({ field: cycle.slice(0, -1).map((n) => `${where(byName.get(n)!)} ${n}`).join(', '), rule: `references form a cycle: ${cycle.join(' → ')} (a record can only refer to records created before it)` });
    throw new ValidationError(issues, HINT);
  }

  const planned = new Map<string, Action>();
  for (const name of order) {
    const rec = byName.get(name)!;
    const action = planRecord(rec, state.records[name], planned, byName, state, opts, issues);
    if (action) planned.set(name, action);
  }

  const inFiles = new Set(records.map((r) => r.name));
  const orphans = Object.keys(state.records).filter((n) => !inFiles.has(n));
  const orphanOrder = topoOrder(orphans, (n) => state.records[n]!.dependsOn ?? []).order.reverse();
  const tail: Action[] = [];
  for (const name of orphanOrder) {
    const entry = state.records[name]!;
    const kind = kinds().get(entry.kind);
    if (!kind) {
      issues.push({ field: `state ${name}`, rule: `unknown kind ${JSON.stringify(entry.kind)} in the state file` });
      continue;
    }
    const removal = removalPlan(kind, entry);
    tail.push({
      type: opts.prune ? 'delete' : 'keep', name, kind, entry, changes: [], kept: [], deps: entry.dependsOn ?? [],
      cost: opts.prune ? (removal.cost ?? 0) : 0, costUnstated: opts.prune && removal.cost === null,
    });
  }
  if (issues.length) throw new ValidationError(issues, HINT);

  const actions = [...order.map((n) => planned.get(n)!), ...tail];
  return { actions, cost: actions.reduce((s, a) => s + a.cost, 0), costUnstated: actions.some((a) => a.costUnstated) };
}

function planRecord(
  rec: FixtureRecord,
  entry: StateEntry | undefined,
  planned: Map<string, Action>,
  byName: Map<string, FixtureRecord>,
  state: FixtureState,
  opts: PlanOptions,
  issues: Array<{ field: string; rule: string }>,
): Action | undefined {
  const kind = rec.kind;
  const deps = dependencies(rec, byName.values());
  const problems: Problem[] = [];
  if (entry && entry.kind !== kind.kind) {
    issues.push({ field: fieldLabel(rec, ['kind']), rule: `was created as a ${entry.kind} (id ${entry.id}); a record keeps its kind: rename it, or run crmctl destroy first` });
    return undefined;
  }

  /** A referenced value as far as it is known now; `standIns` gives ids of records still to be created a typed stand-in. */
  const lookup = (standIns: boolean) => (t: Token, path: Array<string | number>): unknown => {
    if (t.type === 'user') return opts.users?.get(t.email) ?? (standIns ? 1 : UNKNOWN);
    if (t.type === 'env') {
      const text = envText(t, opts.env);
      if (text === undefined) return UNKNOWN; // reported above
      return path[0] === 'spec' ? typedEnv(kind.create.body, path.slice(1), text) : text;
    }
    const target = planned.get(t.name);
    // Unknown names are reported already; a record whose planning failed is checked no further here.
    if (!target) return UNKNOWN;
    const targetKind = target.kind;
    const idField = isIdField(targetKind, t.field);
    if (target.type === 'create' || target.type === 'replace') return standIns && idField ? standInId(targetKind, t.name) : UNKNOWN;
    if (target.type === 'update' && !idField) return UNKNOWN;
    const v = fieldOf(state.records[t.name]?.record, t.field);
    if (v === undefined) {
      problems.push({ path, rule: `${t.text}: record "${t.name}" has no field ${t.field.join('.')} (known: ${Object.keys((state.records[t.name]?.record ?? {}) as object).join(', ')})` });
      return UNKNOWN;
    }
    return v;
  };

  const checked = resolveTokens({ spec: rec.spec, params: rec.parents }, lookup(true));
  const cv = checked.value as { spec: Record<string, unknown>; params: Record<string, unknown> };
  // Custom values by name (`fields:`, names inside custom_fields) are translated and checked by the entry
  // (src/names) when the record is sent; here the rest of the spec is checked.
  const spec = kind.create.cli.customFields ? withoutNamedFields(cv.spec) : cv.spec;
  problems.push(...unknownKeys(kind.create.body, spec, ['spec']));
  problems.push(...checkSchema(kind.create.body, spec, ['spec'], checked.unknown).problems);
  // Missing parent keys were reported by the parser; unknown ones wait for the real value.
  const skipParams = [...checked.unknown.filter((p) => p[0] === 'params').map((p) => String(p[1])), ...kind.parents.filter((p) => !(p.param in rec.parents)).map((p) => p.param)];
  problems.push(...checkParams(kind.create.params, cv.params, skipParams).problems.map((p) => ({ ...p, path: ['params', ...p.path] })));

  const base: Pick<Action, 'name' | 'kind' | 'rec' | 'entry' | 'deps' | 'kept' | 'after'> = { name: rec.name, kind, rec, entry, deps, kept: [] };
  let action: Action;
  if (!entry) {
    // A step that changes a record the fixtures did not create first reads its value (kept for destroy).
    const read = foreignTouch(rec)?.read;
    action = { ...base, type: 'create', changes: [], cost: (kind.create.cost ?? 0) + (read?.cost ?? 0), costUnstated: kind.create.cost === null || read?.cost === null };
  } else {
    const diff = resolveTokens({ spec: rec.spec, params: rec.parents }, lookup(false));
    const dv = diff.value as { spec: Record<string, unknown>; params: Record<string, unknown> };
    const changes = changedKeys(entry, dv.spec, dv.params, diff.unknown);
    base.after = dv.spec;
    if (!diff.unknown.length && specHash(kind.kind, dv.params, dv.spec) === entry.specHash) {
      action = { ...base, type: 'unchanged', changes: [], cost: 0, costUnstated: false };
    } else if (!changes.length) {
      action = { ...base, type: 'unchanged', changes: [], cost: 0, costUnstated: false };
    } else if (!kind.update || changes.includes('parent')) {
      const removal = removalPlan(kind, entry);
      const read = foreignTouch(rec)?.read;
      action = {
        ...base, type: 'replace', changes, cost: (removal.cost ?? 0) + (kind.create.cost ?? 0) + (read?.cost ?? 0),
        costUnstated: kind.create.cost === null || removal.cost === null || read?.cost === null,
      };
    } else {
      const updatable = shapeOf(kind.update.body) ?? {};
      for (const k of changes) {
        // A field's options change through their own calls (execute.ts).
        if (k === 'options' && kind.options) continue;
        if (!(k in updatable) && k in cv.spec) {
          problems.push({ path: ['spec', k], rule: `cannot be changed by ${kind.update.method} ${kind.update.path} (it takes ${Object.keys(updatable).join(', ')}); give the record a new name to create a new one, or destroy it first` });
        }
      }
      const { body, kept } = updateBody(kind, entry.spec, cv.spec, changes);
      const skip = checked.unknown.filter((p) => p[0] === 'spec').map((p) => p.slice(1));
      const optionsOnly = !Object.keys(body).length && Boolean(kind.options) && changes.includes('options');
      if (!optionsOnly) problems.push(...checkSchema(kind.update.body, body, ['spec'], skip.map((p) => ['spec', ...p])).problems);
      action = { ...base, type: 'update', changes, kept, cost: kind.update.cost ?? 0, costUnstated: kind.update.cost === null };
    }
  }
  issues.push(...problemsError(rec, problems));
  return action;
}

/** Top-level spec keys whose value differs from what was last sent, plus 'parent' for a moved child. */
function withoutNamedFields(spec: Record<string, unknown>): Record<string, unknown> {
  const { fields: _named, ...rest } = spec;
  const cf = rest.custom_fields;
  if (cf && typeof cf === 'object' && !Array.isArray(cf)) rest.custom_fields = Object.fromEntries(Object.entries(cf).filter(([k]) => /^[0-9a-f]{40}(_currency|_until)?$/.test(k)));
  return rest;
}

export function changedKeys(entry: StateEntry, spec: Record<string, unknown>, params: Record<string, unknown>, unknown: Array<Array<string | number>>): string[] {
  const keys = new Set([...Object.keys(entry.spec), ...Object.keys(spec)]);
  const unknownTop = new Set(unknown.filter((p) => p[0] === 'spec').map((p) => String(p[1])));
  const now = redactSecrets(spec);
  const out = [...keys].filter((k) => unknownTop.has(k) || stableJson(entry.spec[k]) !== stableJson(now[k]));
  const parentMoved = unknown.some((p) => p[0] === 'params') || stableJson(entry.params ?? {}) !== stableJson(params);
  return parentMoved ? [...out, 'parent'] : out;
}

/**
 * The body of an update: PATCH sends only the changed fields; PUT (and updates that take the whole
 * record) send the whole spec. A field removed from the spec is cleared with null where the
 * operation allows it, else kept by the service (reported).
 */
export function updateBody(kind: KindDef, oldSpec: Record<string, unknown>, spec: Record<string, unknown>, changes: string[]): { body: Record<string, unknown>; kept: string[] } {
  const op = kind.update!;
  const shape = shapeOf(op.body) ?? {};
  const nullable = nullableKeys(op.body);
  const whole = kind.updateSendsAll || op.method === 'PUT';
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec)) if (k in shape && (whole || changes.includes(k))) body[k] = v;
  const kept: string[] = [];
  for (const k of Object.keys(oldSpec)) {
    if (k in spec) continue;
    if (nullable.includes(k)) body[k] = null;
    else kept.push(k);
  }
  if (Object.keys(body).length) Object.assign(body, kind.updateExtras?.() ?? {});
  return { body, kept };
}
