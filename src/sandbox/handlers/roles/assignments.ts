// Role assignments: a user has exactly one role (users.role_id); removing moves the user to the default role.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { objectBody, rejectUnknown, reqInt } from '../../http/validate.js';
import type { User } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { ADMIN, DEFAULT_ROLE_ID, loadRole, requireAdmin, usersOf } from './store.js';

function userFromBody(state: SandboxState, body: unknown): User {
  const b = objectBody(body);
  rejectUnknown(b, ['user_id']);
  const userId = reqInt(b, 'user_id', { min: 1 });
  const user = state.users.get(userId);
  if (!user) throw invalid('user_id', `user ${userId} does not exist`);
  return user;
}

function list(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const role = loadRole(ctx.state, req.params.id!);
  const rows = usersOf(ctx.state, role.id).map((u) => ({
    user_id: u.id, role_id: role.id, parent_role_id: role.parent_role_id, name: role.name, active_flag: role.active_flag, type: '1',
  }));
  const page = offsetPage(rows, req.query);
  return ok(page.data, page.additional_data);
}

function add(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const role = loadRole(ctx.state, req.params.id!);
  const user = userFromBody(ctx.state, req.body);
  if (user.role_id !== role.id) ctx.state.users.update(user.id, { role_id: role.id }, { userId: req.userId });
  return ok({ user_id: user.id, role_id: role.id });
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const role = loadRole(ctx.state, req.params.id!);
  const user = userFromBody(ctx.state, req.body);
  if (role.id === DEFAULT_ROLE_ID) throw invalid('user_id', 'cannot be removed from the default role; assign the user to another role instead');
  if (user.role_id !== role.id) throw invalid('user_id', `user ${user.id} is not assigned to role ${role.id}`);
  ctx.state.users.update(user.id, { role_id: DEFAULT_ROLE_ID }, { userId: req.userId });
  return ok({ id: role.id });
}

export const assignmentRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/roles/{id}/assignments', cost: 10, scopes: ADMIN, handler: list },
  { method: 'POST', path: '/api/v1/roles/{id}/assignments', cost: 10, scopes: ADMIN, handler: add },
  { method: 'DELETE', path: '/api/v1/roles/{id}/assignments', cost: 6, scopes: ADMIN, handler: remove },
];
