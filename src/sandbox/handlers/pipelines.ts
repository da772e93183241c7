// Area module: pipelines and stages (v2 CRUD) and the v1 pipeline statistics. Real behaviour beyond the
// engine: a stage belongs to an active pipeline and gets the next order; moving a stage to another
// pipeline moves its deals; a stage that still holds deals cannot be deleted (the web app asks to move
// them first); deleting a pipeline deletes its stages and deals (as the web app warns); the last pipeline
// stays.
import { ok } from '../http/envelope.js';
import { ApiError, invalid } from '../http/errors.js';
import type { Pipeline, Stage } from '../store/records.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, RouteDef, SandboxRequest } from '../types.js';
import { changes } from '../engine/changelog.js';
import { crudRoutes, loadRecord } from '../engine/crud.js';
import type { ResourceSpec, WriteEnv } from '../engine/resource.js';
import { r, REF } from '../engine/rules.js';
import { v2Time } from '../engine/time.js';

const READ = ['deals:read', 'deals:full', 'admin'];
const WRITE = ['admin'];

const activeStages = (state: SandboxState, pipelineId: number) =>
  state.stages.filter((s) => s.pipeline_id === pipelineId && !s.is_deleted).sort((a, b) => a.order_nr - b.order_nr || a.id - b.id);

export const pipelineSpec: ResourceSpec<Pipeline> = {
  object: 'pipeline',
  collection: (s) => s.pipelines,
  notFound: 'Pipeline not found',
  base: '/api/v2/pipelines',
  scopes: { read: READ, write: WRITE },
  costs: { list: 5 },
  members: { name: r.string({ max: 255 }), is_deal_probability_enabled: r.bool() },
  required: ['name'],
  build: (env, input) => ({
    name: input.name as string, is_deal_probability_enabled: (input.is_deal_probability_enabled as boolean | undefined) ?? false,
    order_nr: Math.max(0, ...env.state.pipelines.all().map((p) => p.order_nr)) + 1, is_deleted: false, is_default: false,
    add_time: env.now, update_time: env.now,
  }),
  remove: (env, p) => {
    const { state } = env;
    if (state.pipelines.all().length <= 1) throw invalid('id', 'the last pipeline of the company cannot be deleted');
    const w = { userId: env.userId };
    for (const d of state.deals.filter((x) => x.pipeline_id === p.id)) state.deals.markDeleted(d.id, { is_deleted: true, status: d.status, update_time: env.now, delete_time: env.now }, w);
    for (const s of state.stages.filter((x) => x.pipeline_id === p.id)) state.stages.markDeleted(s.id, { is_deleted: true, update_time: env.now }, w);
    state.pipelines.markDeleted(p.id, { is_deleted: true, is_default: false, update_time: env.now }, w);
    if (p.is_default) {
      const next = [...state.pipelines.all()].sort((a, b) => a.order_nr - b.order_nr)[0];
      if (next) state.pipelines.update(next.id, { is_default: true }, { silent: true });
    }
  },
  present: (_s, p) => ({
    id: p.id, name: p.name, order_nr: p.order_nr, is_deleted: p.is_deleted, is_deal_probability_enabled: p.is_deal_probability_enabled,
    add_time: v2Time(p.add_time), update_time: v2Time(p.update_time),
  }),
  list: { sortBy: ['id', 'update_time', 'add_time'] },
};

const activePipeline = { ...REF.pipeline, live: (p: Record<string, unknown>) => p.is_deleted !== true };

function stageChange(env: WriteEnv, s: Stage, input: Record<string, unknown>): Partial<Stage> {
  const patch = { ...input } as Partial<Stage>;
  if (input.pipeline_id !== undefined && input.pipeline_id !== s.pipeline_id) {
    // The stage moves with its deals, to the end of the other pipeline.
    patch.order_nr = Math.max(0, ...activeStages(env.state, input.pipeline_id as number).map((x) => x.order_nr)) + 1;
    for (const d of env.state.deals.filter((x) => x.stage_id === s.id)) env.state.deals.update(d.id, { pipeline_id: input.pipeline_id as number, update_time: env.now }, { userId: env.userId });
  }
  if (input.is_deal_rot_enabled === false) patch.days_to_rotten = null;
  return patch;
}

export const stageSpec: ResourceSpec<Stage> = {
  object: 'stage',
  collection: (s) => s.stages,
  notFound: 'Stage not found',
  base: '/api/v2/stages',
  scopes: { read: READ, write: WRITE },
  costs: { list: 5 },
  members: {
    name: r.string({ max: 255 }), pipeline_id: r.int({ min: 1, ref: activePipeline }), deal_probability: r.int({ min: 0, max: 100 }),
    is_deal_rot_enabled: r.bool(), days_to_rotten: r.nullable(r.int({ min: 1 })),
  },
  required: ['name', 'pipeline_id'],
  build: (env, input) => {
    const rot = (input.is_deal_rot_enabled as boolean | undefined) ?? false;
    if (!rot && input.days_to_rotten != null) throw invalid('days_to_rotten', 'needs is_deal_rot_enabled true');
    return {
      name: input.name as string, pipeline_id: input.pipeline_id as number,
      order_nr: Math.max(0, ...activeStages(env.state, input.pipeline_id as number).map((x) => x.order_nr)) + 1,
      deal_probability: (input.deal_probability as number | undefined) ?? 100, is_deal_rot_enabled: rot,
      days_to_rotten: rot ? ((input.days_to_rotten as number | null | undefined) ?? null) : null, is_deleted: false,
      add_time: env.now, update_time: env.now,
    };
  },
  change: (env, s, input) => {
    const rot = (input.is_deal_rot_enabled as boolean | undefined) ?? s.is_deal_rot_enabled;
    if (!rot && input.days_to_rotten != null) throw invalid('days_to_rotten', 'needs is_deal_rot_enabled true');
    return stageChange(env, s, input);
  },
  remove: (env, s) => {
    const held = env.state.deals.filter((d) => d.stage_id === s.id);
    if (held.length) {
      throw new ApiError(400, `Stage ${s.id} still holds ${held.length} deal${held.length === 1 ? '' : 's'}; move them to another stage first`, 'Move the deals, then delete the stage.');
    }
    env.state.stages.markDeleted(s.id, { is_deleted: true, update_time: env.now }, { userId: env.userId });
  },
  present: (_st, s) => ({
    id: s.id, order_nr: s.order_nr, name: s.name, is_deleted: s.is_deleted, deal_probability: s.deal_probability, pipeline_id: s.pipeline_id,
    is_deal_rot_enabled: s.is_deal_rot_enabled, days_to_rotten: s.days_to_rotten, add_time: v2Time(s.add_time), update_time: v2Time(s.update_time),
  }),
  list: {
    rows: (state) => state.stages.filter((s) => !state.pipelines.get(s.pipeline_id)?.is_deleted),
    filters: { pipeline_id: { kind: 'int', test: (s, v: number) => s.pipeline_id === v } },
    sortBy: ['id', 'update_time', 'add_time', 'order_nr'],
  },
};

// ---- v1 statistics ------------------------------------------------------------------------------

function period(req: SandboxRequest): { from: number; to: number } {
  const q = req.query;
  const date = (name: string) => {
    const v = q.str(name);
    if (v === undefined) throw invalid(name, 'is required (YYYY-MM-DD)');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) throw invalid(name, 'must be a date in YYYY-MM-DD format');
    return Date.parse(`${v}T00:00:00Z`);
  };
  const from = date('start_date'), to = date('end_date') + 86_400_000 - 1;
  if (to < from) throw invalid('end_date', 'must not be before start_date');
  return { from, to };
}

/** The stages a deal has been in, in order: its first stage, then every stage change. */
function stagePath(state: SandboxState, dealId: number, current: number): number[] {
  const moves = changes(state).filter((c) => c.object === 'deal' && c.item_id === dealId && c.field_key === 'stage_id').sort((a, b) => a.time.localeCompare(b.time) || a.id - b.id);
  if (!moves.length) return [current];
  return [Number(moves[0]!.old_value), ...moves.map((m) => Number(m.new_value))];
}

function pipelineDeals(state: SandboxState, req: SandboxRequest, p: Pipeline) {
  const user = req.query.int('user_id', { min: 1 });
  return state.deals.filter((d) => d.pipeline_id === p.id && (user === undefined || d.owner_id === user));
}

function conversion(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadRecord(pipelineSpec, state, req);
  const { from, to } = period(req);
  const deals = pipelineDeals(state, req, p).filter((d) => Date.parse(d.add_time) <= to && Date.parse(d.update_time) >= from);
  const stages = activeStages(state, p.id);
  const orderOf = new Map(stages.map((s, i) => [s.id, i]));
  // A deal "reached" a stage when it was there or anywhere later in the pipeline.
  const furthest = deals.map((d) => Math.max(...stagePath(state, d.id, d.stage_id).map((s) => orderOf.get(s) ?? -1)));
  const reached = (i: number) => furthest.filter((f) => f >= i).length;
  const rate = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 100));
  const stage_conversions = stages.slice(0, -1).map((s, i) => ({ from_stage_id: s.id, to_stage_id: stages[i + 1]!.id, conversion_rate: rate(reached(i + 1), reached(i)) }));
  return ok({
    stage_conversions,
    won_conversion: rate(deals.filter((d) => d.status === 'won').length, deals.length),
    lost_conversion: rate(deals.filter((d) => d.status === 'lost').length, deals.length),
  });
}

function totals(deals: { id: number; value: number; currency: string }[]) {
  const values: Record<string, number> = {};
  for (const d of deals) values[d.currency] = (values[d.currency] ?? 0) + d.value;
  const formatted = Object.fromEntries(Object.entries(values).map(([c, v]) => [c, `${v.toLocaleString('en-US', { minimumFractionDigits: 0 })} ${c}`]));
  return { count: deals.length, deals_ids: deals.map((d) => d.id), values, formatted_values: formatted };
}

function movement(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadRecord(pipelineSpec, state, req);
  const { from, to } = period(req);
  const deals = pipelineDeals(state, req, p);
  const within = (t: string | null) => t !== null && Date.parse(t) >= from && Date.parse(t) <= to;
  const ids = new Set(deals.map((d) => d.id));
  const moves = changes(state).filter((c) => c.object === 'deal' && c.field_key === 'stage_id' && ids.has(c.item_id) && within(c.time));
  const now = ctx.now().getTime();
  const age = (t: string) => Math.max(0, Math.floor((now - Date.parse(t)) / 86_400_000));
  const open = deals.filter((d) => d.status === 'open');
  const avg = (xs: number[]) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);
  return ok({
    movements_between_stages: { count: moves.length },
    new_deals: totals(deals.filter((d) => within(d.add_time))),
    deals_left_open: totals(open.filter((d) => Date.parse(d.add_time) <= to)),
    won_deals: totals(deals.filter((d) => d.status === 'won' && within(d.won_time))),
    lost_deals: totals(deals.filter((d) => d.status === 'lost' && within(d.lost_time))),
    average_age_in_days: {
      across_all_stages: avg(open.map((d) => age(d.add_time))),
      by_stages: activeStages(state, p.id).map((s) => ({ stage_id: s.id, value: avg(open.filter((d) => d.stage_id === s.id).map((d) => age(d.stage_change_time ?? d.add_time))) })),
    },
  });
}

const statsRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/pipelines/{id}/conversion_statistics', cost: 40, scopes: ['deals:read', 'deals:full'], handler: conversion },
  { method: 'GET', path: '/api/v1/pipelines/{id}/movement_statistics', cost: 40, scopes: ['deals:read', 'deals:full'], handler: movement },
];

export const pipelinesArea: AreaModule = {
  name: 'pipelines',
  routes: [...crudRoutes(pipelineSpec), ...crudRoutes(stageSpec), ...statsRoutes],
};
