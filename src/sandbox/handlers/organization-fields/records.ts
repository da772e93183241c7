// Organization field records as the sandbox keeps them: the v2 Field shape (the vendor's documents) plus a
// numeric `id`, because the one v1 operation (bulk delete) names fields by numeric id.
import type { SandboxState } from '../../store/state.js';

export interface DialogSetting { show: boolean; order: number | null }
export interface UiVisibility {
  add_visible_flag: boolean;
  details_visible_flag: boolean;
  org_detail_visible_flag: boolean;
  person_detail_visible_flag: boolean;
  deal_detail_visible_flag: boolean;
  show_in_add_deal_dialog: DialogSetting;
  show_in_add_person_dialog: DialogSetting;
}
export interface FieldOption { id: number; label: string; color: string | null; add_time: string | null; update_time: string | null }

export interface OrgField {
  id: number;
  field_code: string;
  field_name: string;
  field_type: string;
  options: FieldOption[] | null;
  subfields: Array<{ field_code: string; field_name: string; field_type: string }> | null;
  is_custom_field: boolean;
  is_optional_response_field: boolean;
  ui_visibility: UiVisibility;
  important_fields: { enabled: boolean; stage_ids: number[] };
  required_fields: { enabled: boolean };
  [k: string]: unknown;
}

export const orgFields = (s: SandboxState) => s.collection<OrgField>('organizationFields', { idKind: 'int' });

/** Members returned only when asked through include_fields (interface). */
export const OPTIONAL_MEMBERS = ['ui_visibility', 'important_fields', 'required_fields'] as const;
export type OptionalMember = (typeof OPTIONAL_MEMBERS)[number];

export function present(f: OrgField, include: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...f };
  for (const m of OPTIONAL_MEMBERS) if (!include.has(m)) delete out[m];
  return out;
}

/**
 * The dialog settings apply to custom fields and to certain system fields; the interface does not list
 * those, the vendor examples show them on `name` and `address`.
 */
export const DIALOG_SYSTEM_FIELDS = new Set(['name', 'address']);

export const ADDRESS_SUBFIELDS: [string, string][] = [
  ['value', 'Address value'], ['street_number', 'House number'], ['route', 'Street/road name'], ['subpremise', 'Apartment/suite'],
  ['locality', 'District'], ['admin_area_level_1', 'State/province'], ['admin_area_level_2', 'County'], ['country', 'Country'],
  ['postal_code', 'Postal code'], ['formatted_address', 'Formatted address'],
];

export function subfieldsFor(type: string, name: string): OrgField['subfields'] {
  if (type === 'address') return ADDRESS_SUBFIELDS.map(([code, label]) => ({ field_code: code, field_name: `${label} of ${name}`, field_type: 'varchar' }));
  if (type === 'monetary') return [{ field_code: 'value', field_name: `Value of ${name}`, field_type: 'double' }, { field_code: 'currency', field_name: `Currency of ${name}`, field_type: 'varchar' }];
  return null;
}

/** Next free option id across the account's organization fields. */
export function nextOptionId(state: SandboxState): number {
  let max = 0;
  for (const f of orgFields(state).allWithDeleted()) for (const o of f.options ?? []) if (o.id > max) max = o.id;
  return max + 1;
}

/** Dialog order is system-managed: a field that starts showing gets the position after the last one. */
export function nextDialogOrder(state: SandboxState, dialog: 'show_in_add_deal_dialog' | 'show_in_add_person_dialog'): number {
  let max = 0;
  for (const f of orgFields(state).all()) {
    const d = f.ui_visibility[dialog];
    if (d.show && d.order !== null && d.order > max) max = d.order;
  }
  return max + 1;
}
