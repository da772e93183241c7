// Lead-to-deal conversion: an asynchronous job (not_started -> running ->
// completed/failed). On completion a deal is created from the lead, the lead's
// notes and activities move to the deal and the lead is marked deleted.
import { customFieldMap, } from '../../engine/fields/store.js';
import { ok } from '../../http/envelope.js';
import { ApiError, invalid } from '../../http/errors.js';
import { objectBody, optInt, rejectUnknown } from '../../http/validate.js';
import type { Conversion, Lead } from '../../store/records.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { checkUuid, LEAD_READ, LEAD_WRITE, loadLead } from './common.js';

/** v2 convert 404 body (the vendor's documents). */
const entityNotFound = () => new ApiError(404, 'Entity was not found', 'Object was not found.');

function pickStage(ctx: HandlerContext, stageId: number | null | undefined, pipelineId: number | null | undefined): number {
  const { state } = ctx;
  if (stageId !== undefined && stageId !== null) {
    // stage_id wins; the pipeline follows the stage.
    if (!state.stages.get(stageId)) throw invalid('stage_id', `stage ${stageId} does not exist`);
    return stageId;
  }
  let pipeline = pipelineId ?? null;
  if (pipeline !== null) {
    if (!state.pipelines.get(pipeline)) throw invalid('pipeline_id', `pipeline ${pipeline} does not exist`);
  } else {
    pipeline = (state.pipelines.find((p) => p.is_default) ?? state.pipelines.all().sort((a, b) => a.order_nr - b.order_nr)[0])?.id ?? null;
    if (pipeline === null) throw invalid('pipeline_id', 'the company has no pipeline to convert into');
  }
  const first = state.stages.filter((s) => s.pipeline_id === pipeline).sort((a, b) => a.order_nr - b.order_nr)[0];
  if (!first) throw invalid('pipeline_id', `pipeline ${pipeline} has no stages`);
  return first.id;
}

function start(req: SandboxRequest, ctx: HandlerContext) {
  const lead = loadLead(ctx.state, req.user, req.params.id!, entityNotFound);
  const b = objectBody(req.body, false);
  rejectUnknown(b, ['stage_id', 'pipeline_id']);
  const stageId = pickStage(ctx, optInt(b, 'stage_id', { nullable: true, min: 1 }), optInt(b, 'pipeline_id', { nullable: true, min: 1 }));
  const now = ctx.state.now();
  const delay = ctx.config.conversionDelayMs;
  const conv = ctx.state.conversions.insert({
    lead_id: lead.id, user_id: req.userId, stage_id: stageId, status: 'not_started', deal_id: null,
    add_time: new Date(now).toISOString(), run_at: now + Math.floor(delay / 2), done_at: now + delay,
  });
  scheduleConversion(ctx, conv);
  return ok({ conversion_id: conv.id });
}

/** Schedule the remaining steps of a job from its timestamps (also used after a restart). */
export function scheduleConversion(ctx: HandlerContext, conv: Conversion): void {
  const now = ctx.state.now();
  if (conv.status === 'not_started') ctx.schedule(() => markRunning(ctx, conv.id), conv.run_at - now);
  if (conv.status === 'not_started' || conv.status === 'running') ctx.schedule(() => finish(ctx, conv.id), conv.done_at - now);
}

function markRunning(ctx: HandlerContext, id: string): void {
  const c = ctx.state.conversions.get(id);
  if (c && c.status === 'not_started') ctx.state.conversions.update(id, { status: 'running' });
}

function finish(ctx: HandlerContext, id: string): void {
  const { state } = ctx;
  const c = state.conversions.get(id);
  if (!c || (c.status !== 'not_started' && c.status !== 'running')) return;
  const lead = state.leads.get(c.lead_id);
  const stage = state.stages.get(c.stage_id);
  // The lead was converted by another job or deleted meanwhile, or the stage vanished.
  if (!lead || !stage) { state.conversions.update(id, { status: 'failed' }); return; }
  const dealId = createDeal(ctx, lead, stage.id, stage.pipeline_id, c.user_id);
  const w = { userId: c.user_id };
  for (const n of state.notes.filter((x) => x.lead_id === lead.id)) {
    state.notes.update(n.id, { lead_id: null, deal_id: dealId, pinned_to_lead_flag: false, pinned_to_deal_flag: n.pinned_to_lead_flag }, w);
  }
  for (const a of state.activities.filter((x) => x.lead_id === lead.id)) {
    state.activities.update(a.id, { lead_id: null, deal_id: dealId }, w);
  }
  state.leads.markDeleted(lead.id, {}, w);
  state.conversions.update(id, { status: 'completed', deal_id: dealId });
}

function createDeal(ctx: HandlerContext, lead: Lead, stageId: number, pipelineId: number, userId: number): number {
  const { state } = ctx;
  const now = ctx.now().toISOString();
  const customKeys = [...customFieldMap(state, 'deal').keys()];
  const custom: Record<string, unknown> = {};
  for (const k of customKeys) {
    if (lead[k] !== undefined) custom[k] = lead[k];
    if (lead[`${k}_currency`] !== undefined) custom[`${k}_currency`] = lead[`${k}_currency`];
  }
  const deal = state.deals.insert({
    title: lead.title, owner_id: lead.owner_id, creator_user_id: userId, person_id: lead.person_id, org_id: lead.organization_id,
    pipeline_id: pipelineId, stage_id: stageId, value: lead.value?.amount ?? 0,
    currency: lead.value?.currency ?? state.company.default_currency, add_time: now, update_time: now, stage_change_time: null,
    is_deleted: false, is_archived: false, status: 'open', probability: null, lost_reason: null, visible_to: Number(lead.visible_to),
    close_time: null, won_time: null, lost_time: null, expected_close_date: lead.expected_close_date, label_ids: [],
    origin: lead.origin, origin_id: lead.origin_id, channel: lead.channel, channel_id: lead.channel_id, source_lead_id: lead.id,
    custom_fields: custom,
  }, { userId });
  return deal.id;
}

function status(req: SandboxRequest, ctx: HandlerContext) {
  checkUuid('id', req.params.id!);
  checkUuid('conversion_id', req.params.conversion_id!);
  const c = ctx.state.conversions.get(req.params.conversion_id!);
  if (!c || c.lead_id !== req.params.id) throw entityNotFound();
  const data: Record<string, unknown> = { lead_id: c.lead_id, conversion_id: c.id, status: c.status };
  if (c.status === 'completed') data.deal_id = c.deal_id;
  return ok(data);
}

export const convertRoutes: RouteDef[] = [
  { method: 'POST', path: '/api/v2/leads/{id}/convert/deal', cost: 40, scopes: LEAD_WRITE, handler: start },
  { method: 'GET', path: '/api/v2/leads/{id}/convert/status/{conversion_id}', cost: 1, scopes: LEAD_READ, handler: status },
];
