// Goals v1: find, create, update (PUT), delete, results (interface "Goals"; costs 20/10/10/6/20).
import { randomBytes } from 'node:crypto';
import { ok } from '../../http/envelope.js';
import { ApiError, invalid } from '../../http/errors.js';
import { isDate, objectBody } from '../../http/validate.js';
import type { Query } from '../../http/query.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { mergeUpdate, validateGoal } from './body.js';
import { ACTIVITY_GOAL_TYPES, ASSIGNEE_TYPES, FIND_GOAL_TYPES, METRICS, goals, type Goal } from './model.js';
import { computeProgress } from './progress.js';

const READ = ['goals:read', 'goals:full'];
const WRITE = ['goals:full'];

const goalNotFound = () => new ApiError(404, 'Goal not found', 'Object was not found.');
export const newGoalId = () => randomBytes(16).toString('hex');

function load(ctx: HandlerContext, id: string): Goal {
  const g = /^[0-9a-f]+$/i.test(id) ? goals(ctx.state).get(id) : undefined;
  if (!g) throw goalNotFound();
  return g;
}

const humanType = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ');

function create(req: SandboxRequest, ctx: HandlerContext) {
  const b = objectBody(req.body);
  const f = validateGoal(ctx.state, b, humanType(String((b.type as { name?: unknown } | undefined)?.name ?? 'goal')));
  // Every goal gets a progress report (interface: "also creates a progress report").
  const goal = goals(ctx.state).insert({ id: newGoalId(), owner_id: req.userId, ...f, is_active: true, report_ids: [newGoalId()] }, { userId: req.userId });
  return ok({ goal });
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const goal = load(ctx, req.params.id!);
  const b = objectBody(req.body);
  const f = validateGoal(ctx.state, mergeUpdate(goal, b), goal.title);
  goals(ctx.state).update(goal.id, f, { userId: req.userId });
  return ok({ goal: goals(ctx.state).get(goal.id) });
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const goal = load(ctx, req.params.id!);
  goals(ctx.state).markDeleted(goal.id, { is_active: false }, { userId: req.userId });
  // Every success body has a data element (interface); the vendor's documents show success alone.
  return ok({ id: goal.id });
}

/** period.start/period.end: both or neither, real dates, in order. */
function period(q: Query, required: boolean): { start: string; end: string } | undefined {
  const start = q.str('period.start'), end = q.str('period.end');
  if (required && start === undefined) throw invalid('period.start', 'is required');
  if (required && end === undefined) throw invalid('period.end', 'is required');
  if (start === undefined && end === undefined) return undefined;
  if (start === undefined) throw invalid('period.start', 'must be given together with period.end');
  if (end === undefined) throw invalid('period.end', 'must be given together with period.start');
  if (!isDate(start)) throw invalid('period.start', 'must be a date in YYYY-MM-DD format');
  if (!isDate(end)) throw invalid('period.end', 'must be a date in YYYY-MM-DD format');
  if (end < start) throw invalid('period.end', 'must not be before period.start');
  return { start, end };
}

const KNOWN = ['type.name', 'title', 'is_active', 'assignee.id', 'assignee.type', 'expected_outcome.target', 'expected_outcome.tracking_metric',
  'expected_outcome.currency_id', 'type.params.pipeline_id', 'type.params.stage_id', 'type.params.activity_type_id', 'period.start', 'period.end'];
/** Lowest-level goal fields beyond the named filters. */
const OTHER_FIELDS = ['id', 'owner_id', 'interval', 'duration.start', 'duration.end'];
/** Filters that make find return everyone's goals (interface: type, assignee type, expected outcome, type params). */
const EVERYONE = ['type.name', 'assignee.type', 'expected_outcome.target', 'expected_outcome.tracking_metric', 'expected_outcome.currency_id',
  'type.params.pipeline_id', 'type.params.stage_id', 'type.params.activity_type_id'];

function getPath(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined), o);
}

/** `null` or a list of ids; a goal matches when it tracks any of them (null: goals over all of them). */
function idsFilter(q: Query, name: string): ((v: number[] | null | undefined) => boolean) | undefined {
  const raw = q.str(name);
  if (raw === undefined) return undefined;
  if (raw === 'null') return (v) => v === null;
  const list = q.list(name)!.map((s) => {
    if (!/^\d+$/.test(s)) throw invalid(name, 'must be a comma-separated list of integers, or null');
    return Number(s);
  });
  return (v) => Array.isArray(v) && v.some((x) => list.includes(x));
}

function find(req: SandboxRequest, ctx: HandlerContext) {
  const q = req.query;
  const typeName = q.oneOf('type.name', FIND_GOAL_TYPES);
  const assigneeId = q.int('assignee.id', { min: 1 });
  const assigneeType = q.oneOf('assignee.type', ASSIGNEE_TYPES);
  const metric = q.oneOf('expected_outcome.tracking_metric', METRICS);
  const currencyId = q.int('expected_outcome.currency_id', { min: 1 });
  const targetRaw = q.str('expected_outcome.target');
  if (targetRaw !== undefined && !/^\d+(\.\d+)?$/.test(targetRaw)) throw invalid('expected_outcome.target', 'must be a number');
  const stageId = q.int('type.params.stage_id', { min: 1 });
  const pipelines = idsFilter(q, 'type.params.pipeline_id');
  const activityTypes = idsFilter(q, 'type.params.activity_type_id');
  const isActive = q.bool('is_active') ?? true;
  const title = q.str('title');
  const p = period(q, false);
  if (currencyId !== undefined && metric !== 'sum') throw invalid('expected_outcome.currency_id', 'is only for expected_outcome.tracking_metric=sum');
  if (stageId !== undefined && typeName !== 'deals_progressed') throw invalid('type.params.stage_id', 'is only for type.name=deals_progressed');
  if (activityTypes && !ACTIVITY_GOAL_TYPES.includes(typeName ?? '')) throw invalid('type.params.activity_type_id', 'is only for type.name activities_completed or activities_added');

  // Any other lowest-level field of a goal can be matched as {dotted.field}={value}.
  const extra: [string, string][] = [];
  for (const key of new Set(q.params.keys())) {
    if (KNOWN.includes(key)) continue;
    if (!OTHER_FIELDS.includes(key)) throw invalid(key, `is not a filterable goal field (other fields: ${OTHER_FIELDS.join(', ')})`);
    extra.push([key, q.str(key) ?? '']);
  }

  const everyone = EVERYONE.some((k) => q.has(k));
  let rows = goals(ctx.state).all();
  if (assigneeId !== undefined) rows = rows.filter((g) => g.assignee.id === assigneeId);
  else if (!everyone) rows = rows.filter((g) => g.assignee.type === 'person' && g.assignee.id === req.userId);
  rows = rows.filter((g) => g.is_active === isActive
    && (typeName === undefined || g.type.name === typeName)
    && (assigneeType === undefined || g.assignee.type === assigneeType)
    && (metric === undefined || g.expected_outcome.tracking_metric === metric)
    && (currencyId === undefined || g.expected_outcome.currency_id === currencyId)
    && (targetRaw === undefined || g.expected_outcome.target === Number(targetRaw))
    && (stageId === undefined || g.type.params.stage_id === stageId)
    && (!pipelines || pipelines(g.type.params.pipeline_id))
    && (!activityTypes || activityTypes(g.type.params.activity_type_id))
    && (title === undefined || g.title.toLowerCase().includes(title.toLowerCase()))
    && (!p || (g.duration.start <= p.end && (g.duration.end === null || g.duration.end >= p.start)))
    && extra.every(([k, v]) => String(getPath(g, k)) === v));
  // The find answer carries the statistics service's own fields (the vendor's documents, oddities).
  return { status: 200, body: { success: true, statusCode: 20000, statusText: 'OK', service: 'statistics-goals-api', data: { goals: rows } } };
}

function results(req: SandboxRequest, ctx: HandlerContext) {
  const goal = load(ctx, req.params.id!);
  const p = period(req.query, true)!;
  if (p.start < goal.duration.start) throw invalid('period.start', `must not be before the goal's start ${goal.duration.start}`);
  if (goal.duration.end !== null && p.end > goal.duration.end) throw invalid('period.end', `must not be after the goal's end ${goal.duration.end}`);
  return ok({ progress: computeProgress(ctx.state, goal, p.start, p.end), goal });
}

export const goalRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/goals/find', cost: 20, scopes: READ, handler: find },
  { method: 'GET', path: '/api/v1/goals/{id}/results', cost: 20, scopes: READ, handler: results },
  { method: 'POST', path: '/api/v1/goals', cost: 10, scopes: WRITE, handler: create, body: 'json' },
  { method: 'PUT', path: '/api/v1/goals/{id}', cost: 10, scopes: WRITE, handler: update, body: 'json' },
  { method: 'DELETE', path: '/api/v1/goals/{id}', cost: 6, scopes: WRITE, handler: remove },
];
