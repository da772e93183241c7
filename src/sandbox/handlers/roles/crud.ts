// Role list, get, create, update, delete.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { has, objectBody, optInt, optString, rejectUnknown, reqString } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import {
  ADMIN, DEFAULT_ROLE_ID, descendantsOf, loadRole, presentRole, requireAdmin, roles, settingsOf, usersOf, type Role,
} from './store.js';

/** parent_role_id must name a live role (null = top level). */
function checkParent(state: SandboxState, parent: number | null | undefined, self?: Role): void {
  if (parent === undefined || parent === null) return;
  if (!roles(state).has(parent)) throw invalid('parent_role_id', `role ${parent} does not exist`);
  if (self && (parent === self.id || descendantsOf(state, self.id).has(parent))) {
    throw invalid('parent_role_id', 'cannot be the role itself or one of its sub-roles');
  }
}

function list(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const page = offsetPage(roles(ctx.state).all().map((r) => presentRole(ctx.state, r)), req.query);
  return ok(page.data, page.additional_data);
}

function get(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const role = loadRole(ctx.state, req.params.id!);
  return ok(presentRole(ctx.state, role, false), { settings: settingsOf(ctx.state, role) });
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'parent_role_id']);
  const name = reqString(b, 'name', { max: 255 });
  const parent = optInt(b, 'parent_role_id', { nullable: true, min: 1 });
  checkParent(ctx.state, parent);
  const role = roles(ctx.state).insert({ name, parent_role_id: parent ?? null, active_flag: true }, { userId: req.userId });
  return ok({ id: role.id });
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const role = loadRole(ctx.state, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'parent_role_id']);
  if (!has(b, 'name') && !has(b, 'parent_role_id')) throw invalid('body', 'give at least one of name, parent_role_id');
  const patch: Partial<Role> = {};
  const name = optString(b, 'name', { max: 255 });
  if (name !== undefined && name !== null) patch.name = name;
  const parent = optInt(b, 'parent_role_id', { nullable: true, min: 1 });
  if (parent !== undefined) {
    checkParent(ctx.state, parent, role);
    patch.parent_role_id = parent;
  }
  roles(ctx.state).update(role.id, patch, { userId: req.userId });
  return ok({ id: role.id });
}

/** Deleting marks the role deleted; its users go to the default role and its sub-roles to its parent. */
function remove(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const { state } = ctx;
  const role = loadRole(state, req.params.id!);
  if (role.id === DEFAULT_ROLE_ID) throw invalid('id', 'the default role cannot be deleted');
  for (const u of usersOf(state, role.id)) state.users.update(u.id, { role_id: DEFAULT_ROLE_ID }, { userId: req.userId });
  for (const child of roles(state).filter((r) => r.parent_role_id === role.id)) {
    roles(state).update(child.id, { parent_role_id: role.parent_role_id }, { userId: req.userId });
  }
  roles(state).markDeleted(role.id, { active_flag: false }, { userId: req.userId });
  return ok({ id: role.id });
}

export const crudRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/roles', cost: 20, scopes: ADMIN, handler: list },
  { method: 'GET', path: '/api/v1/roles/{id}', cost: 2, scopes: ADMIN, handler: get },
  { method: 'POST', path: '/api/v1/roles', cost: 10, scopes: ADMIN, handler: create },
  { method: 'PUT', path: '/api/v1/roles/{id}', cost: 10, scopes: ADMIN, handler: update },
  { method: 'DELETE', path: '/api/v1/roles/{id}', cost: 6, scopes: ADMIN, handler: remove },
];
