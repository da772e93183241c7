// GET/POST/DELETE /api/v1/webhooks (interface "Webhooks"; scope admin; costs 10/10/6).
import type { HandlerContext, RouteDef, SandboxRequest, SandboxResponse } from '../../types.js';
import { has, type Body } from '../../http/validate.js';
import { badUrl, invalidField, webhookNotFound } from './errors.js';
import { unreachableReason } from './reachable.js';
import { EVENT_ACTIONS, EVENT_OBJECTS, isV2Only, MAX_WEBHOOKS_PER_USER, VERSIONS, webhooks, type Webhook } from './store.js';

const SCOPES = ['admin'];
const FIELDS = ['subscription_url', 'event_action', 'event_object', 'name', 'user_id', 'http_auth_user', 'http_auth_password', 'version'];

/** Webhook bodies carry `status: "ok"` beside success (the vendor's documents). */
const okBody = (status: number, data?: unknown): SandboxResponse =>
  ({ status, body: data === undefined ? { status: 'ok', success: true } : { status: 'ok', success: true, data } });

function list(_req: SandboxRequest, ctx: HandlerContext) {
  // "Lists the company's webhooks": every live webhook, oldest first.
  return okBody(200, webhooks(ctx.state).all());
}

function requiredText(b: Body, k: string): string {
  const v = b[k];
  if (!has(b, k) || v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) throw invalidField(k, 'is required');
  if (typeof v !== 'string') throw invalidField(k, 'must be a string');
  return v;
}

function optionalText(b: Body, k: string): string | null {
  const v = b[k];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw invalidField(k, 'must be a string');
  return v;
}

function oneOf<T extends string>(v: string, k: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw invalidField(k, `must be one of ${allowed.join(', ')}`);
  return v as T;
}

/**
 * A full http(s) URL that is not an endpoint of the service and is publicly reachable. The sandbox's own
 * port on any loopback spelling and the vendor's API hosts are the service; other loopback URLs are
 * accepted on purpose so a local listener can receive deliveries; unspecified, private and reserved
 * addresses and names that do not resolve are refused (reachable.ts).
 */
export async function checkSubscriptionUrl(raw: string, baseUrl: string): Promise<string> {
  let u: URL;
  try { u = new URL(raw); } catch { throw badUrl(); }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) throw badUrl();
  if (/(^|\.)pipedrive\.com\.?$/i.test(u.hostname)) throw badUrl();
  if (await unreachableReason(u, baseUrl)) throw badUrl();
  return raw;
}

async function create(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) throw invalidField('body', 'must be a JSON object');
  const b = req.body as Body;
  for (const k of Object.keys(b)) if (!FIELDS.includes(k)) throw invalidField(k, 'is not a known field of this operation');

  const url = await checkSubscriptionUrl(requiredText(b, 'subscription_url'), ctx.baseUrl);
  const event_action = oneOf(requiredText(b, 'event_action'), 'event_action', EVENT_ACTIONS);
  const event_object = oneOf(requiredText(b, 'event_object'), 'event_object', EVENT_OBJECTS);
  const name = requiredText(b, 'name');
  const version = has(b, 'version') && b.version !== null ? oneOf(String(b.version), 'version', VERSIONS) : '2.0';
  // The 2026 objects exist in webhooks v2 only; a version 1.0 payload has no form for them.
  if (version === '1.0' && isV2Only(event_object)) throw invalidField('event_object', `${event_object} is delivered only by webhooks of version 2.0`);

  let userId = req.userId;
  if (has(b, 'user_id') && b.user_id !== null) {
    const raw = b.user_id;
    const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw invalidField('user_id', 'must be a positive integer');
    const u = state.users.get(n);
    if (!u?.active_flag) throw invalidField('user_id', `user ${n} does not exist or is not active`);
    userId = n;
  }
  const http_auth_user = optionalText(b, 'http_auth_user');
  const http_auth_password = optionalText(b, 'http_auth_password');
  if (http_auth_password !== null && http_auth_user === null) throw invalidField('http_auth_user', 'is required with http_auth_password');

  // Counted per creating user (the caller), over live webhooks.
  if (webhooks(state).filter((w) => w.owner_id === req.userId).length >= MAX_WEBHOOKS_PER_USER) {
    throw invalidField('user_id', `a user can have at most ${MAX_WEBHOOKS_PER_USER} webhooks`);
  }

  const wh = webhooks(state).insert({
    id: webhooks(state).allocateId() as number, company_id: state.company.id, owner_id: req.userId, user_id: userId, event_action, event_object,
    subscription_url: url, version, is_active: 1, add_time: ctx.now().toISOString(), remove_time: null, type: 'general',
    http_auth_user, http_auth_password, remove_reason: null, last_delivery_time: null, last_http_status: null,
    admin_id: state.adminUserId(), name,
  } as Omit<Webhook, 'id'>, { userId: req.userId });
  return okBody(201, wh);
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const raw = req.params.id!;
  if (!/^\d+$/.test(raw)) throw webhookNotFound();
  const col = webhooks(ctx.state);
  const wh = col.get(Number(raw));
  if (!wh) throw webhookNotFound();
  col.markDeleted(wh.id, { is_active: 0, remove_time: ctx.now().toISOString(), remove_reason: 'user' }, { userId: req.userId });
  // Every success body has a data element (interface); the vendor's documents show status and success alone.
  return okBody(200, { id: wh.id });
}

export const webhookRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/webhooks', cost: 10, scopes: SCOPES, handler: list },
  { method: 'POST', path: '/api/v1/webhooks', cost: 10, scopes: SCOPES, handler: create },
  { method: 'DELETE', path: '/api/v1/webhooks/{id}', cost: 6, scopes: SCOPES, handler: remove },
];
