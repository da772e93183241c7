// The demo account's dirt: what an account collects when people type records in by hand, so
// `crmctl audit`, `watch`, `dedupe` and `normalize` have something real to find. Seeded after every
// area's demo data, so the records other tests know keep their ids; everything is fixed (no clock,
// no randomness). What each record is for (and which audit check finds it) is said beside it.
import { changes } from '../engine/changelog.js';
import type { SandboxState } from '../store/state.js';
import { hex40 } from './base.js';

/** The demo's custom monetary fields (their codes are hex40 of these labels: handlers/fields.ts). */
const LIFETIME_VALUE = hex40('personField:lifetimeValue');
const ANNUAL_REVENUE = hex40('orgField:revenue');

const at = (date: string, hour = 9) => `${date}T${String(hour).padStart(2, '0')}:00:00.000Z`;

export function seedDirt(state: SandboxState): void {
  const w = { silent: true };

  const person = (name: string, org: number | null, owner: number, email: string | null, phone: string | null, added: string, custom: Record<string, unknown> = {}) => {
    const [first_name, ...rest] = name.split(' ');
    return state.persons.insert({
      name, first_name, last_name: rest.join(' '), owner_id: owner, org_id: org,
      emails: email ? [{ value: email, primary: true, label: 'work' }] : [],
      phones: phone ? [{ value: phone, primary: true, label: 'mobile' }] : [],
      add_time: at(added), update_time: at(added, 15), is_deleted: false, visible_to: 3, label_ids: [], picture_id: null, custom_fields: custom,
    }, w);
  };
  // Alice Andersson (1) typed again with a typo; her e-mail in other letter case (same address).
  person('Alice Anderson', 1, 1, 'Alice.Andersson@Example.org', '+372 5550 9999', '2025-01-20');
  // Bob Berzins (2) again, with the accents of his name and his phone without spaces (same number).
  person('Bob Bērziņš', 2, 2, 'bob@globex.example.com', '+37255501037', '2025-01-21');
  // Carla Korhonen (3) with a doubled letter: only the names are alike. A national number (Estonian
  // with region EE; no country code without one).
  person('Carla Korhonnen', 3, 1, 'carla.k@initech.example.com', '5550 2000', '2025-01-22');
  // A hand-typed contact: no top-level domain, a phone that is no number, money without a currency.
  person('Dana Doyle', null, 3, 'dana.doyle@example', '12345', '2025-01-23', { [LIFETIME_VALUE]: 1500, [`${LIFETIME_VALUE}_currency`]: null });

  const org = (name: string, city: string, country: string, website: string | null, owner: number, added: string, custom: Record<string, unknown> = {}) =>
    state.organizations.insert({
      name, owner_id: owner, add_time: at(added), update_time: at(added, 15), is_deleted: false, visible_to: 3,
      address: { value: `Harbour Street, ${city}, ${country}`, country, locality: city }, label_ids: [], website, custom_fields: custom,
    }, w);
  // Acme Corporation (1) again: the legal form written short, the same website; its revenue has no currency.
  org('Acme Corp.', 'Tallinn', 'Estonia', 'https://www.acme.example.com/', 1, '2025-01-20', { [ANNUAL_REVENUE]: 250000, [`${ANNUAL_REVENUE}_currency`]: null });
  // Umbrella Logistics (4) with a letter missing.
  org('Umbrela Logistics', 'Stockholm', 'Sweden', null, 3, '2025-01-24');

  // Deals of the Sales pipeline (stages 1-5) with a history (the field changelog), for the audit and the analytics.
  const deal = (title: string, value: number, currency: string, stage: number, owner: number, added: string, updated: string, expected: string | null, status: 'open' | 'won' = 'open', won: string | null = null, probability: number | null = null) => {
    const s = state.stages.get(stage)!;
    return state.deals.insert({
      title, owner_id: owner, creator_user_id: owner, person_id: null, org_id: null, pipeline_id: s.pipeline_id, stage_id: stage,
      value, currency, add_time: at(added), update_time: at(updated, 15), stage_change_time: null, is_deleted: false, is_archived: false,
      status, probability, lost_reason: null, visible_to: 3, close_time: won ? at(won, 15) : null, won_time: won ? at(won, 15) : null, lost_time: null,
      expected_close_date: expected, label_ids: [], origin: 'ManuallyCreated', origin_id: null, channel: null, channel_id: null,
      source_lead_id: null, custom_fields: {},
    }, w);
  };
  const history = (dealId: number, field: string, from: string, to: string, date: string, actor: number) =>
    changes(state).insert({
      object: 'deal', item_id: dealId, field_key: field, old_value: from, new_value: to, actor_user_id: actor, time: at(date, 12),
      change_source: 'app', change_source_user_agent: null, is_bulk_update_flag: false,
    }, w);
  const moves = (dealId: number, owner: number, path: Array<[stage: number, date: string]>) => {
    for (let i = 1; i < path.length; i++) history(dealId, 'stage_id', String(path[i - 1]![0]), String(path[i]![0]), path[i]![1], owner);
    state.deals.update(dealId, { stage_change_time: at(path[path.length - 1]![1], 12) }, w);
  };

  // Stale: not changed since 15 Nov 2024 (and a call planned, so only stale). 20 days in Qualified.
  const stale = deal('Initech expansion', 7000, 'EUR', 2, 1, '2024-10-01', '2024-11-15', '2025-03-31', 'open', null, 50);
  moves(stale.id, 1, [[1, '2024-10-01'], [2, '2024-10-21']]);
  // Expected to close on 15 Jan 2025 and still open (pushed once from 20 Dec 2024, by 26 days).
  const late = deal('Stark spare parts', 2500, 'EUR', 1, 2, '2024-12-01', '2025-01-25', '2025-01-15');
  history(late.id, 'expected_close_date', '2024-12-20', '2025-01-15', '2024-12-18', 2);
  // A value without a currency; 10 days in Qualified.
  const bare = deal('Wayne loyalty programme', 3000, '', 2, 3, '2025-01-15', '2025-01-28', '2025-04-30');
  moves(bare.id, 3, [[1, '2025-01-15'], [2, '2025-01-25']]);
  // Open with nothing planned; 10 days in Qualified, 10 in Contact Made; close date pushed by 61 days.
  const idle = deal('Globex renewal 2025', 11000, 'EUR', 3, 2, '2025-01-02', '2025-01-29', '2025-05-31');
  moves(idle.id, 2, [[1, '2025-01-02'], [2, '2025-01-12'], [3, '2025-01-22']]);
  history(idle.id, 'expected_close_date', '2025-03-31', '2025-05-31', '2025-01-29', 2);
  // Won after 10, 10, 15 and 10 days in Qualified, Contact Made, Demo Scheduled and Proposal Made.
  const won = deal('Initech support renewal', 5000, 'EUR', 4, 1, '2024-12-02', '2025-01-16', '2025-01-31', 'won', '2025-01-16');
  moves(won.id, 1, [[1, '2024-12-02'], [2, '2024-12-12'], [3, '2024-12-22'], [4, '2025-01-06']]);

  const activity = (subject: string, type: string, owner: number, target: { deal_id?: number; person_id?: number }, due: string) =>
    state.activities.insert({
      subject, type, owner_id: owner, deal_id: null, lead_id: null, person_id: null, org_id: null, ...target,
      due_date: due, due_time: null, done: false, add_time: at('2025-01-10'), update_time: at('2025-01-10'), is_deleted: false,
    }, w);
  activity('Check in on the expansion', 'call', 1, { deal_id: stale.id }, '2025-02-20');
  activity('Confirm the parts list', 'task', 2, { deal_id: late.id }, '2025-02-12');
  activity('Loyalty programme workshop', 'meeting', 3, { deal_id: bare.id }, '2025-02-14');
  // Overdue: due 20 Jan 2025 and not done.
  activity('Send revised quote', 'task', 1, { person_id: 3 }, '2025-01-20');
}
