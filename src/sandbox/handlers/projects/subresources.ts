// v1 sub-resources of a project: activities, active groups, plan (tasks and activities with
// their phase and group) and tasks. Not paginated by the interface: all are returned.
import { ok } from '../../http/envelope.js';
import type { Activity } from '../../store/records.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { groups, loadProject, plan, PROJECT_READ, tasks } from './store.js';
import { v1Time } from '../../engine/time.js';

/** v1 activity shape (vendor OpenAPI, getProjectActivities). */
function presentActivity(a: Activity, companyId: number) {
  return {
    id: a.id, subject: a.subject, type: a.type, user_id: a.owner_id, done: a.done, due_date: a.due_date, due_time: a.due_time,
    duration: a.duration ?? null, deal_id: a.deal_id, lead_id: a.lead_id, person_id: a.person_id, org_id: a.org_id,
    project_id: a.project_id ?? null, location: a.location ?? null, public_description: a.public_description ?? null,
    busy_flag: a.busy_flag ?? false, company_id: companyId, add_time: v1Time(a.add_time), update_time: v1Time(a.update_time),
    marked_as_done_time: typeof a.marked_as_done_time === 'string' ? v1Time(a.marked_as_done_time) : null,
    active_flag: !a.is_deleted, update_user_id: a.update_user_id ?? null,
  };
}

function activities(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadProject(ctx.state, req.params.id!);
  const rows = ctx.state.activities.filter((a) => a.project_id === p.id).map((a) => presentActivity(a, ctx.state.company.id));
  return ok(rows, { next_cursor: null });
}

function activeGroups(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadProject(ctx.state, req.params.id!);
  const rows = groups(ctx.state).filter((g) => g.project_id === p.id && g.active_flag).sort((a, b) => a.order_nr - b.order_nr);
  return ok(rows.map((g) => ({ id: g.id, name: g.name, order_nr: g.order_nr })));
}

/** Plan items whose task or activity still exists, tasks first, in creation order. */
function projectPlan(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadProject(state, req.params.id!);
  const alive = (i: { item_type: string; item_id: number }) => (i.item_type === 'task' ? tasks(state).has(i.item_id) : state.activities.has(i.item_id));
  const rows = plan(state).filter((i) => i.project_id === p.id && alive(i))
    .sort((a, b) => (a.item_type === b.item_type ? a.id - b.id : a.item_type === 'task' ? -1 : 1));
  return ok(rows.map((i) => ({ item_id: i.item_id, item_type: i.item_type, phase_id: i.phase_id, group_id: i.group_id })));
}

function projectTasks(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadProject(ctx.state, req.params.id!);
  return ok(tasks(ctx.state).filter((t) => t.project_id === p.id).map((t) => structuredClone(t)), { next_cursor: null });
}

export const subresourceRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/projects/{id}/activities', cost: 20, scopes: PROJECT_READ, handler: activities },
  { method: 'GET', path: '/api/v1/projects/{id}/groups', cost: 20, scopes: PROJECT_READ, handler: activeGroups },
  { method: 'GET', path: '/api/v1/projects/{id}/plan', cost: 20, scopes: PROJECT_READ, handler: projectPlan },
  { method: 'GET', path: '/api/v1/projects/{id}/tasks', cost: 20, scopes: PROJECT_READ, handler: projectTasks },
];
