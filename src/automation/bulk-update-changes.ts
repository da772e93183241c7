import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { ValidationError } from '../core/errors.js';
import { coerceField, setPath } from '../input/coerce.js';
import { operationFields } from '../input/operation-input.js';
import { readJsonInput } from '../input/sources.js';
import { nearest } from '../input/unknown-keys.js';

type Rec = Record<string, unknown>;

const isObject = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The changes a command line asks for, as the update's raw body: `--data` first, then every `--field
 * NAME=VALUE`. A NAME that is a key of the update's body (owner_id, or owner-id) is typed by that
 * field; any other NAME goes to `fields`, the custom values by name that the entry translates
 * (src/names). A NAME that is neither is refused here with the nearest names of both kinds.
 */
export async function changesOf(ctx: Context, update: Operation, o: { data?: string; field: string[] }): Promise<Rec> {
  let body: Rec = {};
  if (o.data !== undefined) {
    const data = await readJsonInput(ctx.io.stdin, o.data, '--data');
    if (!isObject(data)) throw new ValidationError([{ field: '--data', rule: `must be a JSON object of the fields to set (got ${Array.isArray(data) ? 'an array' : JSON.stringify(data)})` }]);
    body = { ...data };
  }
  const { parseAssignments } = await import('../names/write.js');
  const { named, issues } = parseAssignments(o.field, '--field');
  if (issues.length) throw new ValidationError(issues);
  const own = operationFields(update).fields.filter((f) => f.location === 'body');
  const custom: Rec = {};
  for (const [name, value] of Object.entries(named)) {
    const f = own.find((x) => x.key === name || x.flag === name || x.flag === name.replace(/_/g, '-'));
    if (!f) {
      custom[name] = value;
      continue;
    }
    let v: unknown;
    try {
      v = value === null ? null : coerceField(f, value);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      throw new ValidationError(err.issues.map((i) => ({ field: `--field ${name}`, rule: i.rule })));
    }
    setPath(body, f.path, v);
  }
  if (Object.keys(custom).length) {
    if (!update.cli.customFields) throw new ValidationError(Object.keys(custom).map((n) => ({ field: `--field ${n}`, rule: unknownRule(n, own.map((f) => f.key), []) })));
    const [{ checkReader }, { fieldCatalog }] = await Promise.all([import('../entry/prepare.js'), import('../names/catalog.js')]);
    const cat = await fieldCatalog(checkReader(ctx), update.cli.customFields, ctx);
    const bad = Object.keys(custom).filter((n) => !cat.customField(n));
    if (bad.length) throw new ValidationError(bad.map((n) => ({ field: `--field ${n}`, rule: unknownRule(n, own.map((f) => f.key), cat.custom.map((c) => c.name)) })));
    body.fields = { ...(isObject(body.fields) ? body.fields : {}), ...custom };
  }
  if (!Object.keys(body).length) throw new ValidationError([{ field: '--field', rule: 'give at least one field to set (--field NAME=VALUE, or --data)' }]);
  return body;
}

function unknownRule(name: string, keys: string[], customNames: string[]): string {
  const near = [nearest(name, keys), nearest(name, customNames)].filter((x): x is string => x !== undefined);
  const hint = near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(' or ')}?)` : `; fields: ${keys.join(', ')}${customNames.length ? `; custom fields: ${customNames.join(', ')}` : ''}`;
  return `unknown field "${name}"${hint}`;
}

/**
 * Whether a record already holds what a body sets. Objects are compared member by member (a lead's
 * value, v2's custom_fields), a custom value against the record's form of it (an option id, a
 * monetary `{ value, currency }` with its `<key>_currency` member beside it), lists as sets.
 * When unsure, "no": the record is written, which at worst sends a change that changes nothing.
 */
export function holds(record: unknown, body: Rec): boolean {
  if (!isObject(record)) return false;
  for (const [k, want] of Object.entries(body)) {
    const cur = /_currency$/.test(k) && !(k in record) ? currencyOf(record[k.replace(/_currency$/, '')]) : record[k];
    if (!same(cur, want)) return false;
  }
  return true;
}

function currencyOf(v: unknown): unknown {
  return isObject(v) ? v.currency : undefined;
}

function same(cur: unknown, want: unknown): boolean {
  if (want === null) return cur === null || cur === undefined || cur === '' || (Array.isArray(cur) && cur.length === 0);
  if (isObject(want)) return isObject(cur) && holds(cur, want);
  if (Array.isArray(want)) {
    const have = Array.isArray(cur) ? cur.map(scalar) : typeof cur === 'string' ? cur.split(',').map((s) => s.trim()) : undefined;
    if (!have) return false;
    const w = want.map(scalar);
    return have.length === w.length && w.every((x) => have.includes(x));
  }
  // A custom value the record shows as an object ({ value, currency }, { id, name }).
  if (isObject(cur)) return scalar(cur.value ?? cur.id) === scalar(want);
  return scalar(cur) === scalar(want);
}

/** Numbers and their text alike (an option id 12 and "12"), anything else as text. */
const scalar = (v: unknown): string => (isObject(v) ? String(v.value ?? v.id) : String(v));

/** The members a body sets, flattened to dotted keys (custom_fields.abc…, value.amount), for the plan. */
export function leaves(body: Rec, prefix: string[] = []): Array<{ path: string[]; value: unknown }> {
  return Object.entries(body).flatMap(([k, v]) => (isObject(v) ? leaves(v, [...prefix, k]) : [{ path: [...prefix, k], value: v }]));
}

export function valueAt(record: unknown, path: string[]): unknown {
  let cur: unknown = record;
  for (const p of path) cur = isObject(cur) ? cur[p] : undefined;
  return cur;
}

/** One changed member and its from → to tally: how many records change, from which values. */
export interface FieldChange {
  field: string;
  to: string;
  changes: number;
  already: number;
  from: Map<string, number>;
}

/** How the plan names a member and shows a value (custom fields by name, options by label). */
export interface Naming {
  field(path: string[]): string;
  value(path: string[], v: unknown): string;
}

/** Members written beside another (a monetary `<key>_currency`, a range's `<key>_until`): shown with it. */
const COMPANION = /^(.+)_(currency|until)$/;

/** The plan's per-field summary over the records that will be written and those already at the value. */
export function tally(body: Rec, records: Rec[], naming: Naming): FieldChange[] {
  const all = leaves(body);
  const has = (path: string[]) => all.some((l) => l.path.join('\u0000') === path.join('\u0000'));
  const out: FieldChange[] = [];
  for (const { path, value } of all) {
    const last = path[path.length - 1]!;
    const m = COMPANION.exec(last);
    if (m && has([...path.slice(0, -1), m[1]!])) continue;
    const parentPath = path.slice(0, -1);
    const companions = all.filter((l) => l.path.length === path.length && l.path.slice(0, -1).join('\u0000') === parentPath.join('\u0000') && COMPANION.exec(l.path[l.path.length - 1]!)?.[1] === last);
    const members: Rec = { [last]: value, ...Object.fromEntries(companions.map((c) => [c.path[c.path.length - 1]!, c.value])) };
    const shown = (rec: unknown) => [naming.value(path, valueAt(rec, path)), ...companions.map((c) => valueAt(rec, c.path)).filter((x) => x !== undefined && x !== null).map(String)].join(' ');
    const to = [naming.value(path, value), ...companions.map((c) => (c.value === null ? '' : String(c.value)))].filter(Boolean).join(' ');
    const c: FieldChange = { field: naming.field(path), to, changes: 0, already: 0, from: new Map() };
    for (const r of records) {
      if (holds(valueAt(r, parentPath), members)) c.already++;
      else {
        c.changes++;
        const v = shown(r);
        c.from.set(v, (c.from.get(v) ?? 0) + 1);
      }
    }
    out.push(c);
  }
  return out;
}

export function show(v: unknown): string {
  if (v === undefined || v === null || v === '') return '(empty)';
  if (isObject(v)) return v.value !== undefined ? `${String(v.value)}${v.currency ? ` ${String(v.currency)}` : ''}` : JSON.stringify(v);
  return typeof v === 'string' ? JSON.stringify(v) : String(Array.isArray(v) ? v.join(',') : v);
}

/** The values of `rec` at the members `body` sets (custom fields inside their object): what an undo puts back. */
export function priorValues(rec: Rec, body: Rec): Rec {
  const out: Rec = {};
  for (const [k, v] of Object.entries(body)) {
    const was = rec[k];
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && was && typeof was === 'object' && !Array.isArray(was) ? priorValues(was as Rec, v as Rec) : (was ?? null);
  }
  return out;
}
