import type { Operation } from '../api/operation.js';
import { ValidationError } from '../core/errors.js';
import { unknownKeyRule } from '../input/unknown-keys.js';
import { setPath as setAt } from '../input/coerce.js';
import { bodyFields, coerceTextValues, type Issue } from './validate-body.js';
import { nameKey, refColumns, type NameRef, type RefColumn, type RefKind } from './name-refs.js';

/** Custom field metadata (GET /api/v1/dealFields for leads): header "Budget" → its 40-hex key. */
export interface CustomField {
  key: string;
  name: string;
  field_type: string;
  options?: Array<{ id: number | string; label: string }> | null;
}

/** Other header spellings people use in exports from spreadsheets and other CRMs. */
const ALIASES: Record<string, Record<string, string>> = {
  leads: {
    name: 'title', lead: 'title', organization: 'organization_id', org: 'organization_id', org_id: 'organization_id',
    person: 'person_id', contact_id: 'person_id', owner: 'owner_id', user_id: 'owner_id', labels: 'label_ids', label: 'label_ids',
    amount: 'value.amount', value: 'value.amount', currency: 'value.currency', expected_close: 'expected_close_date',
    close_date: 'expected_close_date', visibility: 'visible_to', origin: 'origin_id',
  },
  notes: { text: 'content', body: 'content', lead: 'lead_id', deal: 'deal_id', person: 'person_id', organization: 'org_id', organization_id: 'org_id' },
  projects: { name: 'title', phase: 'phase_id', board: 'board_id', owner: 'owner_id' },
  'activity-types': { icon: 'icon_key' },
  roles: { parent: 'parent_role_id', parent_id: 'parent_role_id' },
  teams: { manager: 'manager_id', members: 'users' },
};

const norm = (s: string) => s.trim().toLowerCase().replace(/[\s.\-/]+/g, '_');

type Target = { kind: 'field'; path: string[] } | { kind: 'custom'; field: CustomField } | { kind: 'currency'; key: string } | { kind: 'ref'; ref: RefColumn; header: string };

export interface MappedRow {
  body: Record<string, unknown>;
  issues: Issue[];
  /** Linked records the row gave by name (resolved to ids once per import). */
  refs?: Array<NameRef & { header: string }>;
}

/** Stands in for a name's id while rows are checked before the names are looked up. */
const STAND_IN_ID = 1;

/** Maps input rows (CSV records or JSON objects) to request bodies (typed from text); the importer checks them through the one entry. */
export class RowMapper {
  private readonly fields;
  private readonly byNorm = new Map<string, Target>();
  private readonly customKeys = new Set<string>();
  private csvTargets: Array<Target | undefined> = [];
  private names?: Map<RefKind, Map<string, number>>;

  constructor(readonly resource: string, readonly op: Operation, readonly custom: CustomField[] = []) {
    this.fields = bodyFields(op);
    for (const f of this.fields) {
      this.byNorm.set(norm(f.key), { kind: 'field', path: f.path });
      this.byNorm.set(norm(f.flag), { kind: 'field', path: f.path });
    }
    // Name columns first: "Organization" holds a name (or an id), not only an alias of the id field.
    for (const [header, ref] of refColumns(new Set(this.fields.map((f) => f.path[0]!)))) this.byNorm.set(header, { kind: 'ref', ref, header });
    for (const [alias, key] of Object.entries(ALIASES[resource] ?? {})) {
      const f = this.fields.find((x) => x.key === key);
      if (f && !this.byNorm.has(alias)) this.byNorm.set(alias, { kind: 'field', path: f.path });
    }
    for (const c of custom) {
      this.customKeys.add(c.key);
      this.byNorm.set(norm(c.name), { kind: 'custom', field: c });
      this.byNorm.set(c.key, { kind: 'custom', field: c });
      if (c.field_type === 'monetary') {
        this.customKeys.add(`${c.key}_currency`);
        for (const h of [`${c.name} currency`, `${c.name}_currency`, `${c.key}_currency`]) this.byNorm.set(norm(h), { kind: 'currency', key: `${c.key}_currency` });
      }
    }
  }

  /** Fixes the column of each CSV header; an unknown header stops the import before anything is read further. */
  setCsvHeader(headers: string[]): void {
    const unknown: string[] = [];
    this.csvTargets = headers.map((h) => {
      if (h.trim() === '') return undefined;
      const t = this.byNorm.get(norm(h)) ?? this.byNorm.get(h.trim());
      if (!t) unknown.push(h);
      return t;
    });
    if (unknown.length) {
      const known = this.fields.map((f) => f.key).concat(this.custom.map((c) => c.name));
      throw new ValidationError(unknown.map((u) => ({ field: '--file', rule: unknownKeyRule(u.trim(), known, 'column') })));
    }
  }

  /** A custom-field key this mapper admits beside the operation's fields (kept as it is, not checked by the schemas). */
  isCustomKey(key: string): boolean {
    return this.customKeys.has(key);
  }

  /** Ids for the names rows give (after resolveNames); until then names take a stand-in id so rows can be checked. */
  useNames(ids: Map<RefKind, Map<string, number>>): void {
    this.names = ids;
  }

  fromCsv(cells: string[]): MappedRow {
    const raw: Record<string, unknown> = {};
    const issues: Issue[] = [];
    const refs: NonNullable<MappedRow['refs']> = [];
    cells.forEach((cell, i) => {
      const t = this.csvTargets[i];
      if (!t || cell === '') return; // an empty cell means "not given"
      this.place(raw, t, cell, issues, refs);
    });
    return this.finish(raw, issues, true, refs);
  }

  fromJson(value: unknown): MappedRow {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { body: {}, issues: [{ field: 'row', rule: 'must be a JSON object' }] };
    const raw: Record<string, unknown> = {};
    const issues: Issue[] = [];
    const refs: NonNullable<MappedRow['refs']> = [];
    const top = new Set(this.fields.map((f) => f.path[0]!));
    for (const [k, v] of Object.entries(value)) {
      const t = top.has(k) ? undefined : (this.byNorm.get(k) ?? this.byNorm.get(norm(k)));
      if (t) this.place(raw, t, v, issues, refs);
      else raw[k] = v; // a field of the operation as it is, or an unknown key that validation reports
    }
    return this.finish(raw, issues, false, refs);
  }

  private place(raw: Record<string, unknown>, t: Target, v: unknown, issues: Issue[], refs: NonNullable<MappedRow['refs']>): void {
    if (t.kind === 'field') setAt(raw, t.path, v);
    else if (t.kind === 'ref') {
      const text = typeof v === 'string' ? v.trim() : v;
      if (typeof text === 'number' || (typeof text === 'string' && /^\d+$/.test(text))) raw[t.ref.field] = Number(text);
      else if (typeof text !== 'string' || text === '') issues.push({ field: t.header, rule: 'must be a name or an id' });
      else {
        refs.push({ ...t.ref, name: text, header: t.header });
        const id = this.names?.get(t.ref.kind)?.get(nameKey(text));
        raw[t.ref.field] = id ?? STAND_IN_ID;
      }
    }
    else if (t.kind === 'currency') raw[t.key] = typeof v === 'string' ? v.trim().toUpperCase() : v;
    else {
      const r = customValue(t.field, v);
      if ('rule' in r) issues.push({ field: t.field.name, rule: r.rule });
      else raw[t.field.key] = r.value;
    }
  }

  private finish(raw: Record<string, unknown>, issues: Issue[], text: boolean, refs: NonNullable<MappedRow['refs']>): MappedRow {
    let body = raw;
    const named = refs.length ? { refs } : {};
    if (text) {
      const c = coerceTextValues(this.fields, raw);
      body = c.body;
      issues.push(...c.issues);
    }
    // Unknown keys, the schemas and the account checks are the entry's (prepare, in the importer).
    return { body, issues, ...named };
  }
}

/** A custom field's value from text or JSON: numbers for number/monetary, option ids (or labels) for enum/set. */
export function customValue(f: CustomField, v: unknown): { value: unknown } | { rule: string } {
  if (v === null) return { value: null };
  const text = typeof v === 'string' ? v.trim() : v;
  const option = (x: unknown) => f.options?.find((o) => String(o.id) === String(x) || o.label.toLowerCase() === String(x).toLowerCase())?.id;
  switch (f.field_type) {
    case 'double':
    case 'monetary': {
      const n = typeof text === 'number' ? text : Number(text);
      return typeof text === 'boolean' || text === '' || !Number.isFinite(n) ? { rule: 'must be a number' } : { value: n };
    }
    case 'enum': {
      const id = option(text);
      return id === undefined ? { rule: `must be one of ${(f.options ?? []).map((o) => o.label).join(', ')}` } : { value: id };
    }
    case 'set': {
      const items = Array.isArray(text) ? text : String(text).split(',').map((s) => s.trim()).filter(Boolean);
      const ids = items.map(option);
      return ids.some((x) => x === undefined) ? { rule: `each value must be one of ${(f.options ?? []).map((o) => o.label).join(', ')}` } : { value: ids };
    }
    case 'date':
      return typeof text === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? { value: text } : { rule: 'must be a date YYYY-MM-DD' };
    default:
      return typeof text === 'string' || typeof text === 'number' ? { value: text } : { rule: 'must be text' };
  }
}
