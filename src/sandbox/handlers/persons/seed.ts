// Person-side data of the demo account: custom person fields and labels, contact-sync
// and marketing values, pictures, followers and their history, field changes, files,
// mail messages, two extra deals with products, deleted deals and a participant.
// 'empty' only sets the company switches (both off).
import { simpleConditions } from '../../engine/filter-eval.js';
import { hex40 } from '../../seed/base.js';
import { attachProduct, insertProduct } from '../products/catalog.js';
import { PERSON_FIELD_KEYS } from '../fields.js';
import type { Deal } from '../../store/records.js';
import type { SandboxState, SeedName } from '../../store/state.js';
import {
  changes, files, followerChanges, followers, mailMessages, participants, pictures,
  settings, type Party,
} from './common.js';
import { v1Time } from '../../engine/time.js';

const T = (d: number, h = 9) => new Date(Date.UTC(2025, 0, 6 + d, h, 0, 0)).toISOString();

export { PERSON_FIELD_KEYS } from '../fields.js';

export function seedPersons(state: SandboxState, name: SeedName): void {
  const s = settings(state);
  s.contact_sync_enabled = name === 'demo';
  s.marketing_app_enabled = false;
  if (name !== 'demo') return;
  const w = { silent: true };

  // Labels, custom values and contact-sync fields on the demo persons (ids 1..10 from the core demo seed).
  const extra: Record<number, Record<string, unknown>> = {
    1: { label_ids: [1, 4], custom_fields: { [PERSON_FIELD_KEYS.language]: 201, [PERSON_FIELD_KEYS.interests]: [211, 214], [PERSON_FIELD_KEYS.linkedin]: 'linkedin.com/in/alice-andersson', [PERSON_FIELD_KEYS.lifetimeValue]: 42000, [`${PERSON_FIELD_KEYS.lifetimeValue}_currency`]: 'EUR' },
      job_title: 'Head of Operations', birthday: '1984-03-12', notes: 'Met at the Tallinn logistics fair.', ims: [{ value: 'alice.andersson', primary: true, label: 'skype' }],
      postal_address: { value: '1 Harbour Street, Tallinn, Estonia', country: 'Estonia', admin_area_level_1: 'Harju', admin_area_level_2: null, locality: 'Tallinn', sublocality: null, route: 'Harbour Street', street_number: '1', subpremise: null, postal_code: '10111' },
      marketing_status: 'subscribed', doi_status: 'confirmed' },
    2: { label_ids: [2], custom_fields: { [PERSON_FIELD_KEYS.language]: 202 }, job_title: 'CFO', marketing_status: 'unsubscribed' },
    3: { label_ids: [1], custom_fields: { [PERSON_FIELD_KEYS.interests]: [212] }, job_title: 'IT Manager', marketing_status: 'subscribed', doi_status: 'pending' },
    4: { label_ids: [3], custom_fields: { [PERSON_FIELD_KEYS.linkedin]: 'linkedin.com/in/dan-dahl' } },
    8: { visible_to: 1 },
  };
  for (const [id, patch] of Object.entries(extra)) if (state.persons.get(Number(id))) state.persons.update(Number(id), patch, w);

  for (const pid of [1, 3, 5]) {
    if (!state.persons.get(pid)) continue;
    const h = hex40(`personPicture:${pid}`).slice(0, 16);
    const pic = pictures(state).insert({
      item_type: 'person', item_id: pid, added_by_user_id: 1, active_flag: true, file_size: 18000 + pid * 731, add_time: T(pid),
      pictures: { '128': `https://pictures.sandbox.invalid/person/${h}_128x128.jpg`, '512': `https://pictures.sandbox.invalid/person/${h}_512x512.jpg` },
    }, w);
    state.persons.update(pid, { picture_id: pic.id }, w);
  }

  // Followers now, and how they came to be (followers changelog).
  for (const [pid, uid, d] of [[1, 1, 1], [1, 2, 3], [2, 2, 2], [4, 3, 4], [4, 1, 6]] as const) {
    followers(state).insert({ object: 'person', item_id: pid, user_id: uid, add_time: T(d) }, w);
    followerChanges(state).insert({ object: 'person', item_id: pid, action: 'added', actor_user_id: 1, follower_user_id: uid, time: T(d) }, w);
  }
  followerChanges(state).insert({ object: 'person', item_id: 1, action: 'added', actor_user_id: 1, follower_user_id: 3, time: T(2) }, w);
  followerChanges(state).insert({ object: 'person', item_id: 1, action: 'removed', actor_user_id: 3, follower_user_id: 3, time: T(5) }, w);

  const change = (person_id: number, field_key: string, old_value: string | null, new_value: string | null, actor: number, d: number, source = 'app') =>
    changes(state).insert({ object: 'person', item_id: person_id, field_key, old_value, new_value, actor_user_id: actor, time: T(d, 14), change_source: source, change_source_user_agent: source === 'api' ? 'crmctl/0.1.0' : null, is_bulk_update_flag: false }, w);
  change(1, 'name', 'Alice Anderson', 'Alice Andersson', 1, 2);
  change(1, 'email', 'alice@acme.example.com', 'alice.andersson@example.org', 2, 4, 'api');
  change(1, PERSON_FIELD_KEYS.linkedin, null, 'linkedin.com/in/alice-andersson', 1, 6);
  change(2, 'owner_id', '1', '2', 1, 3);

  const file = (person_id: number, deal_id: number | null, file_name: string, file_type: string, file_size: number, d: number, comment: string | null) => {
    const p = state.persons.get(person_id)!;
    const org = p.org_id ? state.organizations.get(p.org_id) : undefined;
    const f = files(state).insert({
      user_id: p.owner_id, deal_id, person_id, org_id: p.org_id, product_id: null, activity_id: null, lead_id: null, add_time: v1Time(T(d)), update_time: v1Time(T(d + 1)),
      file_name, file_type, file_size, active_flag: true, inline_flag: false, remote_location: 's3', remote_id: null, cid: null,
      s3_bucket: 'sandbox-files', mail_message_id: null, mail_template_id: null, deal_name: deal_id ? state.deals.get(deal_id)?.title ?? null : null,
      person_name: p.name, org_name: org?.name ?? null, product_name: null, lead_name: null, url: '', name: file_name, description: '', comment,
    }, w);
    files(state).update(f.id, { url: `https://files.sandbox.invalid/files/${f.id}/download` }, w);
  };
  file(1, 1, 'Acme licence agreement.pdf', 'pdf', 482113, 3, 'Signed copy');
  file(1, null, 'Second site floor plan.png', 'img', 1203554, 7, null);
  file(1, null, 'Meeting notes.docx', 'doc', 20480, 9, 'From the January visit');
  file(3, 3, 'Support SLA.docx', 'doc', 56320, 5, null);

  const party = (pid: number | null, name: string, email: string, n: number): Party => ({ id: n, email_address: email, name, linked_person_id: pid, linked_person_name: pid ? name : null, mail_message_party_id: n });
  const ada = (n: number) => party(null, 'Ada Admin', 'ada.admin@example.com', n);
  const mail = (pid: number, sent: 0 | 1, subject: string, body: string, d: number, attach: 0 | 1) => {
    const p = state.persons.get(pid)!;
    const them = party(pid, p.name, p.emails[0]!.value, 100 + mailMessages(state).size);
    mailMessages(state).insert({
      person_id: pid, from: sent ? [ada(1)] : [them], to: sent ? [them] : [ada(1)], cc: [], bcc: [], subject, snippet: body.slice(0, 225), body,
      mail_thread_id: 500 + pid, user_id: 1, account_id: 'sandbox-account-1', sent_flag: sent, has_attachments_flag: attach, has_inline_attachments_flag: 0,
      has_real_attachments_flag: attach, read_flag: 1, draft_flag: 0, synced_flag: 1, deleted_flag: 0, has_body_flag: 1, sent_from_pipedrive_flag: sent,
      smart_bcc_flag: 0, mail_tracking_status: sent ? 'opened' : null, mail_link_tracking_enabled_flag: 0, message_time: T(d, 11), add_time: T(d, 11), update_time: T(d, 11),
    }, w);
  };
  mail(1, 0, 'Quote for the second site', 'Hi Ada, could you send a quote for the second site by March? Thanks, Alice', 8, 0);
  mail(1, 1, 'Re: Quote for the second site', 'Hi Alice, the quote is attached. Best, Ada', 9, 1);
  mail(1, 0, 'Re: Quote for the second site', 'Thanks, looks good. Let us talk on Monday.', 10, 0);
  mail(2, 1, 'Globex onboarding plan', 'Hi Bob, here is the onboarding plan we discussed.', 6, 1);

  // Two more deals (with products), two deleted deals (3 and 45 days ago) and a participant.
  const deal = (title: string, value: number, person_id: number, org_id: number | null, stage_id: number, owner: number, status: Deal['status'], d: number): Deal => {
    const stage = state.stages.get(stage_id)!;
    return state.deals.insert({
      title, owner_id: owner, creator_user_id: owner, person_id, org_id, pipeline_id: stage.pipeline_id, stage_id, value, currency: 'EUR',
      add_time: T(d), update_time: T(d + 1), stage_change_time: T(d), is_deleted: false, is_archived: false, status, probability: null,
      lost_reason: null, visible_to: 3, close_time: status === 'won' ? T(d + 2) : null, won_time: status === 'won' ? T(d + 2) : null, lost_time: null,
      expected_close_date: '2025-06-30', label_ids: [], origin: 'ManuallyCreated', origin_id: null, channel: null, channel_id: null, source_lead_id: null, custom_fields: {},
    }, w);
  };
  const seats = deal('Acme add-on seats', 9600, 1, 1, 2, 1, 'open', 14);
  const kit = deal('Globex hardware refresh', 15400, 2, 2, 4, 2, 'won', 15);
  const day = 24 * 3600 * 1000;
  for (const [title, ago] of [['Acme pilot (cancelled)', 3], ['Acme trial 2024', 45]] as const) {
    const d = deal(title, 1000, 1, 1, 1, 1, 'open', 1);
    state.deals.markDeleted(d.id, { is_deleted: true, status: 'deleted', delete_time: new Date(Date.now() - ago * day).toISOString() } as Partial<Deal>, w);
  }
  participants(state).insert({ deal_id: 1, person_id: 7, add_time: T(2) }, w);

  const product = (pname: string, code: string, unit: string, category: string, price: number) => insertProduct(state, {
    name: pname, code, description: `${pname} (sandbox catalog)`, unit, tax: 20, category,
    prices: [{ currency: 'EUR', price, cost: Math.round(price * 0.4), direct_cost: null, notes: '' }],
  }, T(0));
  const seat = product('Analytics seat', 'AN-SEAT', 'seat', 'Software', 800);
  const sensor = product('Warehouse sensor', 'WH-SENS', 'piece', 'Hardware', 140);
  const support = product('Premium support', 'SUP-PREM', 'year', 'Services', 1400);
  const attach = (deal: Deal, product_id: number, item_price: number, quantity: number) => attachProduct(state, deal, { product_id, item_price, quantity }, T(15));
  attach(seats, seat.id, 800, 12);
  attach(kit, sensor.id, 140, 100);
  attach(kit, support.id, 1400, 1);

  state.filters.insert({ name: 'Persons owned by Reggie', type: 'people', user_id: 1, active_flag: true, add_time: T(0), update_time: T(0), conditions: simpleConditions('person', ['owner_id', '=', 2]) }, w);
}
