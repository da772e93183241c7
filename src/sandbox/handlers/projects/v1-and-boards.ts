// The v1 forms of projects and phases, project deletion, plan placement, v2 boards and project
// templates. v1 projects are the same records as v2: a v1 body is read as its v2 equivalent
// (org_id → org_ids, person_id → person_ids, labels → label_ids) and the answer is written back in
// v1 names and times.
import { ok } from '../../http/envelope.js';
import { ApiError, invalid } from '../../http/errors.js';
import { cursorPage } from '../../http/paginate.js';
import { objectBody } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest, SandboxResponse } from '../../types.js';
import { v2Time } from '../../engine/time.js';
import { archive, create, listed, record, update } from './crud.js';
import {
  boardPhases, boards, entityNotFound, groups, loadProject, phases, plan, PROJECT_READ, PROJECT_WRITE, projects, tasks, templates, type Board, type Project, type Template,
} from './store.js';
import { v1Time } from '../../engine/time.js';

const v1Project = (p: Project) => ({
  id: p.id, title: p.title, board_id: p.board_id, phase_id: p.phase_id, description: p.description, status: p.status, owner_id: p.owner_id,
  start_date: p.start_date, end_date: p.end_date, deal_ids: p.deal_ids, org_id: p.org_ids[0] ?? null, person_id: p.person_ids[0] ?? null,
  labels: p.label_ids, health_status: p.health_status, add_time: v1Time(p.add_time), update_time: v1Time(p.update_time),
  status_change_time: v1Time(p.status_change_time), archive_time: p.archive_time ? v1Time(p.archive_time) : null,
});

/** A v1 body in v2 names: the single org/person become lists, labels become label_ids. */
function asV2Body(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const { org_id, person_id, labels, ...rest } = raw as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  if (org_id !== undefined) out.org_ids = org_id === null ? [] : [org_id];
  if (person_id !== undefined) out.person_ids = person_id === null ? [] : [person_id];
  if (labels !== undefined) out.label_ids = labels;
  return out;
}

/** Runs a v2 handler on the v1 request and answers with the v1 form of the project it returns. */
function viaV2(handler: (req: SandboxRequest, ctx: HandlerContext) => SandboxResponse) {
  return (req: SandboxRequest, ctx: HandlerContext) => {
    const res = handler({ ...req, body: asV2Body(req.body) }, ctx);
    const data = (res.body as { data: Project }).data;
    // The v1 form answers with the status the v2 handler chose (a create 201, as documented for both).
    return ok(v1Project(projects(ctx.state).get(data.id)!), null, res.status);
  };
}

function v1List(req: SandboxRequest, ctx: HandlerContext) {
  const res = listed(req, ctx, false);
  const body = res.body as { data: Project[]; additional_data: unknown };
  return ok(body.data.map((p) => v1Project(projects(ctx.state).get(p.id)!)), body.additional_data);
}

/**
 * Deleting marks the project deleted: it leaves the lists (status=deleted lists it) and keeps its history.
 * Webhooks see a deletion of the project and of each of its tasks (subtasks included), which go with it.
 */
function remove(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadProject(state, req.params.id!);
  if (p.status !== 'deleted') {
    const now = ctx.now().toISOString();
    const w = { userId: req.userId };
    for (const t of tasks(state).filter((x) => x.project_id === p.id).sort((a, b) => Number(a.parent_task_id === null) - Number(b.parent_task_id === null))) {
      tasks(state).markDeleted(t.id, { update_time: now }, w);
    }
    projects(state).update(p.id, { status: 'deleted', status_change_time: now, update_time: now }, { ...w, as: 'delete' });
    record(state, req, p.id, { status: p.status }, { status: 'deleted' }, now);
  }
  return ok({ id: p.id });
}

/** Places a task or activity of the project in a phase of its board and a group of the project. */
function placeInPlan(type: 'task' | 'activity', param: 'taskId' | 'activityId') {
  return (req: SandboxRequest, ctx: HandlerContext) => {
    const { state } = ctx;
    const p = loadProject(state, req.params.id!);
    const itemId = /^\d+$/.test(req.params[param]!) ? Number(req.params[param]) : NaN;
    const item = type === 'task' ? tasks(state).get(itemId) : state.activities.get(itemId);
    if (!item || (item as { project_id?: number | null }).project_id !== p.id) throw new ApiError(404, `${type === 'task' ? 'Task' : 'Activity'} not found in project ${p.id}`);
    const b = objectBody(req.body, false);
    const phase = b.phase_id === undefined || b.phase_id === null ? undefined : Number(b.phase_id);
    const group = b.group_id === undefined || b.group_id === null ? undefined : Number(b.group_id);
    if (phase !== undefined && !boardPhases(state, p.board_id).some((x) => x.id === phase)) throw invalid('phase_id', `phase ${b.phase_id} is not a phase of board ${p.board_id}`);
    if (group !== undefined && !groups(state).filter((g) => g.project_id === p.id && g.active_flag).some((g) => g.id === group)) throw invalid('group_id', `group ${b.group_id} is not an active group of project ${p.id}`);
    const existing = plan(state).find((x) => x.project_id === p.id && x.item_type === type && x.item_id === itemId);
    const fields = { ...(b.phase_id !== undefined ? { phase_id: phase ?? null } : {}), ...(b.group_id !== undefined ? { group_id: group ?? null } : {}) };
    const row = existing
      ? plan(state).update(existing.id, fields, { userId: req.userId })
      : plan(state).insert({ project_id: p.id, item_type: type, item_id: itemId, phase_id: phase ?? null, group_id: group ?? null }, { userId: req.userId });
    return ok({ item_id: row.item_id, item_type: row.item_type, phase_id: row.phase_id, group_id: row.group_id });
  };
}

// ---- boards (v2, beta) ----
const presentBoard = (b: Board) => ({ id: b.id, name: b.name, order_nr: b.order_nr, add_time: v2Time(b.add_time), update_time: v2Time(b.update_time) });

function loadBoard(state: SandboxState, raw: string): Board {
  const b = /^\d+$/.test(raw) ? boards(state).get(Number(raw)) : undefined;
  if (!b) throw entityNotFound();
  return b;
}

function boardBody(raw: unknown, mode: 'create' | 'update'): { name?: string; order_nr?: number } {
  const b = objectBody(raw, false);
  for (const k of Object.keys(b)) if (k !== 'name' && k !== 'order_nr') throw invalid(k, 'is not a field of a board');
  const out: { name?: string; order_nr?: number } = {};
  if (b.name !== undefined) {
    if (typeof b.name !== 'string' || !b.name.trim()) throw invalid('name', 'must be a non-empty string');
    out.name = b.name;
  } else if (mode === 'create') throw invalid('name', 'is required');
  if (b.order_nr !== undefined) {
    if (typeof b.order_nr !== 'number' || !Number.isInteger(b.order_nr) || b.order_nr < 1) throw invalid('order_nr', 'must be a positive integer');
    out.order_nr = b.order_nr;
  }
  if (mode === 'update' && !Object.keys(out).length) throw invalid('body', 'at least one field to change is needed');
  return out;
}

/** Boards keep order_nr 1..n: a board put at a position pushes the ones after it. */
function placeBoard(state: SandboxState, id: number, order: number | undefined, now: string): void {
  const others = boards(state).filter((b) => b.id !== id).sort((a, b) => a.order_nr - b.order_nr);
  const at = Math.min(Math.max(1, order ?? others.length + 1), others.length + 1);
  const me = boards(state).get(id)!;
  [...others.slice(0, at - 1), me, ...others.slice(at - 1)].forEach((b, i) => {
    if (b.order_nr !== i + 1) boards(state).update(b.id, { order_nr: i + 1, update_time: now });
  });
}

function createBoard(req: SandboxRequest, ctx: HandlerContext) {
  const c = boardBody(req.body, 'create');
  const now = ctx.now().toISOString();
  const b = boards(ctx.state).insert({ name: c.name!, order_nr: 0, add_time: now, update_time: now }, { userId: req.userId });
  placeBoard(ctx.state, b.id, c.order_nr, now);
  return ok(presentBoard(boards(ctx.state).get(b.id)!));
}

function updateBoard(req: SandboxRequest, ctx: HandlerContext) {
  const b = loadBoard(ctx.state, req.params.id!);
  const c = boardBody(req.body, 'update');
  const now = ctx.now().toISOString();
  boards(ctx.state).update(b.id, { ...(c.name !== undefined ? { name: c.name } : {}), update_time: now }, { userId: req.userId });
  if (c.order_nr !== undefined) placeBoard(ctx.state, b.id, c.order_nr, now);
  return ok(presentBoard(boards(ctx.state).get(b.id)!));
}

/** A board that still holds projects cannot be deleted (the web app asks to move them); its phases go with it. */
function deleteBoard(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = loadBoard(state, req.params.id!);
  const held = projects(state).filter((p) => p.board_id === b.id && p.status !== 'deleted');
  if (held.length) throw invalid('id', `board ${b.id} holds ${held.length} project${held.length === 1 ? '' : 's'} (${held.slice(0, 5).map((p) => p.id).join(', ')}); move them to another board first`);
  if (boards(state).all().length <= 1) throw invalid('id', 'the last board cannot be deleted');
  for (const ph of boardPhases(state, b.id)) phases(state).markDeleted(ph.id, {}, { userId: req.userId });
  boards(state).markDeleted(b.id, {}, { userId: req.userId });
  const now = ctx.now().toISOString();
  boards(state).all().sort((a, c) => a.order_nr - c.order_nr).forEach((x, i) => {
    if (x.order_nr !== i + 1) boards(state).update(x.id, { order_nr: i + 1, update_time: now });
  });
  return ok({ id: b.id });
}

// ---- project templates ----
const presentTemplate = (t: Template, boardId: number, ownerId: number, v1: boolean) => ({
  id: t.id, title: t.title, description: t.description, projects_board_id: boardId, owner_id: ownerId,
  add_time: v1 ? v1Time(String(t.add_time ?? '2025-01-01T00:00:00Z')) : v2Time(String(t.add_time ?? '2025-01-01T00:00:00Z')),
  update_time: v1 ? v1Time(String(t.update_time ?? t.add_time ?? '2025-01-01T00:00:00Z')) : v2Time(String(t.update_time ?? t.add_time ?? '2025-01-01T00:00:00Z')),
});

function templateRoutes(version: 'v1' | 'v2', costs: { list: number; get: number }): RouteDef[] {
  const v1 = version === 'v1';
  const board = (state: SandboxState) => boards(state).all().sort((a, b) => a.order_nr - b.order_nr)[0]?.id ?? 1;
  const owner = (state: SandboxState) => state.adminUserId();
  return [
    {
      method: 'GET', path: `/api/${version}/projectTemplates`, cost: costs.list, scopes: PROJECT_READ,
      handler: (req, ctx) => {
        const page = cursorPage(templates(ctx.state).all().sort((a, b) => a.id - b.id), req.query, { maxLimit: 500 });
        return ok(page.data.map((t) => presentTemplate(t, (t.board_id as number | undefined) ?? board(ctx.state), (t.owner_id as number | undefined) ?? owner(ctx.state), v1)), page.additional_data);
      },
    },
    {
      method: 'GET', path: `/api/${version}/projectTemplates/{id}`, cost: costs.get, scopes: PROJECT_READ,
      handler: (req, ctx) => {
        const t = /^\d+$/.test(req.params.id!) ? templates(ctx.state).get(Number(req.params.id)) : undefined;
        if (!t) throw entityNotFound();
        return ok(presentTemplate(t, (t.board_id as number | undefined) ?? board(ctx.state), (t.owner_id as number | undefined) ?? owner(ctx.state), v1));
      },
    },
  ];
}

function v1Phase(req: SandboxRequest, ctx: HandlerContext) {
  const p = /^\d+$/.test(req.params.id!) ? phases(ctx.state).get(Number(req.params.id)) : undefined;
  if (!p) throw entityNotFound();
  return ok({ id: p.id, name: p.name, board_id: p.board_id, order_nr: p.order_nr, add_time: v1Time(p.add_time), update_time: v1Time(p.update_time) });
}

function v1Phases(req: SandboxRequest, ctx: HandlerContext) {
  const board = req.query.int('board_id', { min: 1 });
  if (board === undefined) throw invalid('board_id', 'is required');
  return ok(boardPhases(ctx.state, board).map((p) => ({ id: p.id, name: p.name, board_id: p.board_id, order_nr: p.order_nr, add_time: v1Time(p.add_time), update_time: v1Time(p.update_time) })));
}

export const projectV1Routes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/projects', cost: 20, scopes: PROJECT_READ, handler: v1List },
  { method: 'GET', path: '/api/v1/projects/{id}', cost: 2, scopes: PROJECT_READ, handler: (req, ctx) => ok(v1Project(loadProject(ctx.state, req.params.id!))) },
  { method: 'POST', path: '/api/v1/projects', cost: 10, scopes: PROJECT_WRITE, handler: viaV2(create) },
  { method: 'PUT', path: '/api/v1/projects/{id}', cost: 10, scopes: PROJECT_WRITE, handler: viaV2(update) },
  { method: 'DELETE', path: '/api/v1/projects/{id}', cost: 6, scopes: PROJECT_WRITE, handler: remove },
  { method: 'DELETE', path: '/api/v2/projects/{id}', cost: 3, scopes: PROJECT_WRITE, handler: remove },
  { method: 'POST', path: '/api/v1/projects/{id}/archive', cost: 10, scopes: PROJECT_WRITE, handler: viaV2(archive) },
  { method: 'PUT', path: '/api/v1/projects/{id}/plan/activities/{activityId}', cost: 10, scopes: PROJECT_WRITE, handler: placeInPlan('activity', 'activityId') },
  { method: 'PUT', path: '/api/v1/projects/{id}/plan/tasks/{taskId}', cost: 10, scopes: PROJECT_WRITE, handler: placeInPlan('task', 'taskId') },
  { method: 'GET', path: '/api/v1/projects/phases', cost: 20, scopes: PROJECT_READ, handler: v1Phases },
  // The vendor index names only projects:read here; a full scope includes reading, as everywhere else.
  { method: 'GET', path: '/api/v1/projects/phases/{id}', cost: 2, scopes: PROJECT_READ, handler: v1Phase },
  { method: 'GET', path: '/api/v1/projects/boards/{id}', cost: 2, scopes: PROJECT_READ, handler: (req, ctx) => {
    const b = loadBoard(ctx.state, req.params.id!);
    return ok({ id: b.id, name: b.name, order_nr: b.order_nr, add_time: v1Time(b.add_time), update_time: v1Time(b.update_time) });
  } },
  { method: 'GET', path: '/api/v2/boards', cost: 10, scopes: PROJECT_READ, handler: (_req, ctx) => ok(boards(ctx.state).all().sort((a, b) => a.order_nr - b.order_nr).map(presentBoard)) },
  { method: 'GET', path: '/api/v2/boards/{id}', cost: 10, scopes: PROJECT_READ, handler: (req, ctx) => ok(presentBoard(loadBoard(ctx.state, req.params.id!))) },
  { method: 'POST', path: '/api/v2/boards', cost: 5, scopes: PROJECT_WRITE, handler: createBoard },
  { method: 'PATCH', path: '/api/v2/boards/{id}', cost: 5, scopes: PROJECT_WRITE, handler: updateBoard },
  { method: 'DELETE', path: '/api/v2/boards/{id}', cost: 3, scopes: PROJECT_WRITE, handler: deleteBoard },
  ...templateRoutes('v2', { list: 10, get: 1 }),
  ...templateRoutes('v1', { list: 20, get: 2 }),
];
