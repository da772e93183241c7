import type { Operation } from '../api/operation.js';
import { ValidationError } from '../core/errors.js';
import { formulaText } from '../output/cells.js';
import { nearest, unknownKeyRule, unknownKeys } from '../input/unknown-keys.js';
import { setPath as setAt } from '../input/coerce.js';
import type { FieldSpec } from '../input/fields.js';
import { bodyFields, coerceTextValues, type Issue } from './validate-body.js';
import { nameKey, refColumns, stageInPipeline, type NameRef, type RefColumn, type RefKind } from './name-refs.js';

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
  | { kind: 'ref'; ref: RefColumn; header: string }
  | { kind: 'nested'; key: string; subkeys: string[] };

export interface MappedRow {
  body: Record<string, unknown>;
  issues: Issue[];
  /** Linked records the row gave by name (resolved to ids once per import). */
  refs?: Array<NameRef & { header: string }>;
}

/** A row's cells for one custom field: its value and the companion columns an export writes beside it. */
type CustomCells = Partial<Record<'value' | 'currency' | 'until', unknown>>;

/** Stands in for a name's id while rows are checked before the names are looked up. */
const STAND_IN_ID = 1;

/** Maps input rows (CSV records or JSON objects) to request bodies (typed from text); the importer checks them through the one entry. */
export class RowMapper {
  private readonly fields;
  private readonly byNorm = new Map<string, Target>();
  private csvTargets: Array<Target | undefined> = [];
  private names?: Map<RefKind, Map<string, number>>;

  /** Columns (or JSON keys) left out: read-only fields of the records, ids replaced by a name column. */
  readonly skippedReadOnly = new Set<string>();
  readonly skippedIds = new Set<string>();

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
    for (const [header, ref] of refColumns(new Set(this.fields.map((f) => f.path[0]!)))) this.byNorm.set(header, { kind: 'ref', ref, header });
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

  /** Ids for the names rows give (after resolveNames); until then names take a stand-in id so rows can be checked. */
  useNames(ids: Map<RefKind, Map<string, number>>): void {
    this.names = ids;
  }

  fromCsv(cells: string[]): MappedRow {
    const raw: Record<string, unknown> = {};
    const issues: Issue[] = [];
    const refs: NonNullable<MappedRow['refs']> = [];
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
    const refs: NonNullable<MappedRow['refs']> = [];
    const custom = new Map<string, CustomCells>();
    const top = new Set(this.fields.map((f) => f.path[0]!));
    const entries = Object.entries(value).map(([k, v]) => ({ k, v, t: top.has(k) ? undefined : (this.byNorm.get(k) ?? this.byNorm.get(norm(k)) ?? this.misspeltCustom(k)) }));
    const named = new Set(entries.flatMap(({ t, v }) => (t?.kind === 'ref' && given(v) ? [t.ref.field] : [])));
    for (const { k, v, t } of entries) {
      if (t) {
        if (t.kind !== 'ref' || given(v)) this.place(raw, t, v, issues, refs, custom);
      } else if (named.has(k)) this.skippedIds.add(k);
      else if (!top.has(k) && this.readOnly.has(k)) this.skippedReadOnly.add(k);
      else raw[k] = v; // a field of the operation as it is, or an unknown key that validation reports
    }
    return this.finish(raw, issues, false, refs, custom);
  }

  private place(raw: Record<string, unknown>, t: Target, v: unknown, issues: Issue[], refs: NonNullable<MappedRow['refs']>, custom: Map<string, CustomCells>): void {
    if (t.kind === 'field') setAt(raw, t.path, v);
    else if (t.kind === 'nested') {
      const r = nestedValue(t.subkeys, v);
      if ('rule' in r) issues.push({ field: t.key, rule: r.rule });
      else raw[t.key] = { ...((raw[t.key] ?? {}) as object), ...r.value };
    }
    else if (t.kind === 'ref') {
      const text = linkLabel(typeof v === 'string' ? v.trim() : v, t.ref.kind);
      if (typeof text === 'number' || (typeof text === 'string' && /^\d+$/.test(text))) raw[t.ref.field] = Number(text);
      else if (typeof text !== 'string' || text === '') issues.push({ field: t.header, rule: 'must be a name or an id' });
      else {
        refs.push({ ...t.ref, name: text, header: t.header });
        const id = this.names?.get(t.ref.kind)?.get(nameKey(text));
        raw[t.ref.field] = id ?? STAND_IN_ID;
      }
    }
    else custom.set(t.name, { ...custom.get(t.name), [t.part]: typeof v === 'string' ? v.trim() : v });
  }

  /** The stage a row names in the pipeline it names (stage names repeat across pipelines). */
  stageOfRow(refs: NonNullable<MappedRow['refs']>): number | undefined {
    const stage = refs.find((r) => r.kind === 'stage');
    const pipeline = refs.find((r) => r.kind === 'pipeline');
    if (!stage || !pipeline) return undefined;
    const pid = this.names?.get('pipeline')?.get(nameKey(pipeline.name));
    return pid === undefined ? undefined : this.names?.get('stage')?.get(stageInPipeline(pid, stage.name));
  }

  private finish(raw: Record<string, unknown>, issues: Issue[], text: boolean, refs: NonNullable<MappedRow['refs']>, custom: Map<string, CustomCells>): MappedRow {
    const byName = [...custom].map(([name, cells]) => [name, namedValue(cells)] as const).filter(([, v]) => v !== undefined);
    if (byName.length) raw.fields = { ...(raw.fields && typeof raw.fields === 'object' ? raw.fields : {}), ...Object.fromEntries(byName) };
    const stage = this.stageOfRow(refs);
    if (stage !== undefined) raw.stage_id = stage;
    let body = flagsAsNumbers(this.fields, raw);
    const named = refs.length ? { refs } : {};
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
function linkLabel(v: unknown, kind: RefKind): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    if (typeof v !== 'string' || !/^\{/.test(v)) return v;
    try {
      return linkLabel(JSON.parse(v), kind);
    } catch {
      return v;
    }
  }
  const o = v as Record<string, unknown>;
  return (kind === 'user' ? (o.email ?? o.name) : (o.name ?? o.title)) ?? o.value ?? o.id;
}

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
