// Response shapes of a deal: the v2 record (custom fields inside custom_fields, counts on request) and the
// classic v1 record (owner and links by name, custom values as top-level keys) of flows and v1 lists.
import { recordsBy } from '../../engine/page-index.js';
import type { Deal } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import { fieldByCode } from '../../engine/fields/store.js';
import { flatCustomFields, presentCustomFields } from '../../engine/fields/values.js';
import { followersOf } from '../../engine/followers.js';
import { activityOrder, lazy, pickStats } from '../../engine/stats.js';
import type { PresentOptions } from '../../engine/resource.js';
import { v1Time, v2Time } from '../../engine/time.js';
import { messages, threads } from '../mailbox/common.js';

export const DEAL_INCLUDE = [
  'next_activity_id', 'last_activity_id', 'first_won_time', 'products_count', 'files_count', 'notes_count', 'followers_count',
  'email_messages_count', 'activities_count', 'done_activities_count', 'undone_activities_count', 'participants_count',
  'last_incoming_mail_time', 'last_outgoing_mail_time', 'smart_bcc_email', 'source_lead_id',
] as const;

/** The probability a deal's weighted value uses: its own, else its stage's when the pipeline weighs deals. */
export function effectiveProbability(state: SandboxState, d: Deal): number {
  if (d.probability !== null && d.probability !== undefined) return d.probability;
  const stage = state.stages.getAny(d.stage_id);
  const pipeline = state.pipelines.getAny(d.pipeline_id);
  return stage && pipeline?.is_deal_probability_enabled !== false ? stage.deal_probability : 100;
}

export const weightedValue = (state: SandboxState, d: Deal): number => Math.round(d.value * effectiveProbability(state, d)) / 100;

/** Mail messages filed on a deal: the messages of mail threads linked to it. */
export function dealMessages(state: SandboxState, dealId: number) {
  const ids = new Set(threads(state).filter((t) => t.deal_id === dealId).map((t) => t.id));
  return messages(state).filter((m) => ids.has(m.mail_thread_id));
}

/** The include_fields values asked for, each computed only when asked (engine/stats.ts). */
function dealStats(state: SandboxState, d: Deal, keys: readonly string[]): Record<string, unknown> {
  // Lookups by key, built once per list page (engine/page-index.ts), not a scan per deal.
  const acts = lazy(() => activityOrder(recordsBy(state, state.activities, 'deal_id', d.id)));
  const mails = lazy(() => dealMessages(state, d.id));
  const last = (sent: 0 | 1) => v2Time(mails().filter((m) => m.sent_flag === sent).map((m) => m.message_time).sort().at(-1) ?? null);
  return pickStats({
    next_activity_id: () => acts().planned[0]?.id ?? null,
    last_activity_id: () => acts().done[0]?.id ?? null,
    first_won_time: () => v2Time((d.first_won_time as string | undefined) ?? d.won_time),
    products_count: () => recordsBy(state, state.dealProducts, 'deal_id', d.id).length,
    files_count: () => recordsBy(state, state.files, 'deal_id', d.id).length,
    notes_count: () => recordsBy(state, state.notes, 'deal_id', d.id).length,
    followers_count: () => followersOf(state, 'deal', d.id).length,
    email_messages_count: () => mails().length,
    activities_count: () => acts().planned.length + acts().done.length,
    done_activities_count: () => acts().done.length,
    undone_activities_count: () => acts().planned.length,
    participants_count: () => recordsBy(state, state.participants, 'deal_id', d.id).length + (d.person_id ? 1 : 0),
    last_incoming_mail_time: () => last(0),
    last_outgoing_mail_time: () => last(1),
    smart_bcc_email: () => `${state.company.domain}+deal${d.id}@pipedrivemail.com`,
    source_lead_id: () => d.source_lead_id,
  }, keys);
}

function labels(state: SandboxState, ids: number[]) {
  const opts = fieldByCode(state, 'deal', 'label')?.options ?? [];
  return ids.map((id) => ({ id, label: opts.find((o) => o.id === id)?.label ?? null }));
}

export function v2Deal(state: SandboxState, d: Deal, o: PresentOptions = { include: [], optionLabels: false, labels: false }): Record<string, unknown> {
  const rec: Record<string, unknown> = {
    id: d.id, title: d.title, owner_id: d.owner_id, person_id: d.person_id, org_id: d.org_id, pipeline_id: d.pipeline_id, stage_id: d.stage_id,
    value: d.value, currency: d.currency, add_time: v2Time(d.add_time), update_time: v2Time(d.update_time), stage_change_time: v2Time(d.stage_change_time),
    is_deleted: d.is_deleted, is_archived: d.is_archived, archive_time: v2Time((d.archive_time as string | null | undefined) ?? null), status: d.status,
    probability: d.probability, lost_reason: d.lost_reason, visible_to: d.visible_to, close_time: v2Time(d.close_time), won_time: v2Time(d.won_time),
    lost_time: v2Time(d.lost_time), expected_close_date: d.expected_close_date, label_ids: d.label_ids, origin: d.origin, origin_id: d.origin_id,
    channel: d.channel, channel_id: d.channel_id, source_lead_id: d.source_lead_id,
    arr: (d.arr as number | null | undefined) ?? null, mrr: (d.mrr as number | null | undefined) ?? null, acv: (d.acv as number | null | undefined) ?? null,
    custom_fields: presentCustomFields(state, 'deal', d.custom_fields, o),
  };
  if (o.labels) rec.labels = labels(state, d.label_ids);
  if (o.include.length) {
    Object.assign(rec, dealStats(state, d, o.include));
  }
  return rec;
}

export function v1Deal(state: SandboxState, d: Deal): Record<string, unknown> {
  const person = d.person_id ? state.persons.getAny(d.person_id) : undefined;
  const org = d.org_id ? state.organizations.getAny(d.org_id) : undefined;
  const deleted = state.deals.isDeleted(d.id);
  return {
    id: d.id, creator_user_id: d.creator_user_id, user_id: d.owner_id, person_id: d.person_id, org_id: d.org_id, stage_id: d.stage_id,
    title: d.title, value: d.value, currency: d.currency, add_time: v1Time(d.add_time), update_time: v1Time(d.update_time),
    stage_change_time: v1Time(d.stage_change_time), active: !deleted && d.status === 'open', deleted, status: deleted ? 'deleted' : d.status,
    probability: d.probability, lost_reason: d.lost_reason, visible_to: String(d.visible_to), close_time: v1Time(d.close_time),
    pipeline_id: d.pipeline_id, won_time: v1Time(d.won_time), lost_time: v1Time(d.lost_time), expected_close_date: d.expected_close_date,
    label: d.label_ids[0] ?? null, person_name: person?.name ?? null, org_name: org?.name ?? null,
    owner_name: state.users.getAny(d.owner_id)?.name ?? null, delete_time: deleted ? v1Time(d.delete_time as string | undefined) : null,
    weighted_value: weightedValue(state, d), weighted_value_currency: d.currency,
    ...flatCustomFields(state, 'deal', d.custom_fields),
  };
}

/** The v1 deal with its links as objects (user, person, organization), as the product's deal list gives it. */
export function v1DealDetailed(state: SandboxState, d: Deal): Record<string, unknown> {
  const user = (id: number) => { const u = state.users.getAny(id); return { id, name: u?.name ?? null, email: u?.email ?? null, has_pic: false, pic_hash: null, active_flag: u?.active_flag ?? false, value: id }; };
  const person = d.person_id ? state.persons.getAny(d.person_id) : undefined;
  const org = d.org_id ? state.organizations.getAny(d.org_id) : undefined;
  return {
    ...v1Deal(state, d),
    creator_user_id: user(d.creator_user_id), user_id: user(d.owner_id),
    person_id: person ? { active_flag: !person.is_deleted, name: person.name, email: person.emails, phone: person.phones, owner_id: person.owner_id, value: person.id } : null,
    org_id: org ? { name: org.name, people_count: state.persons.filter((p) => p.org_id === org.id).length, owner_id: org.owner_id, address: org.address?.value ?? null, active_flag: !org.is_deleted, cc_email: `${state.company.domain}+org${org.id}@pipedrivemail.com`, value: org.id } : null,
  };
}
