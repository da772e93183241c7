// Area module: activity types (v1). Builds on the core `activityTypes` collection seeded by seed/base.ts.
// Rules from the interface: name and icon_key required on create, icon_key from the fixed list, color 6 hex
// characters without '#', key_string generated from the name and immutable (refused when sent),
// delete marks the type deleted and answers with the deactivated type (the vendor's documents).
import { ok } from '../http/envelope.js';
import { invalid, notFound } from '../http/errors.js';
import { has, objectBody, optEnum, optInt, optString, rejectUnknown, reqString, type Body } from '../http/validate.js';
import type { ActivityType } from '../store/records.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';

const ICON_KEYS = [
  'task', 'email', 'meeting', 'deadline', 'call', 'lunch', 'calendar', 'downarrow', 'document', 'smartphone', 'camera',
  'scissors', 'cogs', 'bubble', 'uparrow', 'checkbox', 'signpost', 'shuffle', 'addressbook', 'linegraph', 'picture', 'car',
  'world', 'search', 'clip', 'sound', 'brush', 'key', 'padlock', 'pricetag', 'suitcase', 'finish', 'plane', 'loop', 'wifi',
  'truck', 'cart', 'bulb', 'bell', 'presentation',
] as const;
const READ = ['activities:read', 'activities:full', 'admin'];
const WRITE = ['admin'];
const HEX6 = /^[0-9A-Fa-f]{6}$/;

function load(ctx: HandlerContext, raw: string): ActivityType {
  if (!/^\d+$/.test(raw)) throw invalid('id', 'must be an integer');
  const t = ctx.state.activityTypes.get(Number(raw));
  if (!t) throw notFound('Activity type not found');
  return t;
}

/** key_string is the service's, never the client's. */
function refuseKeyString(b: Body): void {
  if (has(b, 'key_string')) throw invalid('key_string', 'is generated from the name and cannot be set');
}

function optColor(b: Body): string | undefined {
  const c = optString(b, 'color');
  if (c !== undefined && !HEX6.test(c!)) throw invalid('color', 'must be a 6-character hex color without a leading # (e.g. FFCC00)');
  return c ?? undefined;
}

/** "Site visit" -> "site_visit"; a clash with a live or deleted type gets a numeric suffix. */
export function keyStringFor(state: SandboxState, name: string): string {
  const base = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'type';
  const taken = new Set(state.activityTypes.allWithDeleted().map((t) => t.key_string));
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
  return key;
}

const sorted = (state: SandboxState) => [...state.activityTypes.all()].sort((a, b) => a.order_nr - b.order_nr || a.id - b.id);

function create(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = objectBody(req.body);
  refuseKeyString(b);
  rejectUnknown(b, ['name', 'icon_key', 'color']);
  const name = reqString(b, 'name', { max: 255 }).trim();
  if (!has(b, 'icon_key') || b.icon_key === null) throw invalid('icon_key', 'is required');
  const icon_key = optEnum(b, 'icon_key', ICON_KEYS)!;
  const color = optColor(b);
  const now = ctx.now().toISOString();
  const order_nr = Math.max(0, ...state.activityTypes.all().map((t) => t.order_nr)) + 1;
  const t = state.activityTypes.insert({
    id: state.activityTypes.allocateId() as number, name, key_string: keyStringFor(state, name), icon_key, color: color ?? null, order_nr,
    active_flag: true, is_custom_flag: true, add_time: now, update_time: now,
  }, { userId: req.userId });
  return ok(t);
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const t = load(ctx, req.params.id!);
  const b = objectBody(req.body);
  refuseKeyString(b);
  rejectUnknown(b, ['name', 'icon_key', 'color', 'order_nr']);
  const patch: Partial<ActivityType> = {};
  const name = optString(b, 'name', { max: 255 });
  if (name) patch.name = name.trim();
  const icon = optEnum(b, 'icon_key', ICON_KEYS);
  if (icon) patch.icon_key = icon;
  const color = optColor(b);
  if (color !== undefined) patch.color = color;
  const order = optInt(b, 'order_nr', { min: 0 });
  if (order !== undefined && order !== null) patch.order_nr = order;
  if (Object.entries(patch).some(([k, v]) => t[k] !== v)) {
    patch.update_time = ctx.now().toISOString();
    ctx.state.activityTypes.update(t.id, patch, { userId: req.userId });
  }
  return ok(ctx.state.activityTypes.get(t.id));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const t = load(ctx, req.params.id!);
  const gone = ctx.state.activityTypes.markDeleted(t.id, { active_flag: false, update_time: ctx.now().toISOString() }, { userId: req.userId });
  return ok(gone);
}

export const activityTypesArea: AreaModule = {
  name: 'activity-types',
  routes: [
    { method: 'GET', path: '/api/v1/activityTypes', cost: 20, scopes: READ, handler: (_req, ctx) => ok(sorted(ctx.state)) },
    { method: 'POST', path: '/api/v1/activityTypes', cost: 10, scopes: WRITE, handler: create },
    { method: 'PUT', path: '/api/v1/activityTypes/{id}', cost: 10, scopes: WRITE, handler: update },
    { method: 'DELETE', path: '/api/v1/activityTypes/{id}', cost: 6, scopes: WRITE, handler: remove },
  ],
  // The base seed has the system types (call, meeting, ...); the demo account adds two custom ones.
  seed(state, name) {
    if (name !== 'demo') return;
    const t = '2025-01-06T09:00:00.000Z';
    const custom: [string, string, string][] = [['Site visit', 'car', '2E86DE'], ['Product demo', 'presentation', 'F39C12']];
    for (const [n, icon_key, color] of custom) {
      const order_nr = Math.max(0, ...state.activityTypes.all().map((x) => x.order_nr)) + 1;
      state.activityTypes.insert({
        id: state.activityTypes.allocateId() as number, name: n, key_string: keyStringFor(state, n), icon_key, color, order_nr, active_flag: true, is_custom_flag: true, add_time: t, update_time: t,
      }, { silent: true });
    }
  },
};
