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
import { canSee, canSeeAttached } from '../../engine/access.js';
import { payloadV1, payloadV2, type DeliveryInfo } from './payload.js';
import { onLoopback, unreachableReason } from './reachable.js';
import { isV2Only, webhooks, type Webhook } from './store.js';

export const RETRY_DELAYS_MS = [300, 1000, 3000];
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * Deliveries of one webhook wait in a bounded queue: a target that is slow or never answers must not
 * make the sandbox hold every event of a busy account (an import against such a target once grew the
 * process to 700 MB). When the queue is full the oldest waiting delivery is dropped and counted as
 * failed. At most MAX_IN_FLIGHT deliveries of one webhook are on the wire (with their retries) at once.
 */
export const MAX_QUEUED_PER_WEBHOOK = 100;
export const MAX_IN_FLIGHT = 4;

/**
 * Deliveries of one sandbox: how many are queued or on their way (with their retries), how many
 * ended, how many were dropped from a full queue (also counted in failed), and the longest queue now.
 */
export interface DeliveryStats { outstanding: number; delivered: number; failed: number; dropped: number; queued: number; max_queued: number }

interface Job { who: Identity; e: SandboxEvent; info: DeliveryInfo }
interface Queue { waiting: Job[]; inFlight: number }
interface Holder { ctx: HandlerContext; stats: DeliveryStats; queues: Map<string, Queue>; generation: number }

/** One subscription per state; the context is refreshed on every (re)start. */
const hooked = new WeakMap<SandboxState, Holder>();

const emptyStats = (): DeliveryStats => ({ outstanding: 0, delivered: 0, failed: 0, dropped: 0, queued: 0, max_queued: 0 });

export function startDelivery(ctx: HandlerContext): void {
  const existing = hooked.get(ctx.state);
  // A restart (reset, reload) cancelled every scheduled attempt: the queues start empty, and work of
  // the previous generation that is still on the wire ends without touching the new counters.
  if (existing) {
    existing.ctx = ctx; existing.generation++; existing.queues.clear();
    Object.assign(existing.stats, { outstanding: 0, queued: 0, max_queued: 0 });
    return;
  }
  const holder: Holder = { ctx, stats: emptyStats(), queues: new Map(), generation: 0 };
  hooked.set(ctx.state, holder);
  ctx.state.events.on((e) => onEvent(holder, e));
}

/** GET /__sandbox/deliveries: lets a test or a CI job wait until nothing is on its way, instead of sleeping. */
export function deliveryStats(state: SandboxState): DeliveryStats {
  const h = hooked.get(state);
  if (!h) return emptyStats();
  const lengths = [...h.queues.values()].map((q) => q.waiting.length);
  return { ...h.stats, queued: lengths.reduce((a, b) => a + b, 0), max_queued: Math.max(0, ...lengths) };
}

/** Resolves after ms on the sandbox's job timers (cancelled by a reset: then it never resolves). */
const wait = (ctx: HandlerContext, ms: number) => new Promise<void>((resolve) => ctx.schedule(resolve, ms));

function enqueue(h: Holder, job: Job): void {
  const key = `${job.who.id}|${job.who.key}`;
  let q = h.queues.get(key);
  if (!q) {
    q = { waiting: [], inFlight: 0 };
    h.queues.set(key, q);
  }
  if (q.waiting.length >= MAX_QUEUED_PER_WEBHOOK) {
    q.waiting.shift();
    h.stats.dropped++; h.stats.failed++; h.stats.outstanding--;
  }
  q.waiting.push(job);
  h.stats.outstanding++;
  pump(h, key, q);
}

function pump(h: Holder, key: string, q: Queue): void {
  const generation = h.generation;
  while (q.inFlight < MAX_IN_FLIGHT && q.waiting.length) {
    const job = q.waiting.shift()!;
    q.inFlight++;
    void deliver(h, job, generation).finally(() => {
      if (h.generation !== generation) return;
      q.inFlight--;
      h.stats.outstanding = Math.max(0, h.stats.outstanding - 1);
      if (!q.inFlight && !q.waiting.length) h.queues.delete(key);
      else pump(h, key, q);
    });
  }
}

export function matches(wh: Pick<Webhook, 'event_action' | 'event_object' | 'version'>, e: Pick<SandboxEvent, 'action' | 'object'>): boolean {
  // A version 1.0 webhook on '*' is not sent the objects only v2 knows.
  if (wh.version === '1.0' && isV2Only(String(e.object))) return false;
  return (wh.event_action === '*' || wh.event_action === e.action) && (wh.event_object === '*' || wh.event_object === e.object);
}

type Owned = { owner_id: number; visible_to: string | number };
const isOwned = (r: Record<string, unknown> | null): r is Record<string, unknown> & Owned => typeof r?.owner_id === 'number';

/**
 * The webhook's authorizing user must be able to access the object (a global admin sees all): an owned
 * record by its own visibility, and a record attached to items (a note on a lead, an activity on a deal)
 * by theirs, as the reads decide.
 */
export function userMaySee(state: SandboxState, user: User, e: SandboxEvent): boolean {
  if (user.is_admin || e.object === 'user') return true;
  const rec = e.data ?? e.previous;
  if (!rec) return true;
  return (!isOwned(rec) || canSee(state, user, rec)) && canSeeAttached(state, user, rec);
}

function onEvent(h: Holder, e: SandboxEvent): void {
  const { ctx } = h;
  const { state } = ctx;
  const correlationId = randomUUID();
  let permitted: number[] | undefined;
  for (const wh of webhooks(state).all()) {
    if (wh.is_active !== 1 || !matches(wh, e)) continue;
    const user = state.users.get(wh.user_id);
    if (!user?.active_flag || !userMaySee(state, user, e)) continue;
    permitted ??= state.users.filter((u) => u.active_flag && userMaySee(state, u, e)).map((u) => u.id);
    const info: DeliveryInfo = {
      attempt: 1, correlationId, eventId: randomUUID(), companyId: state.company.id, host: hostOf(ctx.baseUrl), permittedUserIds: permitted,
    };
    enqueue(h, { who: identity(wh), e, info });
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

/** One delivery with its retries; ends when it succeeded, failed for good, or its webhook is gone. */
async function deliver(h: Holder, job: Job, generation: number): Promise<void> {
  const { ctx } = h;
  const { who, e } = job;
  // Never inside the API request that caused the event: its response goes out first.
  await wait(ctx, 0);
  // A local emulator never sends an account's events off the machine: the create accepts any URL the
  // service would (a public host), but only loopback targets get deliveries; others fail at once, logged.
  // The URL is checked again (a name may resolve elsewhere than when the webhook was created): never the
  // sandbox itself, never a private or unspecified address.
  const target = current(ctx.state, who);
  const url = target ? new URL(target.subscription_url) : undefined;
  const refused = url && ((await unreachableReason(url, ctx.baseUrl)) ?? ((await onLoopback(url)) ? null : 'the sandbox delivers only to loopback'));
  if (url && refused) {
    if (h.generation !== generation) return;
    webhooks(ctx.state).update(who.id, { last_delivery_time: ctx.now().toISOString(), last_http_status: null });
    h.stats.failed++;
    ctx.log(`sandbox: webhook ${who.id}: not delivered to ${url.host} (${refused})`);
    return;
  }
  for (let n = 1; ; n++) {
    const wh = current(ctx.state, who);
    if (!wh || h.generation !== generation) return;
    const status = await post(wh, e, { ...job.info, attempt: n });
    if (!current(ctx.state, who) || h.generation !== generation) return;
    webhooks(ctx.state).update(who.id, { last_delivery_time: ctx.now().toISOString(), last_http_status: status });
    const delivered = status !== null && status >= 200 && status < 300;
    const delay = RETRY_DELAYS_MS[n - 1];
    if (delivered || delay === undefined) {
      h.stats[delivered ? 'delivered' : 'failed']++;
      ctx.schedule(() => undefined, 0); // persist the delivery status
      return;
    }
    await wait(ctx, delay);
  }
}

/** One POST; the answer's status, or null when none came (refused, reset, timeout). */
async function post(wh: Webhook, e: SandboxEvent, info: DeliveryInfo): Promise<number | null> {
  const body = wh.version === '1.0' ? payloadV1(wh, e, info) : payloadV2(wh, e, info);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'crmctl-sandbox-webhooks/1.0' };
  if (wh.http_auth_user !== null) {
    headers.authorization = `Basic ${Buffer.from(`${wh.http_auth_user}:${wh.http_auth_password ?? ''}`).toString('base64')}`;
  }
  try {
    // The URL must not redirect (interface): a 3xx is a failed delivery, never followed.
    const res = await fetch(wh.subscription_url, { method: 'POST', headers, body: JSON.stringify(body), redirect: 'manual', signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return null;
  }
}
