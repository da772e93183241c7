// Field metadata of every item type kept in one shape (the v2 Field of the vendor's documents plus a
// numeric id, an order and times), one collection per item type. The v2 field API presents it as is, the
// v1 field API and filters read the same records through v1.ts, and records keep custom values under
// field_code keys — so a field created through either API version is the same field everywhere.
import type { SandboxState } from '../../store/state.js';

export type FieldEntity = 'deal' | 'person' | 'organization' | 'product' | 'project';

export interface FieldOption { id: number; label: string; color: string | null; add_time: string | null; update_time: string | null }
export interface Subfield { field_code: string; field_name: string; field_type: string }

export interface FieldRecord {
  id: number;
  field_code: string;
  field_name: string;
  field_type: string;
  description?: string | null;
  options: FieldOption[] | null;
  subfields: Subfield[] | null;
  is_custom_field: boolean;
  is_optional_response_field: boolean;
  ui_visibility: Record<string, unknown>;
  important_fields?: { enabled: boolean; stage_ids: number[] };
  required_fields?: { enabled: boolean; stage_ids?: number[]; statuses?: Record<string, string[]> };
  order_nr: number;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

export const FIELD_COLLECTION: Record<FieldEntity, string> = {
  deal: 'dealFields',
  person: 'personFields',
  organization: 'organizationFields',
  product: 'productFields',
  project: 'projectFields',
};

export const fieldStore = (state: SandboxState, entity: FieldEntity) =>
  state.collection<FieldRecord>(FIELD_COLLECTION[entity], { idKind: 'int' });

/** Live custom fields of an item type, in field order. */
export function customFields(state: SandboxState, entity: FieldEntity): FieldRecord[] {
  return fieldStore(state, entity).filter((f) => f.is_custom_field).sort((a, b) => a.order_nr - b.order_nr || a.id - b.id);
}

export function customFieldMap(state: SandboxState, entity: FieldEntity): Map<string, FieldRecord> {
  return new Map(customFields(state, entity).map((f) => [f.field_code, f]));
}

export function fieldByCode(state: SandboxState, entity: FieldEntity, code: string): FieldRecord | undefined {
  return fieldStore(state, entity).find((f) => f.field_code === code);
}

/** Next free option id across every field of the account (option ids are unique company-wide). */
export function nextOptionId(state: SandboxState): number {
  let max = 0;
  for (const e of Object.keys(FIELD_COLLECTION) as FieldEntity[]) {
    for (const f of fieldStore(state, e).allWithDeleted()) for (const o of f.options ?? []) if (o.id > max) max = o.id;
  }
  return max + 1;
}

export const ADDRESS_SUBFIELDS: [string, string][] = [
  ['value', 'Address value'], ['street_number', 'House number'], ['route', 'Street/road name'], ['subpremise', 'Apartment/suite'],
  ['locality', 'District'], ['admin_area_level_1', 'State/province'], ['admin_area_level_2', 'County'], ['country', 'Country'],
  ['postal_code', 'Postal code'], ['formatted_address', 'Formatted address'],
];

export function subfieldsFor(type: string, name: string): Subfield[] | null {
  if (type === 'address') return ADDRESS_SUBFIELDS.map(([code, label]) => ({ field_code: code, field_name: `${label} of ${name}`, field_type: 'varchar' }));
  if (type === 'monetary') return [{ field_code: 'value', field_name: `Value of ${name}`, field_type: 'double' }, { field_code: 'currency', field_name: `Currency of ${name}`, field_type: 'varchar' }];
  return null;
}

export const OPTION_TYPES = new Set(['enum', 'set']);

/** Types a custom field can be created with (the create enum of the vendor's documents). */
export const CREATABLE_TYPES = [
  'varchar', 'varchar_auto', 'text', 'double', 'monetary', 'date', 'set', 'enum', 'user', 'org', 'people', 'phone', 'time',
  'timerange', 'daterange', 'address',
] as const;
