// Field metadata every account has (system fields of each item type) and the demo account's custom
// fields. System field codes are the record keys the service uses, so filters and field lists name
// the same members the records carry.
import { SEED_TIME } from '../../seed/base.js';
import type { SandboxState } from '../../store/state.js';
import { defaultImportant, defaultRequired, defaultUi, FIELD_ENTITIES } from './entities.js';
import { fieldStore, subfieldsFor, type FieldEntity, type FieldOption, type FieldRecord } from './store.js';

export interface SeedFieldSpec {
  code: string;
  name: string;
  type: string;
  custom?: boolean;
  options?: Array<{ id: number; label: string }>;
  ui?: Record<string, unknown>;
  /** A member that only some responses carry (counts and times). */
  optional?: boolean;
  extra?: Partial<FieldRecord>;
}

export function seedField(state: SandboxState, entity: FieldEntity, s: SeedFieldSpec): FieldRecord {
  const cfg = FIELD_ENTITIES[entity];
  const col = fieldStore(state, entity);
  const options: FieldOption[] | null = s.options ? s.options.map((o) => ({ ...o, color: null, add_time: SEED_TIME, update_time: SEED_TIME })) : null;
  const rec: Omit<FieldRecord, 'id'> = {
    field_code: s.code, field_name: s.name, field_type: s.type, options, subfields: subfieldsFor(s.type, s.name),
    is_custom_field: s.custom === true, is_optional_response_field: s.optional === true,
    ui_visibility: { ...defaultUi(cfg), ...(s.ui ?? {}) }, order_nr: col.size + 1, add_time: SEED_TIME, update_time: SEED_TIME,
  };
  if (cfg.description) rec.description = null;
  const imp = defaultImportant(cfg), req = defaultRequired(cfg);
  if (imp) rec.important_fields = imp;
  if (req) rec.required_fields = req;
  return col.insert({ ...rec, ...(s.extra ?? {}) }, { silent: true });
}

type Sys = [code: string, name: string, type: string, opts?: Partial<SeedFieldSpec>];

const ADD = { ui: { add_visible_flag: true } };

/** System fields per item type (a representative set of the service's own). */
export const SYSTEM_FIELDS: Record<FieldEntity, Sys[]> = {
  deal: [
    ['title', 'Title', 'varchar', { ...ADD, extra: { required_fields: { enabled: true, stage_ids: [], statuses: {} } } }],
    ['value', 'Value', 'monetary', ADD],
    ['currency', 'Currency', 'varchar_options'],
    ['org_id', 'Organization', 'org', ADD],
    ['person_id', 'Contact person', 'people', ADD],
    // The vendor's v2 type list has no `pipeline`; the pipeline is an integer reference there.
    ['pipeline', 'Pipeline', 'int', ADD],
    ['stage_id', 'Stage', 'stage', ADD],
    ['probability', 'Probability', 'double', ADD],
    ['user_id', 'Owner', 'user', ADD],
    ['status', 'Status', 'status'],
    ['expected_close_date', 'Expected close date', 'date', ADD],
    ['lost_reason', 'Lost reason', 'varchar'],
    ['visible_to', 'Visible to', 'visible_to'],
    ['label', 'Label', 'set'],
    ['add_time', 'Deal created', 'date', { optional: true }],
    ['update_time', 'Update time', 'date', { optional: true }],
    ['won_time', 'Won time', 'date', { optional: true }],
    ['lost_time', 'Lost time', 'date', { optional: true }],
    ['close_time', 'Deal closed on', 'date', { optional: true }],
    ['channel', 'Source channel', 'enum'],
    ['channel_id', 'Source channel ID', 'varchar'],
    ['origin', 'Source origin', 'varchar'],
  ],
  person: [
    ['name', 'Name', 'varchar', { ...ADD, extra: { required_fields: { enabled: true } }, ui: { add_visible_flag: true, show_in_add_deal_dialog: { show: true, order: 1 } } }],
    ['first_name', 'First name', 'varchar'],
    ['last_name', 'Last name', 'varchar'],
    ['owner_id', 'Owner', 'user', ADD],
    ['org_id', 'Organization', 'org', ADD],
    ['email', 'Email', 'varchar', ADD],
    ['phone', 'Phone', 'phone', ADD],
    ['label_ids', 'Labels', 'set'],
    ['visible_to', 'Visible to', 'visible_to'],
    ['add_time', 'Person created', 'date', { optional: true }],
    ['update_time', 'Update time', 'date', { optional: true }],
    ['open_deals_count', 'Open deals', 'int', { optional: true }],
    ['won_deals_count', 'Won deals', 'int', { optional: true }],
  ],
  organization: [
    ['name', 'Name', 'varchar', {
      extra: { required_fields: { enabled: true } },
      ui: { add_visible_flag: true, person_detail_visible_flag: true, deal_detail_visible_flag: true, show_in_add_deal_dialog: { show: true, order: 1 }, show_in_add_person_dialog: { show: true, order: 1 } },
    }],
    ['owner_id', 'Owner', 'user', ADD],
    ['address', 'Address', 'address', { ui: { add_visible_flag: true, person_detail_visible_flag: true } }],
    ['visible_to', 'Visible to', 'visible_to', ADD],
    ['label_ids', 'Labels', 'set'],
    ['add_time', 'Organization created', 'date', { optional: true }],
    ['update_time', 'Update time', 'date', { optional: true }],
    ['people_count', 'People', 'int', { optional: true }],
    ['open_deals_count', 'Open deals', 'int', { optional: true }],
    ['won_deals_count', 'Won deals', 'int', { optional: true }],
    ['next_activity_date', 'Next activity date', 'date', { optional: true }],
  ],
  product: [
    ['name', 'Name', 'varchar', ADD],
    ['code', 'Product code', 'varchar', ADD],
    ['description', 'Description', 'text', ADD],
    ['unit', 'Unit', 'varchar', ADD],
    ['tax', 'Tax', 'double', ADD],
    ['category', 'Category', 'enum', ADD],
    ['owner_id', 'Owner', 'user', ADD],
    ['prices', 'Unit prices', 'price_list', ADD],
    ['billing_frequency', 'Billing frequency', 'billing_frequency'],
    ['visible_to', 'Visible to', 'visible_to'],
    ['add_time', 'Product created', 'date', { optional: true }],
    ['update_time', 'Update time', 'date', { optional: true }],
  ],
  project: [
    ['title', 'Title', 'varchar', ADD],
    ['description', 'Description', 'text', ADD],
    ['owner_id', 'Owner', 'user', ADD],
    ['status', 'Status', 'status'],
    ['start_date', 'Start date', 'date', ADD],
    ['end_date', 'End date', 'date', ADD],
    ['board_id', 'Board', 'projects_board', ADD],
    ['phase_id', 'Phase', 'projects_phase', ADD],
    ['label_ids', 'Labels', 'set'],
  ],
};

export function seedSystemFields(state: SandboxState, entity: FieldEntity, extra: Record<string, Partial<SeedFieldSpec>> = {}): void {
  for (const [code, name, type, opts] of SYSTEM_FIELDS[entity]) seedField(state, entity, { code, name, type, ...(opts ?? {}), ...(extra[code] ?? {}) });
}
