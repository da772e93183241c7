// Organization fields of every account (system fields) and, in the demo account, custom fields with
// options, an important field bound to stages, and dialog settings.
import { hex40, SEED_TIME } from '../../seed/base.js';
import type { SandboxState, SeedName } from '../../store/state.js';
import { defaultUi } from './body.js';
import { orgFields, subfieldsFor, type OrgField, type UiVisibility } from './records.js';

type Extra = Partial<Omit<OrgField, 'ui_visibility'>> & { ui?: Partial<UiVisibility> };

export function seedOrganizationFields(state: SandboxState, name: SeedName): void {
  const col = orgFields(state);
  let optionId = 301;
  const add = (field_code: string, field_name: string, field_type: string, extra: Extra = {}) => {
    const { ui, ...rest } = extra;
    col.insert({
      id: col.allocateId() as number, field_code, field_name, field_type, options: null, subfields: subfieldsFor(field_type, field_name), is_custom_field: false,
      is_optional_response_field: false, ui_visibility: { ...defaultUi(), ...ui },
      important_fields: { enabled: false, stage_ids: [] }, required_fields: { enabled: false }, ...rest,
    }, { silent: true });
  };
  const opts = (...labels: string[]) => labels.map((label) => ({ id: optionId++, label, color: null, add_time: SEED_TIME, update_time: SEED_TIME }));

  add('name', 'Name', 'varchar', {
    required_fields: { enabled: true },
    ui: { add_visible_flag: true, person_detail_visible_flag: true, deal_detail_visible_flag: true, show_in_add_deal_dialog: { show: true, order: 1 }, show_in_add_person_dialog: { show: true, order: 1 } },
  });
  add('owner_id', 'Owner', 'user', { ui: { add_visible_flag: true } });
  add('address', 'Address', 'address', { ui: { add_visible_flag: true, person_detail_visible_flag: true } });
  add('visible_to', 'Visible to', 'visible_to', { ui: { add_visible_flag: true } });
  add('add_time', 'Organization created', 'date', { is_optional_response_field: true });
  add('update_time', 'Update time', 'date', { is_optional_response_field: true });
  add('people_count', 'People', 'int', { is_optional_response_field: true });
  add('open_deals_count', 'Open deals', 'int', { is_optional_response_field: true });
  add('won_deals_count', 'Won deals', 'int', { is_optional_response_field: true });
  add('next_activity_date', 'Next activity date', 'date', { is_optional_response_field: true });
  if (name !== 'demo') return;

  const custom = { is_custom_field: true } as const;
  add(hex40('orgField:industry'), 'Industry', 'enum', {
    ...custom, options: opts('Technology', 'Finance', 'Healthcare', 'Retail', 'Manufacturing'),
    ui: { add_visible_flag: true, show_in_add_person_dialog: { show: true, order: 2 } },
  });
  add(hex40('orgField:employees'), 'Employees', 'double', { ...custom, important_fields: { enabled: true, stage_ids: [1, 2] } });
  add(hex40('orgField:segments'), 'Segments', 'set', { ...custom, options: opts('SMB', 'Mid-market', 'Enterprise') });
  add(hex40('orgField:revenue'), 'Annual revenue', 'monetary', { ...custom, ui: { show_in_add_deal_dialog: { show: true, order: 2 } } });
  add(hex40('orgField:vat'), 'VAT number', 'varchar', { ...custom, required_fields: { enabled: true } });
  add(hex40('orgField:contract'), 'Contract period', 'daterange', custom);
}
