// The 'demo' seed: a small, realistic account on top of the base skeleton —
// organizations, persons with emails and phones, deals across both pipelines (and one archived),
// leads (one archived, one owner-only), notes, activities and a lead filter.
import { simpleConditions } from '../engine/filter-eval.js';
import type { SandboxState } from '../store/state.js';
import { DEAL_FIELD_KEYS, seedUuid } from './base.js';
import { v1Time } from '../engine/time.js';

const day = (d: number) => new Date(Date.UTC(2025, 0, 6 + d, 9, 0, 0)).toISOString();

const ORGS: [string, string, string, string][] = [
  ['Acme Corporation', 'Tallinn', 'Estonia', 'https://acme.example.com'],
  ['Globex Industries', 'Riga', 'Latvia', 'https://globex.example.com'],
  ['Initech', 'Helsinki', 'Finland', 'https://initech.example.com'],
  ['Umbrella Logistics', 'Stockholm', 'Sweden', 'https://umbrella.example.com'],
  ['Stark Components', 'Vilnius', 'Lithuania', 'https://stark.example.com'],
  ['Wayne Retail Group', 'Oslo', 'Norway', 'https://wayne.example.com'],
];

// name, org index (1-based, 0 = none), owner
const PERSONS: [string, number, number][] = [
  ['Alice Andersson', 1, 1], ['Bob Berzins', 2, 2], ['Carla Korhonen', 3, 1], ['Dan Dahl', 4, 3],
  ['Eve Eriksen', 6, 2], ['Frank Fischer', 5, 1], ['Grace Grant', 1, 2], ['Hugo Hansen', 0, 3],
  ['Ines Ilves', 2, 1], ['Jonas Jankauskas', 5, 2],
];

export function seedDemo(state: SandboxState): void {
  ORGS.forEach(([name, city, country, website], i) => {
    state.organizations.insert({
      name, owner_id: (i % 3) + 1, add_time: day(i), update_time: day(i), is_deleted: false, visible_to: 3,
      address: { value: `${i + 1} Harbour Street, ${city}, ${country}`, country, locality: city },
      label_ids: [], website, custom_fields: {},
    }, { silent: true });
  });

  PERSONS.forEach(([name, org, owner], i) => {
    const [first_name, last_name] = name.split(' ') as [string, string];
    state.persons.insert({
      name, first_name, last_name, owner_id: owner, org_id: org || null,
      emails: [{ value: `${first_name.toLowerCase()}.${last_name.toLowerCase()}@example.org`, primary: true, label: 'work' }],
      phones: [{ value: `+372 5550 ${String(1000 + i * 37).padStart(4, '0')}`, primary: true, label: 'mobile' }],
      add_time: day(i), update_time: day(i + 1), is_deleted: false, visible_to: 3, label_ids: [], picture_id: null, custom_fields: {},
    }, { silent: true });
  });

  // title, value, currency, person, org, stage, owner, status
  const deals: [string, number, string, number, number, number, number, 'open' | 'won' | 'lost'][] = [
    ['Acme annual licence', 24000, 'EUR', 1, 1, 3, 1, 'open'],
    ['Globex onboarding', 8000, 'EUR', 2, 2, 1, 2, 'open'],
    ['Initech support contract', 12500, 'USD', 3, 3, 4, 1, 'won'],
    ['Umbrella fleet tracking', 56000, 'EUR', 4, 4, 5, 3, 'open'],
    ['Stark reseller agreement', 0, 'EUR', 6, 5, 7, 1, 'open'],
    ['Wayne POS pilot', 4300, 'GBP', 5, 6, 2, 2, 'lost'],
  ];
  deals.forEach(([title, value, currency, person_id, org_id, stage_id, owner, status], i) => {
    const stage = state.stages.get(stage_id)!;
    state.deals.insert({
      title, owner_id: owner, creator_user_id: owner, person_id, org_id, pipeline_id: stage.pipeline_id, stage_id,
      value, currency, add_time: day(i), update_time: day(i + 2), stage_change_time: day(i + 1), is_deleted: false,
      is_archived: false, status, probability: null, lost_reason: status === 'lost' ? 'Chose a competitor' : null,
      visible_to: 3, close_time: status === 'open' ? null : day(i + 3), won_time: status === 'won' ? day(i + 3) : null,
      lost_time: status === 'lost' ? day(i + 3) : null, expected_close_date: `2025-0${(i % 6) + 3}-15`, label_ids: [],
      origin: 'ManuallyCreated', origin_id: null, channel: null, channel_id: null, source_lead_id: null,
      custom_fields: { [DEAL_FIELD_KEYS.leadScore]: 40 + i * 10 },
    }, { silent: true });
  });

  const label = (name: string) => seedUuid(`label:${name}`);
  const leads: { title: string; person: number | null; org: number | null; owner: number; labels: string[];
    value: { amount: number; currency: string } | null; visible_to: string; archived?: string; channel?: number; extra?: Record<string, unknown> }[] = [
    { title: 'Acme rollout to second site', person: 1, org: 1, owner: 1, labels: ['Hot'], value: { amount: 18000, currency: 'EUR' }, visible_to: '3', channel: 5,
      extra: { [DEAL_FIELD_KEYS.leadScore]: 87 } },
    { title: 'Globex analytics add-on', person: null, org: 2, owner: 2, labels: ['Warm'], value: { amount: 4200, currency: 'EUR' }, visible_to: '1' },
    { title: 'Initech training package', person: 3, org: null, owner: 1, labels: ['Cold'], value: null, visible_to: '3', archived: 'Budget frozen' },
    { title: 'Umbrella warehouse sensors', person: 4, org: 4, owner: 3, labels: [], value: { amount: 31000, currency: 'SEK' }, visible_to: '7', channel: 6 },
    { title: 'Hugo Hansen consulting enquiry', person: 8, org: null, owner: 2, labels: ['Hot', 'Warm'], value: { amount: 1500, currency: 'EUR' }, visible_to: '3', channel: 1 },
  ];
  leads.forEach((l, i) => {
    const id = seedUuid(`lead:${i}`);
    state.leads.insert({
      id, title: l.title, owner_id: l.owner, creator_id: l.owner, label_ids: l.labels.map(label),
      person_id: l.person, organization_id: l.org, source_name: 'Manually created', origin: 'ManuallyCreated', origin_id: null,
      channel: l.channel ?? null, channel_id: null, source_deal_id: null, is_archived: Boolean(l.archived),
      archive_reason: l.archived ?? null, was_seen: i % 2 === 0, value: l.value, expected_close_date: null,
      next_activity_id: null, add_time: day(10 + i), update_time: day(11 + i), visible_to: l.visible_to,
      cc_email: `sandbox-trading+lead${i + 1}@pipedrivemail.com`, ...(l.extra ?? {}),
    }, { silent: true });
  });

  const note = (content: string, target: Partial<{ lead_id: string; deal_id: number; person_id: number; org_id: number }>, user: number, d: number) =>
    state.notes.insert({
      content, user_id: user, last_update_user_id: null, lead_id: null, deal_id: null, person_id: null, org_id: null,
      project_id: null, task_id: null, ...target, add_time: v1Time(day(d)), update_time: v1Time(day(d)), active_flag: true,
      pinned_to_lead_flag: false, pinned_to_deal_flag: false, pinned_to_organization_flag: false, pinned_to_person_flag: false,
      pinned_to_project_flag: false, pinned_to_task_flag: false,
    }, { silent: true });
  note('<p>Second site opens in spring; Alice wants a quote by March.</p>', { lead_id: seedUuid('lead:0') }, 1, 12);
  note('<p>Call notes: needs SSO and EU data residency.</p>', { lead_id: seedUuid('lead:0') }, 2, 13);
  note('<p>Signed the renewal terms.</p>', { deal_id: 1 }, 1, 8);
  note('<p>Prefers email over phone.</p>', { person_id: 2 }, 2, 5);

  const activity = (subject: string, type: string, owner: number, target: Partial<{ deal_id: number; lead_id: string; person_id: number; org_id: number }>, due: string | null, done: boolean) =>
    state.activities.insert({
      subject, type, owner_id: owner, deal_id: null, lead_id: null, person_id: null, org_id: null, ...target,
      due_date: due, due_time: null, done, add_time: day(9), update_time: day(9), is_deleted: false,
    }, { silent: true });
  activity('Quote follow-up call', 'call', 1, { lead_id: seedUuid('lead:0'), person_id: 1 }, '2025-02-03', false);
  activity('Demo for Umbrella ops team', 'meeting', 3, { deal_id: 4, person_id: 4, org_id: 4 }, '2025-02-10', false);
  activity('Send Globex onboarding plan', 'task', 2, { deal_id: 2 }, null, false);

  const t = day(0);
  state.filters.insert({
    name: 'Leads owned by Ada', type: 'leads', user_id: 1, active_flag: true, add_time: t, update_time: t,
    conditions: simpleConditions('lead', ['owner_id', '=', 1]),
  }, { silent: true });
  state.filters.insert({
    name: 'Big open deals', type: 'deals', user_id: 1, active_flag: true, add_time: t, update_time: t,
    conditions: simpleConditions('deal', ['value', '>', 10000], ['status', '=', 'open']),
  }, { silent: true });
}

/**
 * One archived deal (a lost trial of Wayne Retail Group): since 2025-07-15 the service serves archived
 * deals only by the archived list. Seeded after every area's seed, so the ids those seeds give their
 * deals stay as they were.
 */
export function seedArchivedDeal(state: SandboxState): void {
  const stage = state.stages.get(2)!;
  state.deals.insert({
    title: 'Wayne kiosk trial', owner_id: 2, creator_user_id: 2, person_id: 5, org_id: 6, pipeline_id: stage.pipeline_id, stage_id: stage.id,
    value: 1800, currency: 'EUR', add_time: day(2), update_time: day(40), stage_change_time: day(3), is_deleted: false,
    is_archived: true, archive_time: day(40), status: 'lost', probability: null, lost_reason: 'No budget this year', visible_to: 3,
    close_time: day(30), won_time: null, lost_time: day(30), expected_close_date: '2025-03-31', label_ids: [],
    origin: 'ManuallyCreated', origin_id: null, channel: null, channel_id: null, source_lead_id: null, custom_fields: {},
  }, { silent: true });
}
