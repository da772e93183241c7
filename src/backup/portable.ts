/**
 * A record in a form that holds in any account ("portable"): what restore sends and what diff compares.
 *   - fields the service sets (ids, times, counts, the creator, copied names) are left out (kinds.ts);
 *   - users become e-mails, pipelines/boards/lead labels names, stages "Pipeline / Stage", phases
 *     "Board / Phase", labels their names (the item type's label field in fields/<item>.json), options
 *     of built-in fields (a product's category) their labels;
 *   - custom fields become `fields: { <field name>: value }` with options as labels, a monetary value as
 *     { value, currency }, a range as "start/end", a user as an e-mail; the one entry
 *     (src/entry/prepare.ts) turns names back into the target's 40-hex keys and option ids;
 *   - links to records go through `link` (the id map on restore; identity for the account's own side);
 *     a link that maps to nothing is left out and named in `unmapped`;
 *   - empty values (null, "", [], objects of nulls) are left out: the service returns them for unset.
 */
import { backupKind, isServiceSet, SAME_RECORDS, type ItemType } from './kinds.js';
import type { FieldDef, Side } from './side.js';

type Rec = Record<string, unknown>;

/** A record link in the other account's ids: the id map (restore, diff through a restore) or identity. */
export type Link = (kind: string, id: unknown) => unknown;

const HASH = /^[0-9a-f]{40}(_currency|_until)?$/;
/** Reference kinds: carried by name, not by an id map. */
const BY_NAME = new Set(['users', 'pipelines', 'stages', 'lead-labels', 'boards', 'phases', 'labels']);

/** A link's id as the record holds it: a number, a string, or a v1 object `{ value: id, name }`. */
export function idOf(v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Rec;
    return o.value ?? o.id;
  }
  return v;
}

/** Empty (unset) for comparison and sending: null, "", [], or an object whose members are all empty. */
export function clean(v: unknown): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (Array.isArray(v)) {
    const a = v.map(clean).filter((x) => x !== undefined);
    return a.length ? a : undefined;
  }
  if (typeof v === 'object') {
    const out: Rec = {};
    for (const [k, x] of Object.entries(v as Rec)) {
      const c = clean(x);
      if (c !== undefined) out[k] = c;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}

export interface Portable {
  rec: Rec;
  /** Links whose record (or name) has no counterpart: `org_id 12`. */
  unmapped: string[];
}

export function toPortable(side: Side, kind: string, rec: Rec, link: Link): Portable {
  const k = backupKind(kind);
  if (!k) throw new Error(`internal: no backup kind ${kind}`);
  const item = k.itemType;
  const unmapped: string[] = [];
  const out: Rec = {};
  const one = (field: string, to: string, v: unknown): unknown => {
    const id = idOf(v);
    if (id === null || id === undefined || id === '') return undefined;
    const got = to === 'labels' ? (item ? side.labelName(item, id) : undefined)
      : to.startsWith('option:') ? (item ? side.optionLabel(item, to.slice('option:'.length), id) : undefined)
      : BY_NAME.has(to) ? side.nameOf(to, id) : linkOf(link, to, id);
    if (got === undefined) unmapped.push(`${field} ${String(id)}`);
    return got;
  };
  const fields: Rec = {};
  for (const [key, v] of Object.entries(rec)) {
    if (isServiceSet(key)) continue;
    if (key === 'custom_fields' && v && typeof v === 'object') {
      if (item) Object.assign(fields, customByName(side, item, v as Rec, link, unmapped));
      continue;
    }
    if (HASH.test(key)) {
      if (item && !key.includes('_')) Object.assign(fields, customByName(side, item, pickHash(rec, key), link, unmapped));
      continue;
    }
    const to = k.links[key];
    if (to) {
      const mapped = Array.isArray(v) ? v.map((x) => one(key, to, x)).filter((x) => x !== undefined) : one(key, to, v);
      out[key] = mapped;
      continue;
    }
    const nested = Object.entries(k.links).find(([p]) => p.startsWith(`${key}[].`));
    if (nested && Array.isArray(v)) {
      const inner = nested[0].slice(key.length + 3);
      out[key] = v.map((x) => (x && typeof x === 'object' ? { ...(x as Rec), [inner]: one(`${key}.${inner}`, nested[1], (x as Rec)[inner]) } : x));
      continue;
    }
    out[key] = v;
  }
  // A record's empty currency is its account's default (the service fills it in on a write).
  if ('currency' in rec && (rec.currency === '' || rec.currency === null) && rec.value !== undefined && typeof rec.value !== 'object') out.currency = side.defaultCurrency;
  if (Object.keys(fields).length) out.fields = fields;
  return { rec: (clean(out) as Rec | undefined) ?? {}, unmapped };
}

/** A link to a record through the map; archived and plain lists share ids (a deal may be in either file). */
function linkOf(link: Link, kind: string, id: unknown): unknown {
  for (const k of SAME_RECORDS[kind] ?? [kind]) {
    const got = link(k, id);
    if (got !== undefined) return got;
  }
  return undefined;
}

/** A v1 record's hash keys of one field (leads): the value and its `_currency`/`_until` member. */
function pickHash(rec: Rec, key: string): Rec {
  return Object.fromEntries(Object.entries(rec).filter(([k]) => k === key || k === `${key}_currency` || k === `${key}_until`));
}

/** custom_fields (hash keys) → values by field name, read through the side's catalog. */
function customByName(side: Side, item: ItemType, cf: Rec, link: Link, unmapped: string[]): Rec {
  const out: Rec = {};
  const defs = new Map(side.fieldsOf(item).map((f) => [f.key, f]));
  for (const [key, v] of Object.entries(cf)) {
    if (/_currency$|_until$/.test(key) || v === null || v === undefined || v === '') continue;
    const f = defs.get(key);
    if (!f) {
      unmapped.push(`custom field ${key} (not in the field catalog)`);
      continue;
    }
    const got = customValue(side, f, v, cf, link);
    if (got === undefined) unmapped.push(`${f.name} ${JSON.stringify(v)}`);
    else out[f.name] = got;
  }
  return out;
}

function customValue(side: Side, f: FieldDef, v: unknown, cf: Rec, link: Link): unknown {
  const label = (id: unknown) => f.options.find((o) => String(o.id) === String(idOf(id)))?.label;
  switch (f.field_type) {
    case 'enum':
      return label(v);
    case 'set': {
      const ids = Array.isArray(v) ? v : String(v).split(',').map((s) => s.trim()).filter(Boolean);
      const labels = ids.map(label);
      return labels.some((l) => l === undefined) ? undefined : labels;
    }
    case 'monetary': {
      // An amount stored without a currency is in the account's default one (a write needs it named).
      const currency = cf[`${f.key}_currency`] ?? (typeof v === 'object' && v ? (v as Rec).currency : undefined) ?? side.defaultCurrency;
      return { value: typeof v === 'object' && v ? ((v as Rec).value ?? (v as Rec).amount) : v, currency };
    }
    case 'daterange':
    case 'timerange':
      return `${String(v)}/${String(cf[`${f.key}_until`] ?? '')}`;
    case 'user':
      return side.nameOf('users', idOf(v));
    case 'org':
      return linkOf(link, 'organizations', idOf(v));
    case 'people':
      return linkOf(link, 'persons', idOf(v));
    default:
      return v;
  }
}
