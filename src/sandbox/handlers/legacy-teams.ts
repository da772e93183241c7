// Area module: legacy teams (v1, the former /teams paths). Reads need users:read, writes admin.
// Teams are never removed: PUT deleted_flag=1 marks one deleted and it stays listed with the flag.
import { ok } from '../http/envelope.js';
import { ApiError, forbidden, invalid } from '../http/errors.js';
import { has, objectBody, optString, rejectUnknown, reqString, type Body } from '../http/validate.js';
import type { SandboxState, SeedName } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';
import { v1Time } from '../engine/time.js';

const READ = ['users:read'];
const WRITE = ['admin'];
const ORDER = ['id', 'name', 'manager_id', 'active_flag'] as const;

interface Team {
  id: number; name: string; description: string; manager_id: number; users: number[];
  active_flag: 0 | 1; deleted_flag: 0 | 1; add_time: string; created_by_user_id: number; [k: string]: unknown;
}

const teams = (s: SandboxState) => s.collection<Team>('legacyTeams', { idKind: 'int' });

/** The service's 404 for teams has no error_info (the vendor's documents). */
const teamNotFound = (id: string) => new ApiError(404, `Team ${id} does not exist`, '', { success: false, error: `Team ${id} does not exist` });

function load(state: SandboxState, raw: string): Team {
  if (!/^\d+$/.test(raw)) throw invalid('id', 'must be an integer');
  const team = teams(state).get(Number(raw));
  if (!team) throw teamNotFound(raw);
  return team;
}

function requireAdmin(req: SandboxRequest): void {
  if (!req.user.is_admin) throw forbidden();
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the v1 time format of teams. */

function flag(b: Body, k: string): 0 | 1 | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (v === 0 || v === 1) return v;
  if (v === '0' || v === '1') return Number(v) as 0 | 1;
  throw invalid(k, 'must be 0 or 1');
}

function intParam(b: Body, k: string, required: boolean): number | undefined {
  if (!has(b, k) || b[k] === null) {
    if (required) throw invalid(k, 'is required');
    return undefined;
  }
  const v = typeof b[k] === 'string' && /^\d+$/.test(b[k] as string) ? Number(b[k]) : b[k];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid(k, 'must be a positive integer');
  return v;
}

function existingUser(state: SandboxState, field: string, id: number): number {
  if (!state.users.has(id)) throw invalid(field, `user ${id} does not exist`);
  return id;
}

/** A list of existing user ids, without repeats. Form bodies may send `users[]` or a comma list. */
function userList(state: SandboxState, b: Body, k: string, o: { required: boolean }): number[] | undefined {
  const raw = has(b, k) ? b[k] : has(b, `${k}[]`) ? b[`${k}[]`] : undefined;
  if (raw === undefined || raw === null) {
    if (o.required) throw invalid(k, 'is required');
    return undefined;
  }
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : null;
  if (!items) throw invalid(k, 'must be an array of user ids');
  const ids = items.map((x) => {
    const n = typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : x;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw invalid(k, 'must contain only user ids (positive integers)');
    return existingUser(state, k, n);
  });
  if (o.required && ids.length === 0) throw invalid(k, 'must contain at least one user id');
  return [...new Set(ids)];
}

function listing(req: SandboxRequest, rows: Team[]) {
  const order = req.query.oneOf('order_by', ORDER) ?? 'id';
  const skip = req.query.str('skip_users');
  if (skip !== undefined && skip !== '0' && skip !== '1') throw invalid('skip_users', 'must be 0 or 1');
  const sorted = [...rows].sort((a, b) => {
    const x = a[order], y = b[order];
    const c = typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y) : Number(x) - Number(y);
    return c || a.id - b.id;
  });
  return ok(sorted.map((t) => present(t, skip === '1')));
}

/** The service's field order (id first); skip_users=1 leaves the member ids out. */
function present(t: Team, skipUsers = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: t.id, name: t.name, description: t.description, manager_id: t.manager_id, users: [...t.users],
    active_flag: t.active_flag, deleted_flag: t.deleted_flag, add_time: t.add_time, created_by_user_id: t.created_by_user_id,
  };
  if (skipUsers) delete out.users;
  return out;
}

function get(req: SandboxRequest, ctx: HandlerContext) {
  const team = load(ctx.state, req.params.id!);
  const skip = req.query.str('skip_users');
  if (skip !== undefined && skip !== '0' && skip !== '1') throw invalid('skip_users', 'must be 0 or 1');
  return ok(present(team, skip === '1'));
}

function ofUser(req: SandboxRequest, ctx: HandlerContext) {
  const raw = req.params.id!;
  if (!/^\d+$/.test(raw)) throw invalid('id', 'must be an integer');
  const userId = Number(raw);
  if (!ctx.state.users.has(userId)) throw new ApiError(404, 'User not found or not accessible.', '', { success: false, error: 'User not found or not accessible.' });
  return listing(req, teams(ctx.state).filter((t) => t.users.includes(userId)));
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req);
  const { state } = ctx;
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'description', 'manager_id', 'users', 'users[]']);
  const name = reqString(b, 'name', { max: 255 });
  const manager = existingUser(state, 'manager_id', intParam(b, 'manager_id', true)!);
  const description = has(b, 'description') && b.description !== null ? String(b.description) : '';
  const users = userList(state, b, 'users', { required: false }) ?? [];
  const team = teams(state).insert({
    name, description, manager_id: manager, users, active_flag: 1, deleted_flag: 0,
    add_time: v1Time(ctx.now()), created_by_user_id: req.userId,
  }, { userId: req.userId });
  return ok(present(team));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req);
  const { state } = ctx;
  const team = load(state, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'description', 'manager_id', 'users', 'users[]', 'active_flag', 'deleted_flag']);
  const patch: Partial<Team> = {};
  const name = optString(b, 'name', { max: 255 });
  if (name) patch.name = name;
  if (has(b, 'description')) {
    if (b.description !== null && typeof b.description !== 'string') throw invalid('description', 'must be a string');
    patch.description = (b.description as string | null) ?? '';
  }
  const manager = intParam(b, 'manager_id', false);
  if (manager !== undefined) patch.manager_id = existingUser(state, 'manager_id', manager);
  const users = userList(state, b, 'users', { required: false });
  if (users) patch.users = users;
  const active = flag(b, 'active_flag');
  if (active !== undefined) patch.active_flag = active;
  const deleted = flag(b, 'deleted_flag');
  if (deleted !== undefined) patch.deleted_flag = deleted;
  teams(state).update(team.id, patch, { userId: req.userId });
  return ok(present(teams(state).get(team.id)!));
}

function addUsers(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req);
  const team = load(ctx.state, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['users', 'users[]']);
  const add = userList(ctx.state, b, 'users', { required: true })!;
  const next = [...team.users, ...add.filter((u) => !team.users.includes(u))];
  teams(ctx.state).update(team.id, { users: next }, { userId: req.userId });
  return ok(next);
}

function removeUsers(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req);
  const team = load(ctx.state, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['users', 'users[]']);
  const drop = userList(ctx.state, b, 'users', { required: true })!;
  const stranger = drop.find((u) => !team.users.includes(u));
  if (stranger !== undefined) throw invalid('users', `user ${stranger} is not a member of team ${team.id}`);
  const next = team.users.filter((u) => !drop.includes(u));
  teams(ctx.state).update(team.id, { users: next }, { userId: req.userId });
  return ok(next);
}

function seed(state: SandboxState, name: SeedName): void {
  if (name !== 'demo') return;
  const add = (teamName: string, description: string, manager: number, users: number[], active: 0 | 1, addTime: string) =>
    teams(state).insert({
      name: teamName, description, manager_id: manager, users, active_flag: active, deleted_flag: 0, add_time: addTime, created_by_user_id: 1,
    }, { silent: true });
  add('Closers', 'Tallinn office sales team', 1, [2, 3], 1, '2025-01-06 09:00:00');
  add('Partnerships', 'Channel and reseller deals', 3, [3], 1, '2025-01-07 10:30:00');
  add('Onboarding 2024', 'Temporary onboarding squad', 1, [1, 2], 0, '2025-01-08 08:15:00');
}

export const legacyTeamsArea: AreaModule = {
  name: 'legacyTeams',
  routes: [
    { method: 'GET', path: '/api/v1/legacyTeams', cost: 20, scopes: READ, handler: (req, ctx) => listing(req, teams(ctx.state).all()) },
    { method: 'GET', path: '/api/v1/legacyTeams/{id}', cost: 2, scopes: READ, handler: get },
    { method: 'GET', path: '/api/v1/legacyTeams/{id}/users', cost: 20, scopes: READ, handler: (req, ctx) => ok([...load(ctx.state, req.params.id!).users]) },
    { method: 'GET', path: '/api/v1/legacyTeams/user/{id}', cost: 20, scopes: READ, handler: ofUser },
    { method: 'POST', path: '/api/v1/legacyTeams', cost: 10, scopes: WRITE, handler: create },
    { method: 'POST', path: '/api/v1/legacyTeams/{id}/users', cost: 10, scopes: WRITE, handler: addUsers },
    { method: 'PUT', path: '/api/v1/legacyTeams/{id}', cost: 10, scopes: WRITE, handler: update },
    { method: 'DELETE', path: '/api/v1/legacyTeams/{id}/users', cost: 10, scopes: WRITE, handler: removeUsers },
  ],
  seed,
};
