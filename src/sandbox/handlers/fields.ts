// Area module: the field APIs of deals, persons, organizations, products and projects (v2, and v1 where it
// exists), all from one engine (../engine/fields). The seed gives every account the system fields and
// the demo account custom fields of every type family, with options, an important field bound to stages
// and dialog settings.
import { CHANNELS, DEAL_FIELD_KEYS, hex40 } from '../seed/base.js';
import { FIELD_ENTITIES } from '../engine/fields/entities.js';
import { fieldRoutes } from '../engine/fields/routes.js';
import { seedField, seedSystemFields } from '../engine/fields/seed.js';
import type { FieldEntity } from '../engine/fields/store.js';
import type { SandboxState, SeedName } from '../store/state.js';
import type { AreaModule } from '../types.js';

/** Custom field codes of the demo account, for tests and examples. */
export const PERSON_FIELD_KEYS = {
  language: hex40('personField:language'),
  interests: hex40('personField:interests'),
  linkedin: hex40('personField:linkedin'),
  lifetimeValue: hex40('personField:lifetimeValue'),
} as const;

export const ORG_FIELD_KEYS = {
  industry: hex40('orgField:industry'),
  employees: hex40('orgField:employees'),
  segments: hex40('orgField:segments'),
  revenue: hex40('orgField:revenue'),
  vat: hex40('orgField:vat'),
  contract: hex40('orgField:contract'),
} as const;

export const PRODUCT_FIELD_KEYS = {
  warranty: hex40('productField:warranty'),
  platform: hex40('productField:platform'),
} as const;

export const PROJECT_FIELD_KEYS = {
  budgetCode: hex40('projectField:budgetCode'),
  estimatedHours: hex40('projectField:estimatedHours'),
  goLive: hex40('projectField:goLive'),
  region: hex40('projectField:region'),
  deliverables: hex40('projectField:deliverables'),
  contractValue: hex40('projectField:contractValue'),
} as const;

const opts = (first: number, ...labels: string[]) => labels.map((label, i) => ({ id: first + i, label }));

function seedFields(state: SandboxState, name: SeedName): void {
  // Labels of deals, persons, organizations and projects are the options of their `label`/`label_ids` fields (the web app's defaults).
  seedSystemFields(state, 'deal', { channel: { options: CHANNELS }, label: { options: opts(501, 'Hot', 'Warm', 'Cold', 'Follow up') } });
  seedSystemFields(state, 'person', { label_ids: { options: opts(1, 'Customer', 'Prospect', 'Partner', 'VIP') } });
  seedSystemFields(state, 'organization', { label_ids: { options: opts(601, 'Customer', 'Hot lead', 'Warm lead', 'Cold lead') } });
  seedSystemFields(state, 'product');
  seedSystemFields(state, 'project', { label_ids: { options: opts(1, 'Priority', 'Internal', 'Customer-facing') } });

  // Deal custom fields exist in every account: leads carry them too (interface, Lead).
  const custom = (entity: FieldEntity, code: string, fname: string, type: string, more: Parameters<typeof seedField>[2] extends infer S ? Partial<S> : never = {}) =>
    seedField(state, entity, { code, name: fname, type, custom: true, ...more });
  custom('deal', DEAL_FIELD_KEYS.leadScore, 'Lead score', 'double');
  custom('deal', DEAL_FIELD_KEYS.budget, 'Budget', 'monetary');
  custom('deal', DEAL_FIELD_KEYS.segment, 'Segment', 'enum', { options: opts(101, 'SMB', 'Mid-market', 'Enterprise') });
  // One deal field of every other value family (text, multi-option, date, user, organization, person).
  custom('deal', DEAL_FIELD_KEYS.notes, 'Deal notes', 'text');
  custom('deal', DEAL_FIELD_KEYS.interests, 'Interests', 'set', { options: opts(111, 'Licences', 'Services', 'Training') });
  custom('deal', DEAL_FIELD_KEYS.renewal, 'Renewal date', 'date');
  custom('deal', DEAL_FIELD_KEYS.accountManager, 'Account manager', 'user');
  custom('deal', DEAL_FIELD_KEYS.partner, 'Partner', 'org');
  custom('deal', DEAL_FIELD_KEYS.technicalContact, 'Technical contact', 'people');

  const P = PROJECT_FIELD_KEYS;
  custom('project', P.budgetCode, 'Budget code', 'varchar');
  custom('project', P.estimatedHours, 'Estimated hours', 'double');
  custom('project', P.goLive, 'Go-live date', 'date');
  custom('project', P.region, 'Delivery region', 'enum', { options: opts(1, 'EMEA', 'Americas', 'APAC') });
  custom('project', P.deliverables, 'Deliverables', 'set', { options: opts(11, 'Training', 'Integration', 'Data migration') });
  custom('project', P.contractValue, 'Contract value', 'monetary');
  if (name !== 'demo') return;

  const PF = PERSON_FIELD_KEYS;
  custom('person', PF.language, 'Preferred language', 'enum', { options: opts(201, 'English', 'Estonian', 'Finnish', 'Swedish') });
  custom('person', PF.interests, 'Interests', 'set', { options: opts(211, 'Analytics', 'Logistics', 'Retail', 'Security') });
  custom('person', PF.linkedin, 'LinkedIn profile', 'varchar');
  custom('person', PF.lifetimeValue, 'Lifetime value', 'monetary');

  const O = ORG_FIELD_KEYS;
  custom('organization', O.industry, 'Industry', 'enum', {
    options: opts(301, 'Technology', 'Finance', 'Healthcare', 'Retail', 'Manufacturing'),
    ui: { add_visible_flag: true, show_in_add_person_dialog: { show: true, order: 2 } },
  });
  custom('organization', O.employees, 'Employees', 'double', { extra: { important_fields: { enabled: true, stage_ids: [1, 2] } } });
  custom('organization', O.segments, 'Segments', 'set', { options: opts(306, 'SMB', 'Mid-market', 'Enterprise') });
  custom('organization', O.revenue, 'Annual revenue', 'monetary', { ui: { show_in_add_deal_dialog: { show: true, order: 2 } } });
  custom('organization', O.vat, 'VAT number', 'varchar', { extra: { required_fields: { enabled: true } } });
  custom('organization', O.contract, 'Contract period', 'daterange');

  custom('product', PRODUCT_FIELD_KEYS.warranty, 'Warranty (months)', 'double');
  custom('product', PRODUCT_FIELD_KEYS.platform, 'Platform', 'set', { options: opts(401, 'Web', 'iOS', 'Android') });
}

export const fieldsArea: AreaModule = {
  name: 'fields',
  routes: (Object.values(FIELD_ENTITIES)).flatMap(fieldRoutes),
  seed: seedFields,
};
