// Role settings: default visibility per item type; POST adds or updates one key.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { has, objectBody, optEnum, rejectUnknown } from '../../http/validate.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { allowedVisibility } from '../../engine/access.js';
import { ADMIN, loadRole, requireAdmin, roleSettings, settingsOf, VISIBILITY_KEYS } from './store.js';

function list(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  return ok(settingsOf(ctx.state, loadRole(ctx.state, req.params.id!)));
}

function set(req: SandboxRequest, ctx: HandlerContext) {
  requireAdmin(req.user);
  const { state } = ctx;
  const role = loadRole(state, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['setting_key', 'value']);
  if (!has(b, 'setting_key') || b.setting_key === null) throw invalid('setting_key', 'is required');
  const key = optEnum(b, 'setting_key', VISIBILITY_KEYS)!;
  if (!has(b, 'value') || b.value === null) throw invalid('value', 'is required');
  // Form bodies carry strings; JSON must carry the number itself.
  const raw = typeof b.value === 'string' && /^\d+$/.test(b.value) ? Number(b.value) : b.value;
  // The plan decides which of 1, 3, 5, 7 exist (interface, visibility table).
  const allowed = allowedVisibility(state).map(Number);
  if (typeof raw !== 'number' || !allowed.includes(raw)) throw invalid('value', `must be one of ${allowed.join(', ')}`);
  const cur = roleSettings(state).get(role.id);
  if (cur) roleSettings(state).update(role.id, { [key]: raw }, { userId: req.userId });
  else roleSettings(state).insert({ id: role.id, [key]: raw }, { userId: req.userId });
  return ok({ id: role.id, [key]: raw });
}

export const settingRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/roles/{id}/settings', cost: 20, scopes: ADMIN, handler: list },
  { method: 'POST', path: '/api/v1/roles/{id}/settings', cost: 10, scopes: ADMIN, handler: set },
];
