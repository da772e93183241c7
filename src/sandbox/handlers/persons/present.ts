// Response shapes of a person: the v2 record (the vendor's documents, OpenAPI example) and the
// classic v1 record, plus the v1 forms of the deals and activities a person is on.
// Contact-sync and marketing fields exist only when the company has them switched on.
import type { Deal, Person } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import { recordsBy } from '../../engine/page-index.js';
import {
  CONTACT_SYNC_FIELDS, contactSync, dealsOf, files, followersOf, mailMessages, marketingApp, participants,
  personLabels, pictures, v1Time, v2Time,
} from './common.js';
import { presentCustomFields } from '../../engine/fields/values.js';
import { activityOrder, lazy, pickStats } from '../../engine/stats.js';

export const INCLUDE_FIELDS = [
  'next_activity_id', 'last_activity_id', 'open_deals_count', 'related_open_deals_count', 'closed_deals_count',
  'related_closed_deals_count', 'participant_open_deals_count', 'participant_closed_deals_count', 'email_messages_count',
  'activities_count', 'done_activities_count', 'undone_activities_count', 'files_count', 'notes_count', 'followers_count',
  'won_deals_count', 'related_won_deals_count', 'lost_deals_count', 'related_lost_deals_count', 'last_incoming_mail_time',
  'last_outgoing_mail_time', 'marketing_status', 'doi_status', 'smart_bcc_email',
] as const;
const MARKETING = new Set(['marketing_status', 'doi_status']);

export interface DetailOptions { include?: string[]; customKeys?: string[]; optionLabels?: boolean; labels?: boolean }

/**
 * Counts and pointers of a person (the include_fields values; always part of the v1 record): the asked ones,
 * each computed only when asked (engine/stats.ts); all of them by default.
 */
export function stats(state: SandboxState, p: Person, keys: readonly string[] = INCLUDE_FIELDS): Record<string, unknown> {
  // Lookups by key, built once per list page (engine/page-index.ts): a scan per person made a page O(persons × deals).
  const own = lazy(() => recordsBy(state, state.deals, 'person_id', p.id));
  const part = lazy(() => {
    const partIds = new Set(recordsBy(state, participants(state), 'person_id', p.id).map((x) => x.deal_id));
    // Counted only (never listed), so the participant deals need not keep the collection's order.
    return [...partIds].map((id) => state.deals.get(id)).filter((d): d is Deal => d !== undefined && d.person_id !== p.id);
  });
  // "related" deals: those of the person's organization that are not the person's own.
  const related = lazy(() => (p.org_id ? recordsBy(state, state.deals, 'org_id', p.org_id).filter((d) => d.person_id !== p.id) : []));
  const count = (ds: readonly Deal[], s: Deal['status'] | 'closed') => ds.filter((d) => (s === 'closed' ? d.status === 'won' || d.status === 'lost' : d.status === s)).length;
  const acts = lazy(() => activityOrder(recordsBy(state, state.activities, 'person_id', p.id)));
  const mails = lazy(() => recordsBy(state, mailMessages(state), 'person_id', p.id));
  const last = (sent: 0 | 1) => mails().filter((m) => m.sent_flag === sent).map((m) => m.message_time).sort().at(-1) ?? null;
  return pickStats({
    next_activity_id: () => acts().planned[0]?.id ?? null,
    last_activity_id: () => acts().done[0]?.id ?? null,
    open_deals_count: () => count(own(), 'open'),
    related_open_deals_count: () => count(related(), 'open'),
    closed_deals_count: () => count(own(), 'closed'),
    related_closed_deals_count: () => count(related(), 'closed'),
    participant_open_deals_count: () => count(part(), 'open'),
    participant_closed_deals_count: () => count(part(), 'closed'),
    email_messages_count: () => mails().length,
    activities_count: () => acts().planned.length + acts().done.length,
    done_activities_count: () => acts().done.length,
    undone_activities_count: () => acts().planned.length,
    files_count: () => recordsBy(state, files(state), 'person_id', p.id).length,
    notes_count: () => recordsBy(state, state.notes, 'person_id', p.id).length,
    followers_count: () => followersOf(state, 'person', p.id).length,
    won_deals_count: () => count(own(), 'won'),
    related_won_deals_count: () => count(related(), 'won'),
    lost_deals_count: () => count(own(), 'lost'),
    related_lost_deals_count: () => count(related(), 'lost'),
    last_incoming_mail_time: () => last(0),
    last_outgoing_mail_time: () => last(1),
    marketing_status: () => p.marketing_status ?? 'no_consent',
    doi_status: () => p.doi_status ?? null,
    smart_bcc_email: () => `${state.company.domain}+person${p.id}@pipedrivemail.com`,
  }, keys);
}

function syncFields(state: SandboxState, p: Person): Record<string, unknown> {
  if (!contactSync(state)) return {};
  return Object.fromEntries(CONTACT_SYNC_FIELDS.map((k) => [k, p[k] ?? (k === 'ims' ? [] : null)]));
}

/**
 * Custom values: every custom field key (null when unset), with a monetary field's currency in K_currency
 * and a range's end in K_until (interface, "Custom fields"), as every v2 record presents them; option ids
 * become {id, label} on request.
 */
function customValues(state: SandboxState, p: Person, o: DetailOptions): Record<string, unknown> {
  return presentCustomFields(state, 'person', p.custom_fields, o);
}

const labelsOf = (state: SandboxState, p: Person) => {
  const labels = new Map(personLabels(state).map((l) => [l.id, l.label]));
  return p.label_ids.filter((id) => labels.has(id)).map((id) => ({ id, label: labels.get(id)! }));
};

export function v2Person(state: SandboxState, p: Person, o: DetailOptions = {}): Record<string, unknown> {
  const rec: Record<string, unknown> = {
    id: p.id, name: p.name, first_name: p.first_name, last_name: p.last_name, owner_id: p.owner_id, org_id: p.org_id,
    add_time: v2Time(p.add_time), update_time: v2Time(p.update_time), emails: p.emails, phones: p.phones, is_deleted: p.is_deleted,
    visible_to: p.visible_to, label_ids: p.label_ids, picture_id: p.picture_id, custom_fields: customValues(state, p, o),
    ...syncFields(state, p),
  };
  if (o.labels) rec.labels = labelsOf(state, p);
  if (o.include?.length) {
    // marketing_status and doi_status exist only with the marketing app (interface, Person).
    Object.assign(rec, stats(state, p, o.include.filter((k) => !MARKETING.has(k) || marketingApp(state))));
  }
  return rec;
}

/** The classic v1 record: owner and organization as objects, every count, custom values as top-level keys. */
export function v1Person(state: SandboxState, p: Person): Record<string, unknown> {
  const owner = state.users.getAny(p.owner_id);
  const org = p.org_id ? state.organizations.getAny(p.org_id) : undefined;
  const pic = p.picture_id ? pictures(state).get(p.picture_id) : undefined;
  const s = stats(state, p);
  const next = s.next_activity_id ? state.activities.get(s.next_activity_id as number) : undefined;
  const last = s.last_activity_id ? state.activities.get(s.last_activity_id as number) : undefined;
  const { marketing_status: _m, doi_status: _d, smart_bcc_email: _b, ...counts } = s;
  return {
    id: p.id, company_id: state.company.id,
    owner_id: owner ? { id: owner.id, name: owner.name, email: owner.email, has_pic: 0, pic_hash: null, active_flag: owner.active_flag, value: owner.id } : null,
    org_id: org ? {
      name: org.name, people_count: recordsBy(state, state.persons, 'org_id', org.id).length, owner_id: org.owner_id,
      address: org.address?.value ?? null, active_flag: !org.is_deleted, cc_email: `${state.company.domain}+org${org.id}@pipedrivemail.com`, value: org.id,
    } : null,
    name: p.name, first_name: p.first_name, last_name: p.last_name,
    ...counts,
    active_flag: !p.is_deleted, phone: p.phones, email: p.emails, first_char: p.name.charAt(0).toLowerCase(),
    update_time: v1Time(p.update_time), delete_time: null, add_time: v1Time(p.add_time), visible_to: String(p.visible_to),
    picture_id: pic ? { item_type: 'person', item_id: p.id, active_flag: pic.active_flag, add_time: v1Time(pic.add_time), update_time: v1Time(pic.add_time), added_by_user_id: pic.added_by_user_id, pictures: pic.pictures, value: pic.id } : null,
    next_activity_date: next?.due_date ?? null, next_activity_time: next?.due_time ?? null,
    last_activity_date: last?.due_date ?? null,
    label: p.label_ids[0] ?? null, label_ids: p.label_ids, cc_email: `${state.company.domain}+person${p.id}@pipedrivemail.com`,
    org_name: org?.name ?? null, owner_name: owner?.name ?? null,
    ...syncFields(state, p),
    ...customValues(state, p, {}),
  };
}

/** The light record of the v1 collection. */
export function collectionPerson(p: Person, state: SandboxState): Record<string, unknown> {
  return {
    id: p.id, active_flag: !p.is_deleted, owner_id: p.owner_id, org_id: p.org_id, name: p.name, email: p.emails, phone: p.phones,
    update_time: v1Time(p.update_time), delete_time: null, add_time: v1Time(p.add_time), visible_to: String(p.visible_to),
    picture_id: p.picture_id, label: p.label_ids[0] ?? null, label_ids: p.label_ids, cc_email: `${state.company.domain}+person${p.id}@pipedrivemail.com`,
  };
}

export { v1Deal } from '../deals/present.js';
export { v1Activity } from '../activities/present.js';
export { dealsOf };
