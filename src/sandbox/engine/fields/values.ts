// Custom field values in records: validated against the item type's field metadata on every write and
// presented on every read. Keys are the fields' 40-character codes; a monetary field K keeps its currency
// in K_currency, a daterange/timerange field K its end in K_until (interface, "Custom fields"); null clears
// a value; an empty array for a multi-option (`set`) field is refused.
import { invalid } from '../../http/errors.js';
import { isDate, type Body } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import { customFieldMap, type FieldEntity, type FieldRecord } from './store.js';

const HHMMSS = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const SUFFIX: Record<string, string> = { monetary: '_currency', daterange: '_until', timerange: '_until' };

/** The field a key belongs to: the field itself, or the companion key of a monetary/range field. */
function resolve(meta: Map<string, FieldRecord>, key: string): { field: FieldRecord; companion: boolean } | undefined {
  const f = meta.get(key);
  if (f) return { field: f, companion: false };
  for (const suffix of ['_currency', '_until']) {
    if (!key.endsWith(suffix)) continue;
    const base = meta.get(key.slice(0, -suffix.length));
    if (base && SUFFIX[base.field_type] === suffix) return { field: base, companion: true };
  }
  return undefined;
}

function value(state: SandboxState, name: string, f: FieldRecord, v: unknown): unknown {
  const optionIds = new Set((f.options ?? []).map((o) => o.id));
  const about = `(${f.field_name})`;
  switch (f.field_type) {
    case 'double': case 'monetary':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(name, `must be a number ${about}`);
      return v;
    case 'date': case 'daterange':
      if (typeof v !== 'string' || !isDate(v)) throw invalid(name, `must be a date in YYYY-MM-DD format ${about}`);
      return v;
    case 'time': case 'timerange':
      if (typeof v !== 'string' || !HHMMSS.test(v)) throw invalid(name, `must be a time in HH:MM:SS format ${about}`);
      return v.length === 5 ? `${v}:00` : v;
    case 'enum':
      if (typeof v !== 'number' || !optionIds.has(v)) throw invalid(name, `must be one of the option ids of ${f.field_name}: ${[...optionIds].join(', ')}`);
      return v;
    case 'set': {
      if (Array.isArray(v) && v.length === 0) throw invalid(name, `an empty array is not supported for the multi-option field ${f.field_name}; use null to clear the selection`);
      const arr = Array.isArray(v) ? v : [v];
      if (!arr.every((x) => typeof x === 'number' && optionIds.has(x))) throw invalid(name, `must be option ids of ${f.field_name}: ${[...optionIds].join(', ')}`);
      return [...new Set(arr as number[])];
    }
    case 'user':
      if (typeof v !== 'number' || !state.users.get(v)) throw invalid(name, `must be the id of a user ${about}`);
      return v;
    case 'org':
      if (typeof v !== 'number' || !state.organizations.get(v)) throw invalid(name, `must be the id of an organization ${about}`);
      return v;
    case 'people':
      if (typeof v !== 'number' || !state.persons.get(v)) throw invalid(name, `must be the id of a person ${about}`);
      return v;
    case 'text':
      if (typeof v !== 'string') throw invalid(name, `must be text ${about}`);
      if (v.length > 65_000) throw invalid(name, `must be at most 65000 characters ${about}`);
      return v;
    default:
      if (typeof v !== 'string' && typeof v !== 'number') throw invalid(name, `must be text ${about}`);
      if (String(v).length > 255) throw invalid(name, `must be at most 255 characters ${about}`);
      return String(v);
  }
}

function companion(state: SandboxState, name: string, f: FieldRecord, v: unknown): unknown {
  if (f.field_type === 'monetary') {
    if (typeof v !== 'string' || !state.currencies.find((c) => c.code === v && c.active_flag)) throw invalid(name, 'must be an active 3-letter currency code');
    return v;
  }
  return value(state, name, f, v);
}

/** True when `key` is a custom field code of the item type, or the companion key of one. */
export function isCustomKey(state: SandboxState, entity: FieldEntity, key: string): boolean {
  return resolve(customFieldMap(state, entity), key) !== undefined;
}

/** Checks a `custom_fields` object of a v2 write; returns the values to merge into the record's. */
export function parseCustomFields(state: SandboxState, entity: FieldEntity, raw: unknown, where = 'custom_fields'): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(where, 'must be an object keyed by custom field code');
  const meta = customFieldMap(state, entity);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(raw as Body)) {
    const name = where ? `${where}.${key}` : key;
    const hit = resolve(meta, key);
    if (!hit) throw invalid(name, `is not a ${entity} custom field`);
    out[key] = v === null ? null : hit.companion ? companion(state, name, hit.field, v) : value(state, name, hit.field, v);
  }
  return out;
}

export interface CustomPresentOptions { customKeys?: string[]; optionLabels?: boolean }

/** The `custom_fields` object of a v2 record: every live custom field (null when unset), or the asked ones. */
export function presentCustomFields(state: SandboxState, entity: FieldEntity, values: Record<string, unknown> | undefined, o: CustomPresentOptions = {}): Record<string, unknown> {
  const meta = customFieldMap(state, entity);
  const keys = o.customKeys?.length ? o.customKeys.filter((k) => meta.has(k)) : [...meta.keys()];
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const f = meta.get(k)!;
    const v = values?.[k] ?? null;
    if (o.optionLabels && v !== null && (f.field_type === 'enum' || f.field_type === 'set')) {
      const label = (id: unknown) => ({ id, label: f.options?.find((x) => x.id === id)?.label ?? null });
      out[k] = f.field_type === 'set' ? (Array.isArray(v) ? v : [v]).map(label) : label(v);
    } else out[k] = v;
    const suffix = SUFFIX[f.field_type];
    if (suffix) out[`${k}${suffix}`] = values?.[`${k}${suffix}`] ?? null;
  }
  return out;
}

/** v1 records carry custom values as top-level keys. */
export function flatCustomFields(state: SandboxState, entity: FieldEntity, values: Record<string, unknown> | undefined): Record<string, unknown> {
  return presentCustomFields(state, entity, values);
}
