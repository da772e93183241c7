// Validation of the organization field body members (create and update), with the rules of the
// interface: options only for enum/set, ui_visibility defaults and the system-managed dialog order,
// important_fields.stage_ids = active deal stages and empty unless enabled, field_code/field_type immutable.
import { invalid } from '../../http/errors.js';
import { has, optBool, type Body } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import { DIALOG_SYSTEM_FIELDS, nextDialogOrder, type OrgField, type UiVisibility } from './records.js';

export const FIELD_TYPES = [
  'varchar', 'varchar_auto', 'text', 'double', 'monetary', 'date', 'set', 'enum', 'user', 'org', 'people', 'phone', 'time',
  'timerange', 'daterange', 'address',
] as const;
export const OPTION_TYPES = new Set(['enum', 'set']);
const DIALOGS = ['show_in_add_deal_dialog', 'show_in_add_person_dialog'] as const;
const UI_MEMBERS = ['add_visible_flag', 'details_visible_flag', ...DIALOGS];

function member(b: Body, k: string): Body | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(k, 'must be an object');
  return v as Body;
}

function known(obj: Body, prefix: string, allowed: readonly string[]): void {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) throw invalid(`${prefix}.${k}`, 'is not a known member');
}

export function fieldName(b: Body, required: boolean): string | undefined {
  if (!has(b, 'field_name') || b.field_name === null) {
    if (required) throw invalid('field_name', 'is required');
    if (b.field_name === null) throw invalid('field_name', 'must not be null');
    return undefined;
  }
  const v = b.field_name;
  if (typeof v !== 'string' || !v.trim()) throw invalid('field_name', 'must be a non-empty string');
  if (v.length > 255) throw invalid('field_name', 'must be at most 255 characters');
  return v.trim();
}

/** Option labels of a new enum/set field: required there, refused for every other type. */
export function optionLabels(b: Body, type: string): string[] | null {
  if (!OPTION_TYPES.has(type)) {
    if (has(b, 'options')) throw invalid('options', `only enum and set fields have options (field_type is ${type})`);
    return null;
  }
  if (!has(b, 'options') || b.options === null) throw invalid('options', `is required for field_type ${type}`);
  return labelList(b.options, 'options');
}

/** A non-empty array of {label} (create options, bulk option add). */
export function labelList(v: unknown, where: string): string[] {
  if (!Array.isArray(v)) throw invalid(where, 'must be an array of {label}');
  if (v.length === 0) throw invalid(where, 'at least one option is needed');
  return v.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(`${where}[${i}]`, 'must be an object {label}');
    known(item as Body, `${where}[${i}]`, ['label']);
    const label = (item as Body).label;
    if (typeof label !== 'string' || !label.trim()) throw invalid(`${where}[${i}].label`, 'is required (a non-empty string)');
    return label.trim();
  });
}

/**
 * ui_visibility after applying the request's member to `current`. add_visible_flag cannot be false for
 * the system field `name`; dialog orders are the service's: null when hidden, next free when shown.
 */
export function applyUiVisibility(state: SandboxState, b: Body, current: UiVisibility, field: { field_code: string; is_custom_field: boolean }): UiVisibility {
  const ui = member(b, 'ui_visibility');
  const next: UiVisibility = structuredClone(current);
  if (!ui) return next;
  known(ui, 'ui_visibility', UI_MEMBERS);
  const add = optBoolStrict(ui, 'add_visible_flag', 'ui_visibility');
  if (add !== undefined) next.add_visible_flag = add;
  if (field.field_code === 'name' && next.add_visible_flag === false) {
    throw invalid('ui_visibility.add_visible_flag', 'cannot be false for the system field name');
  }
  const details = optBoolStrict(ui, 'details_visible_flag', 'ui_visibility');
  if (details !== undefined) next.details_visible_flag = details;
  for (const d of DIALOGS) {
    const setting = member(ui, d);
    if (!setting) continue;
    const where = `ui_visibility.${d}`;
    if (!field.is_custom_field && !DIALOG_SYSTEM_FIELDS.has(field.field_code)) {
      throw invalid(where, 'applies only to custom fields and certain system fields');
    }
    known(setting, where, ['show', 'order']);
    // `order` may be sent but is system-managed; only its type is checked.
    if (has(setting, 'order') && setting.order !== null && !Number.isInteger(setting.order)) throw invalid(`${where}.order`, 'must be an integer or null');
    const show = optBoolStrict(setting, 'show', where);
    if (show === undefined) continue;
    if (!show) next[d] = { show: false, order: null };
    else if (!current[d].show) next[d] = { show: true, order: nextDialogOrder(state, d) };
  }
  return next;
}

function optBoolStrict(b: Body, k: string, prefix: string): boolean | undefined {
  if (!has(b, k)) return undefined;
  if (typeof b[k] !== 'boolean') throw invalid(`${prefix}.${k}`, 'must be a boolean');
  return optBool(b, k);
}

/** important_fields after the request: stage ids must be active deal stages, and empty unless enabled. */
export function applyImportant(state: SandboxState, b: Body, current: OrgField['important_fields']): OrgField['important_fields'] {
  const imp = member(b, 'important_fields');
  if (!imp) return structuredClone(current);
  known(imp, 'important_fields', ['enabled', 'stage_ids']);
  const enabled = optBoolStrict(imp, 'enabled', 'important_fields') ?? current.enabled;
  let stageIds = current.stage_ids;
  if (has(imp, 'stage_ids')) {
    const raw = imp.stage_ids;
    if (!Array.isArray(raw) || raw.some((s) => !Number.isInteger(s))) throw invalid('important_fields.stage_ids', 'must be an array of integers');
    stageIds = [...new Set(raw as number[])];
    if (stageIds.length && !enabled) throw invalid('important_fields.stage_ids', 'must be empty when important_fields.enabled is false');
    const inactive = stageIds.filter((id) => !isActiveStage(state, id));
    if (inactive.length) throw invalid('important_fields.stage_ids', `must be active deal stages; not active: ${inactive.join(', ')}`);
  }
  return { enabled, stage_ids: enabled ? stageIds : [] };
}

export function isActiveStage(state: SandboxState, id: number): boolean {
  const s = state.stages.get(id);
  return Boolean(s && !s.is_deleted && state.pipelines.get(s.pipeline_id) && !state.pipelines.get(s.pipeline_id)!.is_deleted);
}

export function applyRequired(b: Body, current: OrgField['required_fields']): OrgField['required_fields'] {
  const req = member(b, 'required_fields');
  if (!req) return structuredClone(current);
  known(req, 'required_fields', ['enabled']);
  return { enabled: optBoolStrict(req, 'enabled', 'required_fields') ?? current.enabled };
}

/** Defaults of a new custom field (interface: add false, details true, dialogs hidden, not important, not required). */
export function defaultUi(): UiVisibility {
  return {
    add_visible_flag: false, details_visible_flag: true, org_detail_visible_flag: true, person_detail_visible_flag: false,
    deal_detail_visible_flag: false, show_in_add_deal_dialog: { show: false, order: null }, show_in_add_person_dialog: { show: false, order: null },
  };
}
