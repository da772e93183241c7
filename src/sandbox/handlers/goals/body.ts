// Goal bodies for POST (create) and PUT (update). An update merges what was sent into
// the stored goal (nested objects member by member) and the result must satisfy the
// same rules as a create, so a goal can never drift into an invalid state.
import { invalid } from '../../http/errors.js';
import { isDate } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import {
  ACTIVITY_GOAL_TYPES, ASSIGNEE_TYPES, GOAL_TYPES, INTERVALS, METRICS, teamMembers, teamsKnown,
  type Goal, type GoalParams,
} from './model.js';

type Obj = Record<string, unknown>;
export type GoalFields = Pick<Goal, 'title' | 'type' | 'assignee' | 'interval' | 'duration' | 'expected_outcome'>;

const TOP = ['title', 'assignee', 'type', 'expected_outcome', 'duration', 'interval'];
const MEMBERS: Record<string, string[]> = {
  assignee: ['id', 'type'],
  type: ['name', 'params'],
  'type.params': ['pipeline_id', 'stage_id', 'activity_type_id'],
  expected_outcome: ['target', 'tracking_metric', 'currency_id'],
  duration: ['start', 'end'],
};

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function object(v: unknown, path: string): Obj {
  if (!isObj(v)) throw invalid(path, 'must be an object');
  for (const k of Object.keys(v)) if (!MEMBERS[path]!.includes(k)) throw invalid(`${path}.${k}`, 'is not a known field');
  return v;
}

/** Integers; numeric strings too (the vendor's own examples quote ids and targets). */
function int(v: unknown, path: string): number {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw invalid(path, 'must be a positive integer');
  return n;
}

function ids(v: unknown, path: string, exists: (id: number) => boolean, what: string): number[] | null {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) throw invalid(path, 'must be an array of integers or null');
  if (v.length === 0) throw invalid(path, 'must not be empty (use null for all)');
  return v.map((x, i) => {
    const n = int(x, `${path}[${i}]`);
    if (!exists(n)) throw invalid(path, `${what} ${n} does not exist`);
    return n;
  });
}

function oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T {
  if (v === undefined || v === null) throw invalid(path, 'is required');
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw invalid(path, `must be one of ${allowed.join(', ')}`);
  return v as T;
}

/** Every rule of the Goal table on a complete (created or merged) goal body. */
export function validateGoal(state: SandboxState, raw: Obj, titleDefault: string | undefined): GoalFields {
  for (const k of Object.keys(raw)) if (!TOP.includes(k)) throw invalid(k, 'is not a known field of this operation');
  for (const k of ['assignee', 'type', 'expected_outcome', 'duration', 'interval']) {
    if (raw[k] === undefined || raw[k] === null) throw invalid(k, 'is required');
  }

  const a = object(raw.assignee, 'assignee');
  const assigneeType = oneOf(a.type, 'assignee.type', ASSIGNEE_TYPES);
  if (a.id === undefined || a.id === null) throw invalid('assignee.id', 'is required');
  const assigneeId = int(a.id, 'assignee.id');
  if (assigneeType === 'person' && !state.users.get(assigneeId)?.active_flag) throw invalid('assignee.id', `user ${assigneeId} does not exist or is not active`);
  if (assigneeType === 'company' && assigneeId !== state.company.id) throw invalid('assignee.id', `must be the company id ${state.company.id}`);
  if (assigneeType === 'team' && teamsKnown(state) && teamMembers(state, assigneeId) === undefined) throw invalid('assignee.id', `team ${assigneeId} does not exist`);

  const t = object(raw.type, 'type');
  const name = oneOf(t.name, 'type.name', GOAL_TYPES);
  const p = t.params === undefined || t.params === null ? {} : object(t.params, 'type.params');
  const params: GoalParams = { pipeline_id: ids(p.pipeline_id, 'type.params.pipeline_id', (id) => state.pipelines.has(id), 'pipeline') };
  if (p.stage_id !== undefined && p.stage_id !== null && name !== 'deals_progressed') throw invalid('type.params.stage_id', 'is only for type deals_progressed');
  if (name === 'deals_progressed') {
    if (p.stage_id === undefined || p.stage_id === null) throw invalid('type.params.stage_id', 'is required for type deals_progressed');
    const stageId = int(p.stage_id, 'type.params.stage_id');
    const stage = state.stages.get(stageId);
    if (!stage) throw invalid('type.params.stage_id', `stage ${stageId} does not exist`);
    if (params.pipeline_id && !params.pipeline_id.includes(stage.pipeline_id)) throw invalid('type.params.stage_id', `stage ${stageId} is not in the goal's pipelines`);
    params.stage_id = stageId;
  }
  const isActivity = ACTIVITY_GOAL_TYPES.includes(name);
  if (p.activity_type_id !== undefined && p.activity_type_id !== null && !isActivity) throw invalid('type.params.activity_type_id', 'is only for types activities_completed and activities_added');
  if (isActivity) params.activity_type_id = ids(p.activity_type_id, 'type.params.activity_type_id', (id) => state.activityTypes.has(id), 'activity type');

  const e = object(raw.expected_outcome, 'expected_outcome');
  if (e.target === undefined || e.target === null) throw invalid('expected_outcome.target', 'is required');
  const target = typeof e.target === 'string' && /^\d+(\.\d+)?$/.test(e.target) ? Number(e.target) : e.target;
  if (typeof target !== 'number' || !Number.isFinite(target) || target <= 0) throw invalid('expected_outcome.target', 'must be a number greater than 0');
  const metric = oneOf(e.tracking_metric, 'expected_outcome.tracking_metric', METRICS);
  const outcome: GoalFields['expected_outcome'] = { target, tracking_metric: metric };
  if (e.currency_id !== undefined && e.currency_id !== null) {
    if (metric !== 'sum') throw invalid('expected_outcome.currency_id', 'is only for tracking_metric sum');
    const cid = int(e.currency_id, 'expected_outcome.currency_id');
    if (!state.currencies.get(cid)?.active_flag) throw invalid('expected_outcome.currency_id', `currency ${cid} does not exist`);
    outcome.currency_id = cid;
  }
  // Activities are counted; there is no amount to sum.
  if (metric === 'sum' && isActivity) throw invalid('expected_outcome.tracking_metric', 'must be quantity for activity goals');

  const d = object(raw.duration, 'duration');
  if (d.start === undefined || d.start === null) throw invalid('duration.start', 'is required');
  if (typeof d.start !== 'string' || !isDate(d.start)) throw invalid('duration.start', 'must be a date in YYYY-MM-DD format');
  let end: string | null = null;
  if (d.end !== undefined && d.end !== null) {
    if (typeof d.end !== 'string' || !isDate(d.end)) throw invalid('duration.end', 'must be a date in YYYY-MM-DD format or null');
    if (d.end < d.start) throw invalid('duration.end', 'must not be before duration.start');
    end = d.end;
  }

  const interval = oneOf(raw.interval, 'interval', INTERVALS);
  let title = titleDefault ?? '';
  if (raw.title !== undefined && raw.title !== null) {
    if (typeof raw.title !== 'string' || raw.title.trim() === '') throw invalid('title', 'must be a non-empty string');
    title = raw.title;
  }
  return { title, assignee: { id: assigneeId, type: assigneeType }, type: { name, params }, expected_outcome: outcome, duration: { start: d.start, end }, interval };
}

/** The stored goal with the sent fields merged in, as a raw body for validateGoal. */
export function mergeUpdate(goal: Goal, body: Obj): Obj {
  for (const k of Object.keys(body)) if (!TOP.includes(k)) throw invalid(k, 'is not a known field of this operation');
  const out: Obj = {
    title: goal.title, assignee: { ...goal.assignee }, type: { name: goal.type.name, params: { ...goal.type.params } },
    expected_outcome: { ...goal.expected_outcome }, duration: { ...goal.duration }, interval: goal.interval,
  };
  if (body.title !== undefined) out.title = body.title;
  if (body.interval !== undefined) out.interval = body.interval;
  for (const k of ['assignee', 'expected_outcome', 'duration'] as const) {
    if (body[k] === undefined) continue;
    const sent = object(body[k], k);
    out[k] = { ...(out[k] as Obj), ...sent };
  }
  // Going back to counting drops the currency unless one is sent (it only belongs to sums).
  const eo = out.expected_outcome as Obj;
  if (isObj(body.expected_outcome) && body.expected_outcome.tracking_metric === 'quantity' && body.expected_outcome.currency_id === undefined) delete eo.currency_id;
  if (body.type !== undefined) {
    const sent = object(body.type, 'type');
    const sentParams = sent.params === undefined || sent.params === null ? {} : object(sent.params, 'type.params');
    const changesKind = sent.name !== undefined && sent.name !== goal.type.name;
    // A new goal type starts from the sent params only (stage/activity params of the old type no longer apply).
    const params = changesKind ? { pipeline_id: goal.type.params.pipeline_id, ...sentParams } : { ...goal.type.params, ...sentParams };
    out.type = { name: sent.name ?? goal.type.name, params };
  }
  return out;
}
