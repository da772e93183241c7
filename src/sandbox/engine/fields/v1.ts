// The v1 form of a field record: `key` and `name` instead of field_code and field_name, flags instead of
// ui_visibility, options as {id, label}. Same records as the v2 field API (store.ts).
import type { FieldRecord } from './store.js';
import { v1Time } from '../time.js';


/** The field types the vendor documents for v1 field lists. */
const V1_TYPES = new Set(['address', 'date', 'daterange', 'double', 'enum', 'monetary', 'org', 'people', 'phone', 'set', 'text', 'time', 'timerange', 'user', 'varchar', 'varchar_auto', 'visible_to']);
/**
 * v1 reports a type of its documented set: references and integers as double, switches and statuses
 * as enum, anything else as varchar (see docs/interface-deviations.md).
 */
export function v1Type(t: string): string {
  if (V1_TYPES.has(t)) return t;
  if (['int', 'deal', 'deals', 'lead', 'project', 'activity', 'stage', 'pipeline', 'projects_board', 'projects_phase'].includes(t)) return 'double';
  if (['boolean', 'status', 'billing_frequency'].includes(t)) return 'enum';
  return 'varchar';
}

export function v1Field(f: FieldRecord, deleted = false): Record<string, unknown> {
  const ui = f.ui_visibility as Record<string, unknown>;
  return {
    id: f.id,
    key: f.field_code,
    name: f.field_name,
    order_nr: f.order_nr,
    field_type: v1Type(f.field_type),
    add_time: v1Time(f.add_time),
    update_time: v1Time(f.update_time),
    last_updated_by_user_id: (f.last_updated_by_user_id as number | undefined) ?? null,
    created_by_user_id: (f.created_by_user_id as number | undefined) ?? null,
    active_flag: !deleted,
    edit_flag: f.is_custom_field,
    index_visible_flag: true,
    details_visible_flag: ui.details_visible_flag !== false,
    add_visible_flag: ui.add_visible_flag === true,
    important_flag: f.important_fields?.enabled === true,
    bulk_edit_allowed: f.is_custom_field,
    searchable_flag: ['varchar', 'varchar_auto', 'text', 'double', 'monetary', 'phone', 'address'].includes(f.field_type),
    filtering_allowed: true,
    sortable_flag: true,
    mandatory_flag: f.required_fields?.enabled === true,
    options: f.options ? f.options.map((o) => ({ id: o.id, label: o.label })) : null,
    is_subfield: false,
    ...(f.subfields ? { subfields: f.subfields.map((s) => ({ key: `${f.field_code}_${s.field_code}`, name: s.field_name, field_type: v1Type(s.field_type) })) } : {}),
  };
}
