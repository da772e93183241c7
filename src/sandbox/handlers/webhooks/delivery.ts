// Webhook delivery: listens on the state's event bus and POSTs each matching event
// to the webhook's URL, asynchronously (never inside the API request, never charged
// against the budget). Policy (the vendor's webhook guide, shortened for a local emulator):
// success = any 2xx; failure = other status, network error or > 10 s; then 3 more
// tries after 0.3 s, 1 s and 3 s (the service waits 3 s, 30 s, 150 s). The ban after
// repeated failures and the removal after 3 days without success are not emulated.
import { randomUUID } from 'node:crypto';
import type { SandboxEvent } from '../../store/events.js';
import type { SandboxState } from '../../store/state.js';
import type { User } from '../../store/records.js';
import type { HandlerContext } from '../../types.js';
import { canSee, permittedUserIds } from '../access.js';
import { payloadV1, payloadV2, type DeliveryInfo } from './payload.js';
import { webhooks, type Webhook } from './store.js';

export const RETRY_DELAYS_MS = [300, 1000, 3000];
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Deliveries of one sandbox: how many attempts are scheduled or on the wire, and how many ended. */
export interface DeliveryStats { outstanding: number; delivered: number; failed: number }

/** One subscription per state; the context is refreshed on every (re)start. */
const hooked = new WeakMap<SandboxState, { ctx: HandlerContext; stats: DeliveryStats }>();

export function startDelivery(ctx: HandlerContext): void {
  const existing = hooked.get(ctx.state);
  // A restart (reset, reload) cancelled every scheduled attempt.
  if (existing) { existing.ctx = ctx; existing.stats.outstanding = 0; return; }
  const holder = { ctx, stats: { outstanding: 0, delivered: 0, failed: 0 } };
  hooked.set(ctx.state, holder);
  ctx.state.events.on((e) => onEvent(holder.ctx, e));
}

/** GET /__sandbox/deliveries: lets a test or a CI job wait until nothing is on its way, instead of sleeping. */
export function deliveryStats(state: SandboxState): DeliveryStats {
  return { ...(hooked.get(state)?.stats ?? { outstanding: 0, delivered: 0, failed: 0 }) };
}

function later(ctx: HandlerContext, run: () => Promise<void>, delayMs: number): void {
  const stats = hooked.get(ctx.state)?.stats;
  if (stats) stats.outstanding++;
  ctx.schedule(() => void run().finally(() => { if (stats) stats.outstanding = Math.max(0, stats.outstanding - 1); }), delayMs);
}

export function matches(wh: Pick<Webhook, 'event_action' | 'event_object'>, e: Pick<SandboxEvent, 'action' | 'object'>): boolean {
  return (wh.event_action === '*' || wh.event_action === e.action) && (wh.event_object === '*' || wh.event_object === e.object);
}

type Owned = { owner_id: number; visible_to: string | number };
const isOwned = (r: Record<string, unknown> | null): r is Record<string, unknown> & Owned => typeof r?.owner_id === 'number';

/** The webhook's authorizing user must be able to access the object (a global admin sees all). */
export function userMaySee(state: SandboxState, user: User, e: SandboxEvent): boolean {
  if (user.is_admin || e.object === 'user') return true;
  const rec = e.data ?? e.previous;
  return isOwned(rec) ? canSee(state, user, rec) : true;
}

function onEvent(ctx: HandlerContext, e: SandboxEvent): void {
  const { state } = ctx;
  const correlationId = randomUUID();
  for (const wh of webhooks(state).all()) {
    if (wh.is_active !== 1 || !matches(wh, e)) continue;
    const user = state.users.get(wh.user_id);
    if (!user || !user.active_flag || !userMaySee(state, user, e)) continue;
    const rec = e.data ?? e.previous;
    const info: DeliveryInfo = {
      attempt: 1, correlationId, eventId: randomUUID(), companyId: state.company.id,
      host: hostOf(ctx.baseUrl), permittedUserIds: isOwned(rec) ? permittedUserIds(state, rec) : state.users.filter((u) => u.active_flag).map((u) => u.id),
    };
    // Scheduled, so the API response that caused the event goes out first.
    later(ctx, () => attempt(ctx, identity(wh), e, info), 0);
  }
}

/** Id plus creation time and URL: after a reset, a new webhook with the same id is not the same webhook. */
const identity = (wh: Webhook) => ({ id: wh.id, key: `${wh.add_time}|${wh.subscription_url}` });
type Identity = ReturnType<typeof identity>;
const current = (state: SandboxState, who: Identity) => {
  const wh = webhooks(state).get(who.id);
  return wh && wh.is_active === 1 && identity(wh).key === who.key ? wh : undefined;
};

function hostOf(url: string): string {
  try { return new URL(url).host; } catch { return url; }
}

async function attempt(ctx: HandlerContext, who: Identity, e: SandboxEvent, info: DeliveryInfo): Promise<void> {
  const wh = current(ctx.state, who);
  if (!wh) return;
  const body = wh.version === '1.0' ? payloadV1(wh, e, info) : payloadV2(wh, e, info);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'crmctl-sandbox-webhooks/1.0' };
  if (wh.http_auth_user !== null) {
    headers.authorization = `Basic ${Buffer.from(`${wh.http_auth_user}:${wh.http_auth_password ?? ''}`).toString('base64')}`;
  }
  let status: number | null = null;
  try {
    // The URL must not redirect: a 3xx is a failed delivery, not followed.
    const res = await fetch(wh.subscription_url, { method: 'POST', headers, body: JSON.stringify(body), redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    status = res.status;
    await res.arrayBuffer().catch(() => undefined);
  } catch {
    status = null; // no answer (refused, reset, timeout)
  }
  if (!current(ctx.state, who)) return;
  webhooks(ctx.state).update(who.id, { last_delivery_time: ctx.now().toISOString(), last_http_status: status });
  const delivered = status !== null && status >= 200 && status < 300;
  const delay = RETRY_DELAYS_MS[info.attempt - 1];
  const stats = hooked.get(ctx.state)?.stats;
  if (!delivered && delay !== undefined) {
    later(ctx, () => attempt(ctx, who, e, { ...info, attempt: info.attempt + 1 }), delay);
  } else {
    if (stats) stats[delivered ? 'delivered' : 'failed']++;
    ctx.schedule(() => undefined, 0); // persist the delivery status
  }
}
