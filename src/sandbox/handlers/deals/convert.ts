// Deal-to-lead conversion: the mirror of lead-to-deal (leads/convert.ts), an asynchronous job
// (not_started -> running -> completed/failed). On completion a lead is created from the deal, the deal's
// notes and activities move to the lead and the deal is marked deleted. Jobs resume after a restart.
import { randomUUID } from 'node:crypto';
import { ok } from '../../http/envelope.js';
import { ApiError, badRequest } from '../../http/errors.js';
import { objectBody, rejectUnknown } from '../../http/validate.js';
import type { Deal, Lead } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { loadRecord } from '../../engine/crud.js';
import { DEAL_READ, DEAL_WRITE, dealSpec } from './spec.js';

interface DealConversion {
  id: string; deal_id: number; user_id: number; status: 'not_started' | 'running' | 'completed' | 'failed';
  lead_id: string | null; add_time: string; run_at: number; done_at: number; [k: string]: unknown;
}
const jobs = (s: SandboxState) => s.collection<DealConversion>('dealConversions', { idKind: 'uuid' });
const entityNotFound = () => new ApiError(404, 'Entity was not found', 'Object was not found.');

function start(req: SandboxRequest, ctx: HandlerContext) {
  const deal = loadRecord(dealSpec, ctx.state, req, req.params.id!);
  rejectUnknown(objectBody(req.body, false), []);
  // Only open deals convert back to leads (the web app offers it for open deals only).
  if (deal.status !== 'open') throw badRequest(`Deal ${deal.id} is ${deal.status}; only open deals can be converted to a lead`);
  if (jobs(ctx.state).find((j) => j.deal_id === deal.id && (j.status === 'not_started' || j.status === 'running'))) {
    throw badRequest(`Deal ${deal.id} is being converted already`);
  }
  const now = ctx.state.now();
  const delay = ctx.config.conversionDelayMs;
  const job = jobs(ctx.state).insert({
    id: randomUUID(), deal_id: deal.id, user_id: req.userId, status: 'not_started', lead_id: null,
    add_time: new Date(now).toISOString(), run_at: now + Math.floor(delay / 2), done_at: now + delay,
  } as DealConversion);
  scheduleDealConversion(ctx, job);
  return ok({ conversion_id: job.id });
}

export function scheduleDealConversion(ctx: HandlerContext, job: DealConversion): void {
  const now = ctx.state.now();
  if (job.status === 'not_started') ctx.schedule(() => { const j = jobs(ctx.state).get(job.id); if (j?.status === 'not_started') jobs(ctx.state).update(j.id, { status: 'running' }); }, job.run_at - now);
  if (job.status === 'not_started' || job.status === 'running') ctx.schedule(() => finish(ctx, job.id), job.done_at - now);
}

export const resumeDealConversions = (ctx: HandlerContext) => { for (const j of jobs(ctx.state).all()) scheduleDealConversion(ctx, j); };

function finish(ctx: HandlerContext, id: string): void {
  const { state } = ctx;
  const job = jobs(state).get(id);
  if (!job || (job.status !== 'not_started' && job.status !== 'running')) return;
  const deal = state.deals.get(job.deal_id);
  if (deal?.status !== 'open') { jobs(state).update(id, { status: 'failed' }); return; }
  const lead = createLead(state, deal, job.user_id, ctx.now().toISOString());
  const w = { userId: job.user_id };
  for (const n of state.notes.filter((x) => x.deal_id === deal.id)) state.notes.update(n.id, { deal_id: null, lead_id: lead.id, pinned_to_deal_flag: false, pinned_to_lead_flag: n.pinned_to_deal_flag }, w);
  for (const a of state.activities.filter((x) => x.deal_id === deal.id)) state.activities.update(a.id, { deal_id: null, lead_id: lead.id }, w);
  state.deals.markDeleted(deal.id, { is_deleted: true, update_time: ctx.now().toISOString(), delete_time: ctx.now().toISOString() } as Partial<Deal>, w);
  jobs(state).update(id, { status: 'completed', lead_id: lead.id });
}

function createLead(state: SandboxState, d: Deal, userId: number, now: string): Lead {
  const n = state.leads.allWithDeleted().length + 1;
  return state.leads.insert({
    id: randomUUID(), title: d.title, owner_id: d.owner_id, creator_id: userId, label_ids: [], person_id: d.person_id, organization_id: d.org_id,
    source_name: 'Deal', origin: d.origin, origin_id: d.origin_id, channel: d.channel, channel_id: d.channel_id, source_deal_id: d.id,
    is_archived: false, archive_reason: null, was_seen: true, value: d.value ? { amount: d.value, currency: d.currency } : null,
    expected_close_date: d.expected_close_date, next_activity_id: null, add_time: now, update_time: now, visible_to: String(d.visible_to),
    cc_email: `${state.company.domain}+lead${n}@pipedrivemail.com`,
    // Deal custom fields are top-level keys of a lead.
    ...(d.custom_fields ?? {}),
  } as Lead, { userId });
}

function status(req: SandboxRequest, ctx: HandlerContext) {
  const raw = req.params.id!;
  if (!/^\d+$/.test(raw)) throw entityNotFound();
  const job = jobs(ctx.state).get(req.params.conversion_id!);
  if (!job || job.deal_id !== Number(raw)) throw entityNotFound();
  const data: Record<string, unknown> = { deal_id: job.deal_id, conversion_id: job.id, status: job.status };
  if (job.status === 'completed') data.lead_id = job.lead_id;
  return ok(data);
}

export const dealConvertRoutes: RouteDef[] = [
  { method: 'POST', path: '/api/v2/deals/{id}/convert/lead', cost: 40, scopes: DEAL_WRITE, handler: start },
  { method: 'GET', path: '/api/v2/deals/{id}/convert/status/{conversion_id}', cost: 1, scopes: DEAL_READ, handler: status },
];
