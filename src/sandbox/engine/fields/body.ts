// Validation of the field API's body members (create and update): options only for enum/set,
// ui_visibility with the system-managed dialog order, important and required fields bound to active deal
// stages (and, for deal fields, to the pipelines the field shows in), field_code/field_type immutable.
import { invalid } from '../../http/errors.js';
import { has, type Body } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import type { FieldEntityConfig } from './entities.js';
import { fieldStore, OPTION_TYPES, type FieldRecord } from './store.js';

function member(b: Body, k: string, prefix = ''): Body | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(`${prefix}${k}`, 'must be an object');
  return v as Body;
}

function known(obj: Body, prefix: string, allowed: readonly string[]): void {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) throw invalid(`${prefix}.${k}`, 'is not a known member');
}

function strictBool(b: Body, k: string, prefix: string): boolean | undefined {
  if (!has(b, k)) return undefined;
  if (typeof b[k] !== 'boolean') throw invalid(`${prefix}.${k}`, 'must be a boolean');
  return b[k] as boolean;
}

function intArray(v: unknown, where: string): number[] {
  if (!Array.isArray(v) || v.some((s) => !Number.isInteger(s))) throw invalid(where, 'must be an array of integers');
  return [...new Set(v as number[])];
}

export function fieldName(b: Body, required: boolean, key = 'field_name'): string | undefined {
  if (!has(b, key) || b[key] === null) {
    if (required) throw invalid(key, 'is required');
    if (b[key] === null) throw invalid(key, 'must not be null');
    return undefined;
  }
  const v = b[key];
  if (typeof v !== 'string' || !v.trim()) throw invalid(key, 'must be a non-empty string');
  if (v.length > 255) throw invalid(key, 'must be at most 255 characters');
  return v.trim();
}

/** Option labels of a new enum/set field: required there, refused for every other type. */
export function optionLabels(b: Body, type: string): string[] | null {
  if (!OPTION_TYPES.has(type)) {
    if (has(b, 'options') && b.options !== null) throw invalid('options', `only enum and set fields have options (field_type is ${type})`);
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
    known(item as Body, `${where}[${i}]`, ['label', 'id']);
    const label = (item as Body).label;
    if (typeof label !== 'string' || !label.trim()) throw invalid(`${where}[${i}].label`, 'is required (a non-empty string)');
    return label.trim();
  });
}

export function isActiveStage(state: SandboxState, id: number): boolean {
  const s = state.stages.get(id);
  const p = s ? state.pipelines.get(s.pipeline_id) : undefined;
  return Boolean(s && !s.is_deleted && p && !p.is_deleted);
}

const isActivePipeline = (state: SandboxState, id: number) => Boolean(state.pipelines.get(id) && !state.pipelines.get(id)!.is_deleted);

/** Dialog order is system-managed: a field that starts showing gets the position after the last one. */
function nextDialogOrder(state: SandboxState, cfg: FieldEntityConfig, dialog: string): number {
  let max = 0;
  for (const f of fieldStore(state, cfg.entity).all()) {
    const d = f.ui_visibility[dialog] as { show: boolean; order: number | null } | undefined;
    if (d?.show && d.order !== null && d.order > max) max = d.order;
  }
  return max + 1;
}

type Identity = Pick<FieldRecord, 'field_code' | 'is_custom_field'>;

/** ui_visibility after applying the request's member to `current`. */
export function applyUiVisibility(state: SandboxState, cfg: FieldEntityConfig, b: Body, current: Record<string, unknown>, field: Identity): Record<string, unknown> {
  const ui = member(b, 'ui_visibility');
  const next = structuredClone(current);
  if (!ui) return next;
  const members = [...Object.keys(cfg.uiFlags), ...cfg.dialogs.map((d) => d.name), ...(cfg.showInPipelines ? ['show_in_pipelines'] : [])];
  known(ui, 'ui_visibility', members);
  for (const flag of Object.keys(cfg.uiFlags)) {
    const v = strictBool(ui, flag, 'ui_visibility');
    if (v !== undefined) next[flag] = v;
  }
  if (next.add_visible_flag === false && !field.is_custom_field && cfg.alwaysInAddDialog.includes(field.field_code)) {
    throw invalid('ui_visibility.add_visible_flag', `cannot be false for the system field ${field.field_code}`);
  }
  for (const d of cfg.dialogs) {
    const setting = member(ui, d.name, 'ui_visibility.');
    if (!setting) continue;
    const where = `ui_visibility.${d.name}`;
    if (!field.is_custom_field && !d.systemFields.includes(field.field_code)) throw invalid(where, 'applies only to custom fields and certain system fields');
    known(setting, where, ['show', 'order']);
    // `order` may be sent but is system-managed; only its type is checked.
    if (has(setting, 'order') && setting.order !== null && !Number.isInteger(setting.order)) throw invalid(`${where}.order`, 'must be an integer or null');
    const show = strictBool(setting, 'show', where);
    if (show === undefined) continue;
    const was = current[d.name] as { show: boolean } | undefined;
    if (!show) next[d.name] = { show: false, order: null };
    else if (!was?.show) next[d.name] = { show: true, order: nextDialogOrder(state, cfg, d.name) };
  }
  if (cfg.showInPipelines) {
    const sp = member(ui, 'show_in_pipelines', 'ui_visibility.');
    if (sp) {
      known(sp, 'ui_visibility.show_in_pipelines', ['show_in_all', 'pipeline_ids']);
      const cur = (current.show_in_pipelines ?? { show_in_all: true, pipeline_ids: [] }) as { show_in_all: boolean; pipeline_ids: number[] };
      const all = strictBool(sp, 'show_in_all', 'ui_visibility.show_in_pipelines') ?? cur.show_in_all;
      let ids = has(sp, 'pipeline_ids') ? intArray(sp.pipeline_ids, 'ui_visibility.show_in_pipelines.pipeline_ids') : cur.pipeline_ids;
      const bad = ids.filter((id) => !isActivePipeline(state, id));
      if (bad.length) throw invalid('ui_visibility.show_in_pipelines.pipeline_ids', `must be active pipelines; not active: ${bad.join(', ')}`);
      if (!all && ids.length === 0) throw invalid('ui_visibility.show_in_pipelines.pipeline_ids', 'must name at least one pipeline when show_in_all is false');
      if (all) ids = [];
      next.show_in_pipelines = { show_in_all: all, pipeline_ids: ids };
    }
  }
  return next;
}

function stageIds(state: SandboxState, raw: unknown, where: string, enabled: boolean): number[] {
  const ids = intArray(raw, where);
  if (ids.length && !enabled) throw invalid(where, `must be empty when ${where.split('.')[0]}.enabled is false`);
  const inactive = ids.filter((id) => !isActiveStage(state, id));
  if (inactive.length) throw invalid(where, `must be active deal stages; not active: ${inactive.join(', ')}`);
  return ids;
}

/** Deal fields: stages must lie in pipelines the field shows in. */
function checkShownIn(state: SandboxState, ui: Record<string, unknown>, ids: number[], where: string): void {
  const sp = ui.show_in_pipelines as { show_in_all: boolean; pipeline_ids: number[] } | undefined;
  if (!sp || sp.show_in_all) return;
  const outside = ids.filter((id) => !sp.pipeline_ids.includes(state.stages.get(id)!.pipeline_id));
  if (outside.length) throw invalid(where, `stages ${outside.join(', ')} are in pipelines where the field is not shown (ui_visibility.show_in_pipelines)`);
}

export function applyImportant(state: SandboxState, cfg: FieldEntityConfig, b: Body, current: FieldRecord['important_fields'], ui: Record<string, unknown>): FieldRecord['important_fields'] {
  if (!cfg.important) {
    if (has(b, 'important_fields')) throw invalid('important_fields', `is not available for ${cfg.entity} fields`);
    return undefined;
  }
  const cur = current ?? { enabled: false, stage_ids: [] };
  const imp = member(b, 'important_fields');
  if (!imp) return structuredClone(cur);
  known(imp, 'important_fields', ['enabled', 'stage_ids']);
  const enabled = strictBool(imp, 'enabled', 'important_fields') ?? cur.enabled;
  const ids = has(imp, 'stage_ids') ? stageIds(state, imp.stage_ids, 'important_fields.stage_ids', enabled) : cur.stage_ids;
  checkShownIn(state, ui, ids, 'important_fields.stage_ids');
  return { enabled, stage_ids: enabled ? ids : [] };
}

export function applyRequired(state: SandboxState, cfg: FieldEntityConfig, b: Body, current: FieldRecord['required_fields'], ui: Record<string, unknown>): FieldRecord['required_fields'] {
  if (cfg.required === 'none') {
    if (has(b, 'required_fields')) throw invalid('required_fields', `is not available for ${cfg.entity} fields`);
    return undefined;
  }
  const cur = current ?? { enabled: false };
  const req = member(b, 'required_fields');
  if (!req) return structuredClone(cur);
  if (cfg.required === 'simple') {
    known(req, 'required_fields', ['enabled']);
    return { enabled: strictBool(req, 'enabled', 'required_fields') ?? cur.enabled };
  }
  known(req, 'required_fields', ['enabled', 'stage_ids', 'statuses']);
  const enabled = strictBool(req, 'enabled', 'required_fields') ?? cur.enabled;
  const ids = has(req, 'stage_ids') ? stageIds(state, req.stage_ids, 'required_fields.stage_ids', enabled) : (cur.stage_ids ?? []);
  checkShownIn(state, ui, ids, 'required_fields.stage_ids');
  let statuses = cur.statuses ?? {};
  if (has(req, 'statuses')) {
    const s = member(req, 'statuses', 'required_fields.')!;
    statuses = {};
    for (const [pid, list] of Object.entries(s)) {
      const where = `required_fields.statuses.${pid}`;
      if (!/^\d+$/.test(pid) || !isActivePipeline(state, Number(pid))) throw invalid(where, 'keys must be ids of active pipelines');
      if (!Array.isArray(list) || list.some((x) => x !== 'won' && x !== 'lost')) throw invalid(where, 'must be an array of won, lost');
      statuses[pid] = [...new Set(list as string[])];
    }
  }
  return enabled ? { enabled, stage_ids: ids, statuses } : { enabled, stage_ids: [], statuses: {} };
}
