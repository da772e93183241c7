import type { Operation } from '../api/operation.js';
import { ValidationError } from '../core/errors.js';
import { formulaText } from '../output/cells.js';
import { nearest, unknownKeyRule, unknownKeys } from '../input/unknown-keys.js';
import { setPath as setAt } from '../input/coerce.js';
import type { FieldSpec } from '../input/fields.js';
import { bodyFields, coerceTextValues, type Issue } from './validate-body.js';
import { namedColumns, type NamedColumn, type NameTarget } from '../names/links/columns.js';
import type { LinkNames, Resolved } from '../names/links/resolver.js';
import { variationsOf, type VariationInput } from './product-variations.js';
import { HASH } from '../names/entry.js';

/** Where `place` keeps a row's variations until `finish` takes them out of the body (no field has this name). */
const VARIATIONS = '\u0000variations';

/** Custom field metadata (GET /api/v1/dealFields for leads): header "Budget" → its 40-hex key. */
export interface CustomField {
  key: string;
  name: string;
  field_type: string;
}

/** Other header spellings people use in exports from spreadsheets and other CRMs. */
const ALIASES: Record<string, Record<string, string>> = {
  leads: {
    name: 'title', lead: 'title', organization: 'organization_id', org: 'organization_id', org_id: 'organization_id',
    person: 'person_id', contact_id: 'person_id', owner: 'owner_id', user_id: 'owner_id', labels: 'label_ids', label: 'label_ids',
    amount: 'value.amount', value: 'value.amount', currency: 'value.currency', expected_close: 'expected_close_date',
    close_date: 'expected_close_date', visibility: 'visible_to', origin: 'origin_id',
  },
  persons: { email: 'emails', phone: 'phones' },
  notes: { text: 'content', body: 'content', lead: 'lead_id', deal: 'deal_id', person: 'person_id', organization: 'org_id', organization_id: 'org_id' },
  projects: { name: 'title', phase: 'phase_id', board: 'board_id', owner: 'owner_id' },
  'activity-types': { icon: 'icon_key' },
  roles: { parent: 'parent_role_id', parent_id: 'parent_role_id' },
  teams: { manager: 'manager_id', members: 'users' },
};

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s.\-/]+/g, '_');

type Target =
  | { kind: 'field'; path: string[] }
  | { kind: 'custom'; name: string; part: 'value' | 'currency' | 'until' }
  | { kind: 'ref'; ref: NamedColumn; header: string }
  | { kind: 'nested'; key: string; subkeys: string[] }
  /** A product's variations: added after the create (product-variations.ts), not part of its body. */
  | { kind: 'variations' };

/** A linked record a row gives by name: looked up once per import, before the rows are checked. */
export interface NameRef {
  target: NameTarget;
  /** The body member its id fills. */
  field: string;
  many?: boolean;
  name: string;
  /** The column that gave it (refusals name it). */
  header: string;
  /** The record the name lives under, when the row names it in a column of its own (a stage's pipeline). */
  within?: string;
}

export interface MappedRow {
  body: Record<string, unknown>;
  issues: Issue[];
  /** Linked records the row gave by name. */
  refs?: NameRef[];
  /** A product's variations, added once the product is created. */
  variations?: VariationInput[];
}

/** A row's cells for one custom field: its value and the companion columns an export writes beside it. */
type CustomCells = Partial<Record<'value' | 'currency' | 'until', unknown>>;

/** The one look-up of a name: the same name in the same place is looked up once per import. */
const refKey = (r: Pick<NameRef, 'target' | 'name' | 'within'>) => JSON.stringify(['kind' in r.target ? r.target.kind : r.target.option, r.within ?? null, r.name.trim().toLowerCase()]);

/** Maps input rows (CSV records or JSON objects) to request bodies (typed from text); the importer checks them through the one entry. */
export class RowMapper {
  private readonly fields;
  private readonly byNorm = new Map<string, Target>();
  private csvTargets: Array<Target | undefined> = [];
  private names?: Map<string, Resolved>;

  /** Columns (or JSON keys) left out: read-only fields of the records, ids replaced by a name column. */
  readonly skippedReadOnly = new Set<string>();
  readonly skippedIds = new Set<string>();
  /** Custom values by hash key left out because the row gives them by field name too (an export's `fields`). */
  readonly skippedKeys = new Set<string>();

  /**
   * `readOnly`: fields the kind's records have that a create does not take (id, update_time,
   * creator ids...): an export's columns, skipped on import instead of refused.
   */
  /**
   * `custom`: the item type's custom fields, whose names (or hash keys) head columns. Their cells go
   * by name under `fields`, which the entry translates as it does `--field NAME=VALUE` (src/names/entry.ts).
   */
  constructor(readonly resource: string, readonly op: Operation, readonly custom: CustomField[] = [], private readonly readOnly: ReadonlySet<string> = new Set()) {
    this.fields = bodyFields(op);
    for (const f of this.fields) {
      this.byNorm.set(norm(f.key), { kind: 'field', path: f.path });
      this.byNorm.set(norm(f.flag), { kind: 'field', path: f.path });
    }
    // Name columns first: "Organization" holds a name (or an id), not only an alias of the id field.
    for (const [header, ref] of namedColumns(op.cli.customFields, new Set(this.fields.map((f) => f.path[0]!)))) this.byNorm.set(header, { kind: 'ref', ref, header });
    if (resource === 'products') this.byNorm.set('variations', { kind: 'variations' });
    // An object field as one cell (what an export writes): "address" = its JSON, or its text.
    const parents = new Map<string, string[]>();
    for (const f of this.fields) if (f.path.length === 2) parents.set(f.path[0]!, [...(parents.get(f.path[0]!) ?? []), f.path[1]!]);
    for (const [key, subkeys] of parents) if (!this.byNorm.has(norm(key))) this.byNorm.set(norm(key), { kind: 'nested', key, subkeys });
    for (const [alias, key] of Object.entries(ALIASES[resource] ?? {})) {
      const f = this.fields.find((x) => x.key === key);
      // A field of the records themselves (leads' "origin") is that field, not an alias of another.
      if (f && !this.byNorm.has(alias) && !readOnly.has(alias)) this.byNorm.set(alias, { kind: 'field', path: f.path });
    }
    for (const c of custom) {
      this.byNorm.set(norm(c.name), { kind: 'custom', name: c.name, part: 'value' });
      this.byNorm.set(c.key, { kind: 'custom', name: c.name, part: 'value' });
      if (c.field_type === 'monetary') {
        for (const h of [`${c.name} currency`, `${c.name}_currency`, `${c.key}_currency`]) this.byNorm.set(norm(h), { kind: 'custom', name: c.name, part: 'currency' });
      }
      if (c.field_type === 'daterange' || c.field_type === 'timerange') {
        for (const h of [`${c.name} until`, `${c.key}_until`]) this.byNorm.set(norm(h), { kind: 'custom', name: c.name, part: 'until' });
      }
    }
  }

  /** True when a column (or JSON key) maps to something without custom fields: then no field metadata is needed for it. */
  knows(header: string): boolean {
    return header.trim() === '' || this.byNorm.has(norm(header)) || this.byNorm.has(header.trim()) || this.readOnly.has(header.trim());
  }

  /** Fixes the column of each CSV header; an unknown header stops the import before anything is read further. */
  setCsvHeader(cells: string[]): void {
    const unknown: string[] = [];
    // An export guards a header like any cell (output/cells.ts inertFormula); read what it stood for.
    const headers = cells.map(formulaText);
    this.csvTargets = headers.map((h) => {
      if (h.trim() === '') return undefined;
      const t = this.byNorm.get(norm(h)) ?? this.byNorm.get(h.trim()) ?? this.misspeltCustom(h);
      if (!t && this.readOnly.has(h.trim())) this.skippedReadOnly.add(h.trim());
      else if (!t) unknown.push(h);
      return t;
    });
    // A link given by name and by id (an export writes both): the name decides, since ids belong to
    // the account the file came from.
    const named = new Set(this.csvTargets.flatMap((t) => (t?.kind === 'ref' ? [t.ref.field] : [])));
    this.csvTargets = this.csvTargets.map((t, i) => {
      if (t?.kind !== 'field' || t.path.length !== 1 || !named.has(t.path[0]!)) return t;
      this.skippedIds.add(headers[i]!.trim());
      return undefined;
    });
    if (unknown.length) {
      const known = this.fields.map((f) => f.key).concat(this.custom.map((c) => c.name));
      throw new ValidationError(unknown.map((u) => ({ field: '--file', rule: unknownKeyRule(u.trim(), known, 'column') })));
    }
  }

  /**
   * A column nearest to a custom field's name ("Segmnt") is taken as that custom field misspelt: its
   * cells go under `fields` as given, and the entry refuses each row with the rule `--field` gives.
   */
  private misspeltCustom(header: string): Target | undefined {
    if (!this.custom.length || this.readOnly.has(header.trim())) return undefined;
    const names = this.custom.map((c) => c.name);
    const near = nearest(header.trim(), [...this.fields.map((f) => f.key), ...names]);
    return near !== undefined && names.includes(near) ? { kind: 'custom', name: header.trim(), part: 'value' } : undefined;
  }

  /**
   * Looks up every name the rows give (src/names/links: one read per kind, however many rows), so
   * that rows are then mapped with the ids they carry, and a name that finds nothing or several
   * records is a problem of its row, named by its column.
   */
  async resolveNames(names: LinkNames, rows: AsyncIterable<MappedRow>): Promise<void> {
    const wanted = new Map<string, NameRef>();
    for await (const { refs } of rows) for (const r of refs ?? []) wanted.set(refKey(r), r);
    const found = new Map<string, Resolved>();
    for (const [key, r] of wanted) {
      found.set(key, 'kind' in r.target ? await names.idOf(r.target.kind, r.name, { within: r.within }) : await names.optionOf(r.target.option.itemType, r.target.option.field, r.name));
    }
    this.names = found;
  }

  fromCsv(cells: string[]): MappedRow {
    const raw: Record<string, unknown> = {};
    const issues: Issue[] = [];
    const refs: NameRef[] = [];
    const custom = new Map<string, CustomCells>();
    cells.forEach((cell, i) => {
      const t = this.csvTargets[i];
      if (!t || cell === '') return; // an empty cell means "not given"
      // Undo exactly the apostrophe an export's formula guard added (`'-20% Q4` → `-20% Q4`).
      this.place(raw, t, formulaText(cell), issues, refs, custom);
    });
    return this.finish(raw, issues, true, refs, custom);
  }

  fromJson(value: unknown): MappedRow {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { body: {}, issues: [{ field: 'row', rule: 'must be a JSON object' }] };
    const raw: Record<string, unknown> = {};
    const issues: Issue[] = [];
    const refs: NameRef[] = [];
    const custom = new Map<string, CustomCells>();
    const top = new Set(this.fields.map((f) => f.path[0]!));
    // A member without a value is not given (an export's record holds null for every empty member).
    const entries = Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => ({ k, v, t: top.has(k) ? undefined : (this.byNorm.get(k) ?? this.byNorm.get(norm(k)) ?? this.misspeltCustom(k)) }));
    const named = new Set(entries.flatMap(({ t, v }) => (t?.kind === 'ref' && given(v) ? [t.ref.field] : [])));
    // Custom values given by field name (`fields`, what an export writes) decide over hash keys, which
    // belong to the account the file came from: the keys are left out (custom_fields, a lead's top-level keys).
    const byName = isObject((value as Record<string, unknown>).fields) && Object.keys((value as Record<string, Record<string, unknown>>).fields!).length > 0;
    for (const { k, v, t } of entries) {
      if (byName && (k === 'custom_fields' || HASH.test(k))) {
        this.skippedKeys.add(k === 'custom_fields' ? k : 'custom field keys');
        continue;
      }
      if (t) {
        if (t.kind !== 'ref' || given(v)) this.place(raw, t, v, issues, refs, custom);
      } else if (named.has(k)) this.skippedIds.add(k);
      else if (!top.has(k) && this.readOnly.has(k)) this.skippedReadOnly.add(k);
      else raw[k] = v; // a field of the operation as it is, or an unknown key that validation reports
    }
    return this.finish(raw, issues, false, refs, custom);
  }

  private place(raw: Record<string, unknown>, t: Target, v: unknown, issues: Issue[], refs: NameRef[], custom: Map<string, CustomCells>): void {
    if (t.kind === 'field') setAt(raw, t.path, v);
    else if (t.kind === 'variations') {
      const r = variationsOf(v);
      if ('issue' in r) issues.push(r.issue);
      else raw[VARIATIONS] = r.variations;
    }
    else if (t.kind === 'nested') {
      const r = nestedValue(t.subkeys, v);
      if ('rule' in r) issues.push({ field: t.key, rule: r.rule });
      else raw[t.key] = { ...((raw[t.key] ?? {}) as object), ...r.value };
    }
    else if (t.kind === 'ref') {
      const texts = t.ref.many ? nameList(v) : [linkLabel(typeof v === 'string' ? v.trim() : v, t.ref.target)];
      const ids: unknown[] = [];
      for (const text of texts) {
        if (typeof text === 'number' && !('kind' in t.ref.target && t.ref.target.kind === 'activity-type')) ids.push(text);
        else if (typeof text !== 'string' || text.trim() === '') issues.push({ field: t.header, rule: 'must be a name or an id' });
        else {
          refs.push({ target: t.ref.target, field: t.ref.field, ...(t.ref.many ? { many: true } : {}), name: text.trim(), header: t.header });
          ids.push(undefined);
        }
      }
      raw[t.ref.field] = t.ref.many ? ids : ids[0];
    }
    else custom.set(t.name, { ...custom.get(t.name), [t.part]: typeof v === 'string' ? v.trim() : v });
  }

  /**
   * The ids of the names a row gives, in place of the undefined `place` left. A stage (or phase) is
   * found in the pipeline (board) the row names too, when it does: in a name column of its own (the
   * older form) or by id. A name not looked up yet (the first pass) leaves its member out.
   */
  private withIds(raw: Record<string, unknown>, refs: NameRef[], issues: Issue[]): void {
    const within = (kind: 'pipeline' | 'board', field: string) => refs.find((r) => 'kind' in r.target && r.target.kind === kind)?.name ?? (typeof raw[field] === 'number' ? String(raw[field]) : undefined);
    const queue = new Map<string, unknown[]>();
    for (const r of refs) {
      const kind = 'kind' in r.target ? r.target.kind : undefined;
      if (kind === 'stage') r.within = within('pipeline', 'pipeline_id');
      if (kind === 'phase') r.within = within('board', 'board_id');
      const found = this.names?.get(refKey(r));
      if (found && 'rule' in found) issues.push({ field: r.header, rule: found.rule });
      queue.set(r.field, [...(queue.get(r.field) ?? []), found && 'id' in found ? found.id : undefined]);
    }
    for (const [field, ids] of queue) {
      const value = raw[field];
      if (Array.isArray(value)) {
        let i = 0;
        const filled = value.map((x) => (x === undefined ? ids[i++] : x));
        if (filled.every((x) => x !== undefined)) raw[field] = filled;
        else delete raw[field];
      } else if (ids[0] !== undefined) raw[field] = ids[0];
      else delete raw[field];
    }
  }

  private finish(raw: Record<string, unknown>, issues: Issue[], text: boolean, refs: NameRef[], custom: Map<string, CustomCells>): MappedRow {
    const byName = [...custom].map(([name, cells]) => [name, namedValue(cells)] as const).filter(([, v]) => v !== undefined);
    if (byName.length) raw.fields = { ...(raw.fields && typeof raw.fields === 'object' ? raw.fields : {}), ...Object.fromEntries(byName) };
    this.withIds(raw, refs, issues);
    const variations = raw[VARIATIONS] as VariationInput[] | undefined;
    delete raw[VARIATIONS];
    let body = flagsAsNumbers(this.fields, raw);
    const named = { ...(refs.length ? { refs } : {}), ...(variations?.length ? { variations } : {}) };
    if (text) {
      const c = coerceTextValues(this.fields, body);
      body = c.body;
      issues.push(...c.issues);
    }
    body = this.withoutRecordOnlyMembers(withoutNestedNulls(body));
    // Unknown keys, the schemas and the account checks are the entry's (prepare, in the importer).
    return { body, issues, ...named };
  }

  /**
   * Members inside an object or list cell that the create does not take: an export writes records
   * whole (a price's id, product_id and notes), and the import takes them back as is. They can only
   * come from a JSON cell (a dotted column that names no field is an unknown column), so they are
   * skipped and named in the one warning; unknown top-level keys stay refused by the entry.
   */
  private withoutRecordOnlyMembers(body: Record<string, unknown>): Record<string, unknown> {
    const extra = unknownKeys(this.op.body, body, (k) => k === 'fields').filter((u) => u.path.length > 1);
    if (!extra.length) return body;
    const out = structuredClone(body);
    for (const u of extra) {
      const parent = u.path.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], out) as Record<string, unknown>;
      delete parent[u.key];
      this.skippedReadOnly.add(u.path.map((k) => (typeof k === 'number' ? '[]' : `.${k}`)).join('').replace(/^\./, '').replace(/\.\[\]/g, '[]'));
    }
    return out;
  }
}

/** Flags a create takes as 0/1 and the records give as true/false (notes' pinned_to_*_flag). */
function flagsAsNumbers(fields: FieldSpec[], raw: Record<string, unknown>): Record<string, unknown> {
  let out = raw;
  for (const f of fields) {
    if (f.kind !== 'enum' || f.path.length !== 1 || f.choices?.join() !== '0,1') continue;
    const v = raw[f.key];
    const b = v === true || v === 'true' ? 1 : v === false || v === 'false' ? 0 : undefined;
    if (b === undefined) continue;
    if (out === raw) out = { ...raw };
    out[f.key] = f.numericChoices ? b : String(b);
  }
  return out;
}

const given = (v: unknown) => v !== null && v !== undefined && v !== '';

/**
 * An object field given whole: JSON (an export's cell, or a JSON input's value), "18000 EUR" for a
 * money object, or text for an object with a `value` (an address's formatted text).
 */
function nestedValue(subkeys: string[], v: unknown): { value: Record<string, unknown> } | { rule: string } {
  let x = v;
  if (typeof x === 'string' && /^\s*\{/.test(x)) {
    try {
      x = JSON.parse(x);
    } catch {
      return { rule: 'must be a JSON object' };
    }
  }
  if (x && typeof x === 'object' && !Array.isArray(x)) return { value: x as Record<string, unknown> };
  const text = typeof x === 'number' ? String(x) : typeof x === 'string' ? x.trim() : undefined;
  if (text !== undefined && subkeys.includes('amount')) {
    const m = /^(-?\d+(?:\.\d+)?)(?:\s+([A-Za-z]{3}))?$/.exec(text);
    if (m) return { value: m[2] ? { amount: m[1], currency: m[2].toUpperCase() } : { amount: m[1] } };
  }
  if (text !== undefined && subkeys.includes('value')) return { value: { value: text } };
  return { rule: `must be a JSON object with ${subkeys.join(', ')}` };
}

/** A linked record given as the object an export embeds ({"name": ...}, a user's {"email": ...}): its name. */
function linkLabel(v: unknown, target: NameTarget): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    if (typeof v !== 'string' || !/^\{/.test(v)) return typeof v === 'string' && /^\d+$/.test(v.trim()) && !('kind' in target && target.kind === 'activity-type') ? Number(v) : v;
    try {
      return linkLabel(JSON.parse(v), target);
    } catch {
      return v;
    }
  }
  const o = v as Record<string, unknown>;
  return ('kind' in target && target.kind === 'user' ? (o.email ?? o.name) : (o.name ?? o.title)) ?? o.value ?? o.id;
}

/** Several names in one cell (label_names): a JSON list, or names separated by commas. */
function nameList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return [v];
  const t = v.trim();
  if (t.startsWith('[')) {
    try {
      const list = JSON.parse(t) as unknown;
      if (Array.isArray(list)) return list;
    } catch {
      // Not JSON: names separated by commas.
    }
  }
  return t.split(',').map((x) => x.trim()).filter(Boolean);
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);


/**
 * Null members inside object fields mean "not set" in an export (address parts, custom fields
 * without a value); a create's schema takes them as absent, not as null.
 */
function withoutNestedNulls(body: Record<string, unknown>): Record<string, unknown> {
  const prune = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(prune);
    if (!x || typeof x !== 'object') return x;
    return Object.fromEntries(Object.entries(x).filter(([, v]) => v !== null).map(([k, v]) => [k, prune(v)]));
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) out[k] = v && typeof v === 'object' ? prune(v) : v;
  return out;
}

/**
 * One custom field's value as `--field` takes it, from the columns an export writes: a monetary
 * "Budget" with "Budget currency" → { value, currency } ("5000 EUR" alone stays as it is), a range
 * with its "until" column → "START/END". The entry checks it against the field's type.
 */
function namedValue(cells: CustomCells): unknown {
  const { value, currency, until } = cells;
  // A companion alone (a currency without an amount) gives nothing to set; null clears the field.
  if (value === null || value === undefined) return value;
  if (currency !== undefined && currency !== null) return { value, currency: typeof currency === 'string' ? currency.toUpperCase() : currency };
  if (until !== undefined && until !== null) return `${rangeStart(value)}/${String(until)}`;
  // A range as a record holds it ({ value, until }): the START/END text the entry takes.
  if (value && typeof value === 'object' && 'until' in value) return `${rangeStart(value)}/${String((value as { until: unknown }).until)}`;
  return value;
}

/** A range's start: the text, or the `value` of the object a record holds ({ value, until }). */
const rangeStart = (v: unknown): string => (v && typeof v === 'object' && 'value' in v ? String((v as { value: unknown }).value) : String(v));
