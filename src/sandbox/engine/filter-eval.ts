// Evaluates a saved filter (filter_id on the lists of deals, leads, persons, organizations, products,
// activities and projects). A filter holds the vendor's condition tree: one AND group of up to two
// groups (one AND, one OR) of conditions {object, field_id, operator, value}. A condition names its
// field by the field's numeric id (field_id) or its key (field_code); both resolve to a record key.
import { invalid } from '../http/errors.js';
import { compareValues } from '../http/sort.js';
import type { Filter, FilterCondition } from '../store/records.js';
import type { SandboxState } from '../store/state.js';
import { fieldStore, type FieldEntity } from './fields/store.js';

type Row = Record<string, unknown>;

/** The field metadata a filter type's conditions refer to (leads use deal fields, as in the web app). */
export const FILTER_ENTITY: Record<Filter['type'], FieldEntity | null> = {
  deals: 'deal', leads: 'deal', people: 'person', org: 'organization', products: 'product', projects: 'project', activity: null,
};

/** The record key a condition is about. */
export function conditionKey(state: SandboxState, type: Filter['type'], c: FilterCondition): string | undefined {
  if (c.field_code) return c.field_code;
  const entity = FILTER_ENTITY[type];
  if (!entity || c.field_id === null || c.field_id === undefined) return undefined;
  return fieldStore(state, entity).find((f) => String(f.id) === String(c.field_id))?.field_code;
}

// Some system field codes are not the member the stored record carries (the deal field `pipeline`
// is the record's `pipeline_id`, the owner field `user_id` its `owner_id`); a condition on such a
// field must read the record's member, or it matches nothing.
const RECORD_KEY: Partial<Record<FieldEntity, Record<string, string>>> = {
  deal: { pipeline: 'pipeline_id', user_id: 'owner_id', label: 'label_ids' },
  person: { email: 'emails', phone: 'phones' },
};

/** The stored record's member for a condition's field code. */
export function recordKey(type: Filter['type'], code: string): string {
  const entity = FILTER_ENTITY[type];
  return (entity && RECORD_KEY[entity]?.[code]) ?? code;
}

function memberValue(row: Row, key: string): unknown {
  const v = key in row ? row[key] : (row.custom_fields as Row | undefined)?.[key];
  // Emails and phones are lists of {value, label, primary}: a condition is about the values.
  if (Array.isArray(v)) return v.map((x) => (x && typeof x === 'object' && 'value' in x ? (x as Row).value : x));
  return v;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v)).toLowerCase();

export function holds(row: Row, key: string, c: Pick<FilterCondition, 'operator' | 'value'>): boolean {
  const v = memberValue(row, key);
  const want = c.value ?? null;
  const cmp = () => compareValues(typeof v === 'number' && want !== null && want !== '' && !Number.isNaN(Number(want)) ? v : v, typeof v === 'number' ? Number(want) : want);
  const like = (pattern: string) => {
    const needle = text(want);
    const hay = text(Array.isArray(v) ? v.join(',') : v);
    if (pattern === "LIKE '$%'") return hay.startsWith(needle);
    return hay.includes(needle);
  };
  switch (c.operator) {
    case '=': return Array.isArray(v) ? v.map(String).includes(String(want)) : String(v ?? '') === String(want ?? '');
    case '!=': return Array.isArray(v) ? !v.map(String).includes(String(want)) : String(v ?? '') !== String(want ?? '');
    case '<': return cmp() < 0;
    case '>': return cmp() > 0;
    case '<=': return cmp() <= 0;
    case '>=': return cmp() >= 0;
    case 'IS NULL': return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
    case 'IS NOT NULL': return !(v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0));
    case "LIKE '$%'": case "LIKE '%$%'": return like(c.operator);
    case "NOT LIKE '$%'": return !like(c.operator.slice(4));
    default: return false;
  }
}

export function matches(state: SandboxState, f: Filter, row: Row): boolean {
  return f.conditions.conditions.every((group) => {
    const results = group.conditions.map((c) => {
      const key = conditionKey(state, f.type, c);
      return key !== undefined && holds(row, recordKey(f.type, key), c);
    });
    if (!results.length) return true;
    return group.glue === 'or' ? results.some(Boolean) : results.every(Boolean);
  });
}

export function applyFilter<T extends Row>(state: SandboxState, filterId: number, type: Filter['type'], rows: T[]): T[] {
  const f = state.filters.get(filterId);
  if (!f) throw invalid('filter_id', `filter ${filterId} does not exist`);
  if (f.type !== type) throw invalid('filter_id', `filter ${filterId} is a ${f.type} filter, not a ${type} filter`);
  return rows.filter((r) => matches(state, f, r));
}

/** A one-group AND filter from [key, operator, value] triples (seeds). */
export function simpleConditions(object: string, ...conds: Array<[string, string, unknown]>): Filter['conditions'] {
  return {
    glue: 'and',
    conditions: [
      { glue: 'and', conditions: conds.map(([field_code, operator, value]) => ({ object, field_id: null, field_code, operator, value: value === null || value === undefined ? null : String(value), extra_value: null, json_value_flag: false })) },
      { glue: 'or', conditions: [] },
    ],
  };
}
