// Control endpoints under /__sandbox/ (a prefix the service never uses). No auth:
// the sandbox only listens on 127.0.0.1. These calls are not in the request log.
import { bulkInsert } from './control-bulk.js';
import { deliveryStats } from './handlers/webhooks/delivery.js';
import { parseForm } from './http/body.js';
import { issueTokenPair } from './oauth/tokens.js';
import type { SandboxHost } from './host.js';
import type { SeedName } from './store/state.js';
import type { FaultConfig, SandboxConfig } from './types.js';

interface Out { status: number; body: unknown; headers?: Record<string, string> }

const okk = (data: unknown): Out => ({ status: 200, body: { success: true, data } });
const bad = (error: string, status = 400): Out => ({ status, body: { success: false, error } });

export async function handleControl(s: SandboxHost, method: string, url: URL, raw: Buffer): Promise<Out> {
  const path = url.pathname.replace(/\/+$/, '');
  let body: Record<string, unknown> = {};
  if (raw.length) {
    const text = raw.toString('utf8');
    try { body = text.trim().startsWith('{') ? JSON.parse(text) as Record<string, unknown> : parseForm(text); } catch { return bad('body must be JSON'); }
  }
  const key = `${method} ${path}`;
  switch (key) {
    case 'POST /__sandbox/reset': {
      const seed = (body.seed ?? 'demo') as string;
      if (seed !== 'demo' && seed !== 'empty') return bad('seed must be demo or empty');
      reseed(s, seed);
      return okk({ seed });
    }
    case 'POST /__sandbox/seed': {
      const name = body.name as string;
      if (name !== 'demo' && name !== 'empty') return bad('name must be demo or empty');
      reseed(s, name);
      return okk({ seed: name });
    }
    case 'GET /__sandbox/clock':
      return okk({ now: new Date(s.state.now()).toISOString(), offset_ms: s.state.clockOffsetMs });
    case 'POST /__sandbox/clock': {
      // Moves the service's time forward: tokens expire, budget windows end, without anyone waiting.
      const sec = Number(body.advance_sec ?? 0);
      if (!Number.isFinite(sec) || sec < 0) return bad('advance_sec must be a number of seconds >= 0');
      s.state.clockOffsetMs += Math.round(sec * 1000);
      return okk({ now: new Date(s.state.now()).toISOString(), offset_ms: s.state.clockOffsetMs });
    }
    case 'GET /__sandbox/deliveries':
      return okk(deliveryStats(s.state));
    case 'GET /__sandbox/requests': {
      const since = Number(url.searchParams.get('since') ?? 0);
      return okk(s.requests.list().filter((r) => r.seq > since));
    }
    case 'DELETE /__sandbox/requests':
      s.requests.clear();
      return okk(true);
    case 'GET /__sandbox/faults':
      return okk(s.deps.faults.config);
    case 'PUT /__sandbox/faults':
      try { s.deps.faults.configure(body as FaultConfig); } catch (e) { return bad((e as Error).message); }
      return okk(s.deps.faults.config);
    case 'GET /__sandbox/config':
      return okk(s.deps.config);
    case 'PUT /__sandbox/config': {
      const err = applyConfig(s.deps.config, body);
      if (err) return bad(err);
      s.budget.resetWindow();
      return okk(s.deps.config);
    }
    case 'GET /__sandbox/budget':
      return okk(s.budget.daily(s.state.now()));
    case 'POST /__sandbox/budget': {
      // The daily token budget: its limit (kept in the config) and what today has spent so far.
      const err = setDaily(s, body);
      return err ? bad(err) : okk(s.budget.daily(s.state.now()));
    }
    case 'POST /__sandbox/tokens': {
      const userId = Number(body.user_id ?? s.state.adminUserId());
      if (!s.state.users.get(userId)) return bad(`user_id: user ${userId} does not exist`);
      const scopes = Array.isArray(body.scopes) ? body.scopes.map(String)
        : typeof body.scopes === 'string' ? body.scopes.split(',').filter(Boolean) : s.primaryClient.scopes;
      const lifetime = Number(body.lifetime_sec ?? s.deps.config.tokenLifetimeSec);
      const clientId = typeof body.client_id === 'string' ? body.client_id : s.primaryClient.clientId;
      const t = issueTokenPair(s.state, { clientId, userId, scopes, lifetimeSec: lifetime });
      return okk({ access_token: t.access_token, refresh_token: t.refresh_token, token_type: 'Bearer', expires_in: t.expires_in, scope: t.scope, api_domain: s.baseUrl });
    }
    case 'POST /__sandbox/bulk': {
      const r = bulkInsert(s.state, body);
      return typeof r === 'string' ? bad(r) : okk(r);
    }
    case 'GET /__sandbox/info':
      return okk(info(s));
    case 'GET /__sandbox/state':
      return okk(s.state.collectionNames());
    case 'GET /__sandbox/events':
      return okk(s.state.events.recent);
    case 'GET /__sandbox/routes':
      return okk(s.router.all().map((r) => ({ method: r.method, path: r.path, cost: r.cost, scopes: r.scopes })));
  }
  const m = /^\/__sandbox\/state\/([A-Za-z0-9_-]+)$/.exec(path);
  if (m && method === 'GET') {
    const name = m[1]!;
    if (name === 'company') return okk(s.state.company);
    if (!s.state.collectionNames().includes(name)) return bad(`no collection ${name}`, 404);
    const c = s.state.collection(name);
    return { status: 200, body: { success: true, data: c.all(), deleted: c.allWithDeleted().filter((r) => c.isDeleted(r.id)) } };
  }
  return bad(`unknown control endpoint ${method} ${path}`, 404);
}

/** Reseed while keeping issued OAuth tokens, so a logged-in CLI survives a data reset. */
function reseed(s: SandboxHost, name: SeedName): void {
  const tokens = s.state.oauthTokens.toJSON();
  s.state.seed(name);
  s.state.oauthTokens.load(tokens);
  s.state.markDirty();
  s.budget.reset();
  s.restartJobs();
}

function info(s: SandboxHost) {
  const tokens = new Map(s.state.apiTokens.all().map((t) => [t.user_id, t.id]));
  return {
    url: s.baseUrl,
    client_id: s.primaryClient.clientId,
    redirect_uris: s.primaryClient.redirectUris,
    scopes: s.primaryClient.scopes,
    auto_approve: s.deps.autoApprove,
    data_file: s.deps.dataFile ?? null,
    company: s.state.company,
    users: s.state.users.all().map((u) => ({ id: u.id, name: u.name, email: u.email, is_admin: u.is_admin, api_token: tokens.get(u.id) ?? null })),
    config: s.deps.config,
  };
}

function applyConfig(cfg: SandboxConfig, b: Record<string, unknown>): string | null {
  const next = structuredClone(cfg);
  if (b.budget !== undefined) {
    const bb = b.budget as Record<string, unknown>;
    const limit = bb?.limit ?? next.budget.limit, windowSec = bb?.windowSec ?? next.budget.windowSec;
    if (typeof limit !== 'number' || limit < 0) return 'budget.limit must be a number >= 0';
    if (typeof windowSec !== 'number' || windowSec <= 0) return 'budget.windowSec must be a number > 0';
    next.budget = { ...next.budget, limit, windowSec };
  }
  for (const k of ['tokenLifetimeSec', 'conversionDelayMs'] as const) {
    if (b[k] !== undefined) {
      if (typeof b[k] !== 'number' || (b[k] as number) < 0) return `${k} must be a number >= 0`;
      next[k] = b[k] as number;
    }
  }
  Object.assign(cfg, next);
  return null;
}

function setDaily(s: SandboxHost, b: Record<string, unknown>): string | null {
  const { daily_limit: limit, daily_used: used } = b;
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0)) return 'daily_limit must be an integer >= 0';
  if (used !== undefined && (typeof used !== 'number' || !Number.isInteger(used) || used < 0)) return 'daily_used must be an integer >= 0';
  if (limit !== undefined) s.deps.config.budget = { ...s.deps.config.budget, dailyLimit: limit };
  if (used !== undefined) s.budget.setDailyUsed(used, s.state.now());
  return null;
}
