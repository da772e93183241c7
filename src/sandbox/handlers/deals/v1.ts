// The deal operations that only the v1 API has: summary, timeline, participants and their changelog,
// merge and duplicate. Changelog, flow, files, mail and permitted users come from the shared builders.
import { ok } from '../../http/envelope.js';
import { badRequest, invalid, notFound } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { objectBody, rejectUnknown, reqInt } from '../../http/validate.js';
import type { Deal, Participant } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { applyFilter } from '../../engine/filter-eval.js';
import { loadRecord } from '../../engine/crud.js';
import { changelogRoute } from '../../engine/changelog.js';
import { addFollower, followersOf, moveFollowers } from '../../engine/followers.js';
import { v1Time } from '../../engine/time.js';
import { dealMessages, v1Deal, weightedValue } from './present.js';
import { DEAL_READ, DEAL_WRITE, dealSpec } from './spec.js';
import { v1UserRef } from '../shared/user-ref.js';
import { filesRoute, flowRoute, mailMessagesRoute, permittedUsersRoute } from '../shared/related.js';

const loadDeal = (req: SandboxRequest, ctx: HandlerContext) => loadRecord(dealSpec, ctx.state, req);
const now = (ctx: HandlerContext) => ctx.now().toISOString();

/** Deals a v1 report covers: visible, not deleted, not archived (since 2025-07-15), narrowed by the common query filters. */
function reportDeals(req: SandboxRequest, ctx: HandlerContext): Deal[] {
  const { state } = ctx;
  const q = req.query;
  let rows = state.deals.filter((d) => !d.is_archived && canSee(state, req.user, d));
  const filterId = q.int('filter_id', { min: 1 });
  if (filterId !== undefined) rows = applyFilter(state, filterId, 'deals', rows);
  const userId = q.int('user_id', { min: 1 });
  if (userId !== undefined && filterId === undefined) rows = rows.filter((d) => d.owner_id === userId);
  const pipelineId = q.int('pipeline_id', { min: 1 });
  if (pipelineId !== undefined) rows = rows.filter((d) => d.pipeline_id === pipelineId);
  const stageId = q.int('stage_id', { min: 1 });
  if (stageId !== undefined) rows = rows.filter((d) => d.stage_id === stageId);
  return rows;
}

const money = (v: number, currency: string) => `${currency} ${v.toFixed(2)}`;

function totals(state: SandboxState, deals: Deal[]) {
  const values: Record<string, Record<string, unknown>> = {};
  const weighted: Record<string, Record<string, unknown>> = {};
  let sum = 0, wsum = 0;
  for (const d of deals) {
    values[d.currency] ??= { value: 0, count: 0, value_converted: 0 };
    weighted[d.currency] ??= { value: 0, count: 0 };
    const v = values[d.currency]!;
    const w = weighted[d.currency]!;
    const wv = weightedValue(state, d);
    v.value = (v.value as number) + d.value; v.count = (v.count as number) + 1; v.value_converted = v.value;
    w.value = (w.value as number) + wv; w.count = (w.count as number) + 1;
    sum += d.value; wsum += wv;
  }
  for (const [c, v] of Object.entries(values)) { v.value_formatted = money(v.value as number, c); v.value_converted_formatted = money(v.value as number, c); }
  for (const [c, w] of Object.entries(weighted)) w.value_formatted = money(w.value as number, c);
  return { values, weighted, sum, wsum };
}

function summary(req: SandboxRequest, ctx: HandlerContext) {
  const status = req.query.oneOf('status', ['open', 'won', 'lost'] as const);
  const deals = reportDeals(req, ctx).filter((d) => !status || d.status === status);
  const t = totals(ctx.state, deals);
  // Every currency is "converted" 1:1 into the company currency: the sandbox keeps no exchange rates.
  const cur = ctx.state.company.default_currency;
  return ok({
    values_total: t.values, weighted_values_total: t.weighted, total_count: deals.length,
    total_currency_converted_value: t.sum, total_weighted_currency_converted_value: t.wsum,
    total_currency_converted_value_formatted: money(t.sum, cur), total_weighted_currency_converted_value_formatted: money(t.wsum, cur),
  });
}

const INTERVALS = ['day', 'week', 'month', 'quarter'] as const;
const TIMELINE_KEYS = ['add_time', 'won_time', 'lost_time', 'close_time', 'expected_close_date', 'stage_change_time', 'update_time'];

function addInterval(d: Date, interval: (typeof INTERVALS)[number], n: number): Date {
  const x = new Date(d);
  if (interval === 'day') x.setUTCDate(x.getUTCDate() + n);
  else if (interval === 'week') x.setUTCDate(x.getUTCDate() + 7 * n);
  else x.setUTCMonth(x.getUTCMonth() + (interval === 'month' ? n : 3 * n));
  return x;
}

function timeline(req: SandboxRequest, ctx: HandlerContext) {
  const q = req.query;
  const start = q.str('start_date');
  if (!start) throw invalid('start_date', 'is required');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(start) || Number.isNaN(Date.parse(start))) throw invalid('start_date', 'must be a date (YYYY-MM-DD)');
  const interval = q.oneOf('interval', INTERVALS);
  if (!interval) throw invalid('interval', `is required (${INTERVALS.join(', ')})`);
  const amount = q.int('amount', { min: 1 });
  if (amount === undefined) throw invalid('amount', 'is required');
  const fieldKey = q.str('field_key');
  if (!fieldKey) throw invalid('field_key', 'is required');
  if (!TIMELINE_KEYS.includes(fieldKey) && !/^[0-9a-f]{40}$/.test(fieldKey)) throw invalid('field_key', `must be a date field of deals (${TIMELINE_KEYS.join(', ')} or a custom date field)`);
  const exclude = q.str('exclude_deals') === '1';
  const deals = reportDeals(req, ctx);
  const at = (d: Deal) => {
    const v = (d[fieldKey] ?? d.custom_fields?.[fieldKey]) as string | null | undefined;
    return v ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v) : NaN;
  };
  const periods = [];
  let from = new Date(`${start}T00:00:00Z`);
  for (let i = 0; i < amount; i++) {
    const to = addInterval(from, interval, 1);
    const inside = deals.filter((d) => at(d) >= from.getTime() && at(d) < to.getTime());
    const t = totals(ctx.state, inside);
    const open = inside.filter((d) => d.status === 'open'), won = inside.filter((d) => d.status === 'won');
    periods.push({
      period_start: v1Time(from.toISOString()), period_end: v1Time(new Date(to.getTime() - 1000).toISOString()),
      deals: exclude ? [] : inside.map((d) => v1Deal(ctx.state, d)),
      totals: {
        count: inside.length, values: Object.fromEntries(Object.entries(t.values).map(([c, v]) => [c, v.value])),
        weighted_values: Object.fromEntries(Object.entries(t.weighted).map(([c, v]) => [c, v.value])),
        open_count: open.length, open_values: sumBy(open), weighted_open_values: sumBy(open, (d) => weightedValue(ctx.state, d)),
        won_count: won.length, won_values: sumBy(won),
      },
    });
    from = to;
  }
  return ok(periods);
}

function sumBy(deals: Deal[], value: (d: Deal) => number = (d) => d.value): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of deals) out[d.currency] = (out[d.currency] ?? 0) + value(d);
  return out;
}

// ---- participants ----

const participantChanges = (s: SandboxState) => s.collection<{ id: number; deal_id: number; person_id: number; action: 'added' | 'removed'; actor_user_id: number; time: string }>('participantChanges', { idKind: 'int' });

function presentParticipant(state: SandboxState, p: Participant) {
  const person = state.persons.getAny(p.person_id);
  return {
    id: p.id, person_id: person ? { name: person.name, value: person.id, email: person.emails, phone: person.phones, owner_id: person.owner_id } : null,
    add_time: v1Time(p.add_time), active_flag: true, related_item_data: { deal_id: p.deal_id }, added_by_user_id: p.added_by_user_id ? v1UserRef(state, p.added_by_user_id) : null,
  };
}

function participants(req: SandboxRequest, ctx: HandlerContext) {
  const d = loadDeal(req, ctx);
  const page = offsetPage(ctx.state.participants.filter((p) => p.deal_id === d.id).sort((a, b) => a.id - b.id), req.query);
  return ok(page.data.map((p) => presentParticipant(ctx.state, p)), page.additional_data);
}

function addParticipant(req: SandboxRequest, ctx: HandlerContext) {
  const d = loadDeal(req, ctx);
  const b = objectBody(req.body);
  rejectUnknown(b, ['person_id']);
  const personId = reqInt(b, 'person_id', { min: 1 });
  if (!ctx.state.persons.get(personId)) throw invalid('person_id', `no person with id ${personId}`);
  if (ctx.state.participants.find((p) => p.deal_id === d.id && p.person_id === personId)) throw badRequest(`Person ${personId} is already a participant of this deal`);
  const p = ctx.state.participants.insert({ deal_id: d.id, person_id: personId, add_time: now(ctx), added_by_user_id: req.userId }, { userId: req.userId });
  participantChanges(ctx.state).insert({ deal_id: d.id, person_id: personId, action: 'added', actor_user_id: req.userId, time: now(ctx) });
  return ok(presentParticipant(ctx.state, p));
}

function deleteParticipant(req: SandboxRequest, ctx: HandlerContext) {
  const d = loadDeal(req, ctx);
  const raw = req.params.deal_participant_id!;
  if (!/^\d+$/.test(raw)) throw invalid('deal_participant_id', 'must be a positive integer');
  const p = ctx.state.participants.get(Number(raw));
  if (!p || p.deal_id !== d.id) throw notFound('Participant not found');
  ctx.state.participants.remove(p.id);
  participantChanges(ctx.state).insert({ deal_id: d.id, person_id: p.person_id, action: 'removed', actor_user_id: req.userId, time: now(ctx) });
  return ok({ id: p.id });
}

function participantsChangelog(req: SandboxRequest, ctx: HandlerContext) {
  const d = loadDeal(req, ctx);
  const rows = participantChanges(ctx.state).filter((c) => c.deal_id === d.id).sort((a, b) => b.id - a.id).map((r, rank) => ({ id: r.id, rank, r }));
  const page = offsetPage(rows, req.query);
  return ok(page.data.map(({ r }) => ({ actor_user_id: r.actor_user_id, person_id: r.person_id, action: r.action, time: v1Time(r.time) })), page.additional_data);
}

// ---- merge and duplicate ----

/** Moves what hangs off one deal to another (merges keep every child). */
export function moveDealChildren(state: SandboxState, from: number, to: number, userId: number): void {
  const w = { userId };
  for (const n of state.notes.filter((x) => x.deal_id === from)) state.notes.update(n.id, { deal_id: to }, w);
  for (const a of state.activities.filter((x) => x.deal_id === from)) state.activities.update(a.id, { deal_id: to }, w);
  for (const f of state.files.filter((x) => x.deal_id === from)) state.files.update(f.id, { deal_id: to }, w);
  const have = new Set(state.participants.filter((x) => x.deal_id === to).map((x) => x.person_id));
  for (const p of state.participants.filter((x) => x.deal_id === from)) {
    if (have.has(p.person_id)) state.participants.remove(p.id);
    else state.participants.update(p.id, { deal_id: to }, w);
  }
  for (const l of state.dealProducts.filter((x) => x.deal_id === from)) state.dealProducts.update(l.id, { deal_id: to }, { silent: true });
  moveFollowers(state, 'deal', from, to);
}

function merge(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const d = loadDeal(req, ctx);
  const b = objectBody(req.body);
  rejectUnknown(b, ['merge_with_id']);
  const target = reqInt(b, 'merge_with_id', { min: 1 });
  if (target === d.id) throw invalid('merge_with_id', 'must name another deal');
  const into = state.deals.get(target);
  if (!into) throw invalid('merge_with_id', `no deal with id ${target}`);
  if (!canSee(state, req.user, into)) throw invalid('merge_with_id', `deal ${target} is not visible to you`);
  // The deal named in the path is merged into merge_with_id and disappears (the vendor's documents).
  moveDealChildren(state, d.id, into.id, req.userId);
  state.deals.markDeleted(d.id, { is_deleted: true, update_time: now(ctx), delete_time: now(ctx) } as Partial<Deal>, { userId: req.userId });
  return ok({ ...v1Deal(state, state.deals.get(into.id)!), merge_what_id: d.id });
}

function duplicate(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const d = loadDeal(req, ctx);
  const t = now(ctx);
  const { id: _id, ...rest } = d;
  const copy = state.deals.insert({
    ...structuredClone(rest), title: `${d.title} (copy)`, add_time: t, update_time: t, stage_change_time: null, creator_user_id: req.userId, origin: 'API',
  } as Omit<Deal, 'id'>, { userId: req.userId });
  // Products and participants come along; notes, activities and files stay with the original.
  for (const l of state.dealProducts.filter((x) => x.deal_id === d.id)) { const { id: _l, ...line } = l; state.dealProducts.insert({ ...line, deal_id: copy.id, add_time: t, update_time: t }, { silent: true }); }
  for (const p of state.participants.filter((x) => x.deal_id === d.id)) state.participants.insert({ deal_id: copy.id, person_id: p.person_id, add_time: t, added_by_user_id: req.userId }, { silent: true });
  for (const f of followersOf(state, 'deal', d.id)) addFollower(state, 'deal', copy.id, f.user_id, req.userId, t);
  return ok(v1Deal(state, copy));
}

const V1 = '/api/v1/deals/{id}';

export const dealV1Routes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/deals/summary', cost: 40, scopes: DEAL_READ, handler: summary },
  { method: 'GET', path: '/api/v1/deals/timeline', cost: 20, scopes: DEAL_READ, handler: timeline },
  changelogRoute({ object: 'deal', path: V1, scopes: ['recents:read'], load: loadDeal }),
  flowRoute({ object: 'deal', key: 'deal_id', path: V1, load: loadDeal, mail: dealMessages }),
  { method: 'GET', path: `${V1}/participants`, cost: 10, scopes: DEAL_READ, handler: participants },
  { method: 'POST', path: `${V1}/participants`, cost: 10, scopes: DEAL_WRITE, handler: addParticipant },
  { method: 'DELETE', path: `${V1}/participants/{deal_participant_id}`, cost: 6, scopes: DEAL_WRITE, handler: deleteParticipant },
  { method: 'GET', path: `${V1}/participantsChangelog`, cost: 10, scopes: DEAL_READ, handler: participantsChangelog },
  { method: 'PUT', path: `${V1}/merge`, cost: 40, scopes: DEAL_WRITE, handler: merge },
  { method: 'POST', path: `${V1}/duplicate`, cost: 10, scopes: DEAL_WRITE, handler: duplicate },
  permittedUsersRoute(V1, DEAL_READ, loadDeal),
  mailMessagesRoute(V1, dealMessages, loadDeal),
  filesRoute(V1, 'deal_id', DEAL_READ, loadDeal),
];
