// Project list, archived list, get, create (201), update, archive, permitted users, changelog.
import { created, ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { cursorPage } from '../../http/paginate.js';
import type { Query } from '../../http/query.js';
import type { Filter } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { applyFilter } from '../../engine/filter-eval.js';
import { parseProjectBody, placeProject } from './body.js';
import { applyTemplate } from './template.js';
import {
  changelog, loadProject, presentProject, PROJECT_READ, PROJECT_WRITE, projects, STATUSES, type Project, type ProjectStatus,
} from './store.js';

/** Filters shared by the list and the archived list. */
export function listed(req: SandboxRequest, ctx: HandlerContext, archived: boolean) {
  const { state } = ctx;
  const q = req.query;
  const statuses = statusFilter(q);
  let rows = projects(state).filter((p) => (p.archive_time !== null) === archived && statuses.includes(p.status));
  const filterId = q.int('filter_id', { min: 1 });
  // Filters of the 'projects' type are stored by this area's seed; the shared evaluator checks the type.
  if (filterId !== undefined) rows = applyFilter(state, filterId, 'projects' as Filter['type'], rows);
  const phase = q.int('phase_id', { min: 1 });
  if (phase !== undefined) rows = rows.filter((p) => p.phase_id === phase);
  if (!archived) {
    const deal = q.int('deal_id', { min: 1 }), person = q.int('person_id', { min: 1 }), org = q.int('org_id', { min: 1 });
    if (deal !== undefined) rows = rows.filter((p) => p.deal_ids.includes(deal));
    if (person !== undefined) rows = rows.filter((p) => p.person_ids.includes(person));
    if (org !== undefined) rows = rows.filter((p) => p.org_ids.includes(org));
  }
  rows.sort((a, b) => a.id - b.id);
  const page = cursorPage(rows.map(presentProject), q, { maxLimit: 500 });
  return ok(page.data, page.additional_data);
}

/** `status` is a comma list; without it every status but `deleted` is listed. */
function statusFilter(q: Query): ProjectStatus[] {
  const list = q.list('status');
  if (!list) return STATUSES.filter((s) => s !== 'deleted');
  for (const s of list) if (!(STATUSES as readonly string[]).includes(s)) throw invalid('status', `must be a comma-separated list of ${STATUSES.join(', ')}`);
  return list as ProjectStatus[];
}

export function create(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const c = parseProjectBody(state, req.body, 'create');
  const place = placeProject(state, c)!;
  const now = ctx.now().toISOString();
  const custom = Object.fromEntries(Object.entries(c.custom_fields ?? {}).filter(([, v]) => v !== null));
  const p = projects(state).insert({
    title: c.title!, description: c.description ?? null, status: c.status ?? 'open', ...place, owner_id: c.owner_id ?? req.userId,
    start_date: c.start_date ?? null, end_date: c.end_date ?? null, deal_ids: c.deal_ids ?? [], person_ids: c.person_ids ?? [],
    org_ids: c.org_ids ?? [], label_ids: c.label_ids ?? [], health_status: c.health_status ?? null, add_time: now, update_time: now,
    status_change_time: now, archive_time: null, custom_fields: custom,
  }, { userId: req.userId });
  if (c.template_id !== undefined) applyTemplate(state, p, c.template_id, req.userId, now);
  const { id: _id, add_time: _a, update_time: _u, status_change_time: _s, archive_time: _t, ...initial } = presentProject(p);
  record(state, req, p.id, {}, initial, now);
  return created(presentProject(p));
}

export function update(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadProject(state, req.params.id!);
  const c = parseProjectBody(state, req.body, 'update');
  const place = placeProject(state, c, p);
  const patch: Record<string, unknown> = { ...c, ...(place ?? {}) };
  delete patch.board_id;
  delete patch.phase_id;
  if (place) Object.assign(patch, place);
  if (c.custom_fields) {
    // Only sent keys change; null clears (the key disappears from custom_fields).
    const merged: Record<string, unknown> = { ...p.custom_fields };
    for (const [k, v] of Object.entries(c.custom_fields)) if (v === null) delete merged[k]; else merged[k] = v;
    patch.custom_fields = merged;
  }
  const old: Record<string, unknown> = {}, neu: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (JSON.stringify(p[k]) !== JSON.stringify(v)) { old[k] = p[k] ?? null; neu[k] = v; }
  }
  if (Object.keys(neu).length) {
    const now = ctx.now().toISOString();
    if ('status' in neu) patch.status_change_time = now;
    patch.update_time = now;
    projects(state).update(p.id, patch as Partial<Project>, { userId: req.userId });
    record(state, req, p.id, old, neu, now);
  }
  return ok(presentProject(projects(state).get(p.id)!));
}

/** Archiving moves the project from the list to the archived list; archiving again changes nothing. */
export function archive(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadProject(state, req.params.id!);
  if (p.archive_time === null) {
    const now = ctx.now().toISOString();
    projects(state).update(p.id, { archive_time: now, update_time: now }, { userId: req.userId });
    record(state, req, p.id, { archive_time: null }, { archive_time: now }, now);
  }
  return ok(presentProject(projects(state).get(p.id)!));
}

export function record(state: SandboxState, req: SandboxRequest, projectId: number, old: Record<string, unknown>, neu: Record<string, unknown>, time: string): void {
  const ua = req.headers['user-agent'];
  changelog(state).insert({
    project_id: projectId, time, actor_user_id: req.userId, change_source: 'api',
    change_source_user_agent: typeof ua === 'string' ? ua : null, old_values: old, new_values: neu,
  });
}

/** Newest change first, cursor-paged; the internal id and project id are not part of the record. */
function history(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadProject(ctx.state, req.params.id!);
  const rows = changelog(ctx.state).filter((e) => e.project_id === p.id).sort((a, b) => b.id - a.id);
  const page = cursorPage(rows, req.query, { maxLimit: 500, direction: 'desc' });
  return ok(page.data.map(({ id: _id, project_id: _p, ...rest }) => structuredClone(rest)), page.additional_data);
}

/** Projects are visible company-wide in the sandbox: every active user may access one. */
function permitted(req: SandboxRequest, ctx: HandlerContext) {
  loadProject(ctx.state, req.params.id!);
  return ok(ctx.state.users.filter((u) => u.active_flag).map((u) => u.id));
}

export const crudRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v2/projects', cost: 10, scopes: PROJECT_READ, handler: (req, ctx) => listed(req, ctx, false) },
  { method: 'GET', path: '/api/v2/projects/archived', cost: 10, scopes: PROJECT_READ, handler: (req, ctx) => listed(req, ctx, true) },
  { method: 'GET', path: '/api/v2/projects/{id}', cost: 1, scopes: PROJECT_READ,
    handler: (req, ctx) => ok(presentProject(loadProject(ctx.state, req.params.id!))) },
  { method: 'POST', path: '/api/v2/projects', cost: 5, scopes: PROJECT_WRITE, handler: create },
  { method: 'PATCH', path: '/api/v2/projects/{id}', cost: 5, scopes: PROJECT_WRITE, handler: update },
  { method: 'POST', path: '/api/v2/projects/{id}/archive', cost: 3, scopes: PROJECT_WRITE, handler: archive },
  { method: 'GET', path: '/api/v2/projects/{id}/changelog', cost: 10, scopes: PROJECT_READ, handler: history },
  { method: 'GET', path: '/api/v2/projects/{id}/permittedUsers', cost: 5, scopes: PROJECT_READ, handler: permitted },
];
