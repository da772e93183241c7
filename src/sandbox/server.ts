// The HTTP server: routes each request to control endpoints (/__sandbox/),
// OAuth pages (/oauth/) or the emulated API, and applies the cross-cutting API
// rules in the service's order: route -> auth -> budget -> scope -> handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { authenticate, authKind } from './api-auth.js';
import { Budget } from './budget.js';
import { handleControl } from './control.js';
import type { SandboxHost, ServerDeps } from './host.js';
import { parseBody, readBody } from './http/body.js';
import { ApiError, forbidden, INFO, unknownRoute } from './http/errors.js';
import { Query } from './http/query.js';
import { Router } from './http/router.js';
import { handleOAuth } from './oauth/routes.js';
import { RequestLog } from './request-log.js';
import { saveState } from './store/persist.js';
import type { SandboxState } from './store/state.js';
import type {
  HandlerContext, OAuthClient, SandboxRequest, SandboxResponse,
} from './types.js';

export type { ServerDeps } from './host.js';

export class SandboxServer implements SandboxHost {
  readonly router = new Router();
  readonly budget: Budget;
  readonly requests = new RequestLog();
  readonly http: Server;
  baseUrl = '';
  private timers = new Set<NodeJS.Timeout>();
  readonly ctx: HandlerContext;

  constructor(readonly deps: ServerDeps) {
    for (const a of deps.areas) for (const r of a.routes) this.router.add(r);
    this.budget = new Budget(() => deps.config.budget);
    const self = this;
    this.ctx = {
      state: deps.state,
      config: deps.config,
      get baseUrl() { return self.baseUrl; },
      now: () => new Date(deps.state.now()),
      schedule: (fn, ms) => this.schedule(fn, ms),
      log: deps.log,
    };
    this.http = createServer((req, res) => { void this.handle(req, res); });
    // Connections are kept between requests, as the service's are. Node's client keeps a socket only for
    // the server's hint minus one second, so a 1 s timeout made every request a new connection (an import
    // of 1,000 rows opened 1,000); stop() closes every connection, so this holds nothing up.
    this.http.keepAliveTimeout = 5000;
  }

  get state(): SandboxState { return this.deps.state; }
  get primaryClient(): OAuthClient { return this.deps.clients[0]!; }

  /** Persist when anything changed (called after every request and job). */
  persist(): void {
    if (this.deps.dataFile && this.deps.state.isDirty()) saveState(this.deps.dataFile, this.deps.state);
  }

  private flushing: Promise<void> | undefined;

  /**
   * Group commit: every request that changed state waits for one atomic write that covers all the
   * requests handled in the same turn of the event loop, so an answer is only sent once its write is
   * on disk, but concurrent clients share the cost of the write (16 clients: one fsync, not 16).
   */
  persistSoon(): Promise<void> {
    if (!this.deps.dataFile || !this.deps.state.isDirty()) return Promise.resolve();
    this.flushing ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.flushing = undefined;
        try {
          this.persist();
        } catch (e) {
          this.deps.log(`sandbox: could not persist state: ${String(e)}`);
        }
        resolve();
      }),
    );
    return this.flushing;
  }

  schedule(fn: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      try { fn(); } catch (e) { this.deps.log(`sandbox job failed: ${String(e)}`); }
      this.persist();
    }, Math.max(0, ms));
    t.unref();
    this.timers.add(t);
  }

  /** Cancel pending jobs (on reset/close) and let areas resume from the current state. */
  restartJobs(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const a of this.deps.areas) a.onStart?.(this.ctx);
  }

  stopJobs(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      if (url.pathname.startsWith('/__sandbox/')) {
        const body = await readBody(req);
        const out = await handleControl(this, req.method ?? 'GET', url, body);
        this.persist();
        send(res, out.status, out.body, out.headers);
        return;
      }
      if (url.pathname.startsWith('/oauth/')) {
        await handleOAuth(this, req, res, url);
        this.persist();
        return;
      }
      await this.handleApi(req, res, url);
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError(500, 'Internal server error', String(e));
      if (!(e instanceof ApiError)) this.deps.log(`sandbox error: ${String((e as Error)?.stack ?? e)}`);
      if (!res.headersSent) send(res, err.status, err.body(), err.headers);
    }
  }

  private async handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const started = Date.now();
    const requestId = randomUUID();
    const method = (req.method ?? 'GET').toUpperCase();
    const query = new Query(url.searchParams);
    let status = 500, cost = 0, userId: number | null = null, parsed: unknown, fault: string | undefined;
    const headers: Record<string, string> = { 'x-request-id': requestId };
    const finish = (r: SandboxResponse) => {
      status = r.status;
      send(res, r.status, r.body, { ...headers, ...r.headers });
    };
    const logIt = () => this.requests.add({
      time: new Date(started).toISOString(), request_id: requestId, method, path: url.pathname, query: query.toObject(),
      body: parsed, status, user_id: userId, cost, auth: authKind(req.headers), duration_ms: Date.now() - started,
      ...(fault ? { fault } : {}),
    });

    try {
      const raw = await readBody(req);
      const match = this.router.match(method, url.pathname);
      // Best-effort parse for the log even when the route is unknown.
      // A file upload is logged by its size and form fields, not its bytes.
      if (/^multipart\/form-data/i.test(String(req.headers['content-type'] ?? ''))) parsed = { multipart_bytes: raw.length };
      else try { parsed = raw.length ? parseBody(raw, req.headers['content-type'], 'json-or-form') : undefined; } catch { parsed = raw.toString('utf8'); }

      const decision = this.deps.faults.decide();
      if (decision.latencyMs > 0) await sleep(decision.latencyMs);
      if (decision.kind === 'reset-before') { fault = 'reset-before'; status = 0; req.socket.destroy(); return; }
      if (decision.kind === '5xx') {
        fault = '5xx';
        Object.assign(headers, this.budget.peek(this.deps.state.now()));
        return finish({ status: decision.status, body: { success: false, error: statusText(decision.status), error_info: INFO, data: null, additional_data: null } });
      }
      if (decision.kind === '429') {
        fault = '429';
        Object.assign(headers, this.budget.peek(this.deps.state.now()), { 'retry-after': '1' });
        return finish(tooMany());
      }

      if (!match) throw unknownRoute(method, url.pathname);
      const caller = authenticate(req.headers, this.deps.state, this.primaryClient.clientId);
      userId = caller.user.id;

      const charge = this.budget.charge(match.def.cost, this.deps.state.now());
      Object.assign(headers, charge.headers);
      if (!charge.allowed) {
        headers['retry-after'] = String(charge.retryAfterSec);
        return finish(charge.refusedBy === 'daily' ? dailySpent() : tooMany());
      }
      cost = match.def.cost;

      if (caller.scopes && !match.def.scopes.some((s) => caller.scopes!.includes(s))) {
        throw forbidden('You do not have permissions to do this.',
          `${INFO} Missing OAuth scope: this operation needs one of: ${match.def.scopes.join(', ')}.`);
      }

      const body = parseBody(raw, req.headers['content-type'], match.def.body ?? (match.template.includes('/v1/') ? 'json-or-form' : 'json'));
      const sreq: SandboxRequest = {
        method, path: url.pathname, route: match.template, params: match.params, query, body,
        headers: req.headers, user: caller.user, userId: caller.user.id, scopes: caller.scopes, requestId,
      };
      const out = await match.def.handler(sreq, this.ctx);
      await this.persistSoon();
      if (decision.kind === 'reset-after') { fault = 'reset-after'; status = out.status; req.socket.destroy(); return; }
      finish(out);
    } catch (e) {
      if (!(e instanceof ApiError)) this.deps.log(`sandbox handler error: ${String((e as Error)?.stack ?? e)}`);
      const err = e instanceof ApiError ? e : new ApiError(500, 'Internal server error', INFO);
      if (!headers['x-ratelimit-limit']) Object.assign(headers, this.budget.peek(this.deps.state.now()));
      // Writes that happened before a failure are still persisted (the service has no transactions across steps either).
      await this.persistSoon();
      finish({ status: err.status, body: err.body(), headers: err.headers });
    } finally {
      logIt();
    }
  }
}

function tooMany(): SandboxResponse {
  return {
    status: 429,
    body: { success: false, error: 'Request over limit', error_info: 'The cost budget of this window is used up; retry after the number of seconds in Retry-After.', data: null, additional_data: null },
  };
}

/**
 * The day's token budget is spent: every request is refused until midnight (api-facts §5). The body's
 * wording is the sandbox's (the service's is not documented); Retry-After counts the seconds to midnight UTC.
 */
function dailySpent(): SandboxResponse {
  return {
    status: 429,
    body: { success: false, error: 'Request over limit', error_info: 'The company\'s daily token budget is used up; every request is refused until it resets at midnight (UTC). Retry-After gives the seconds until then.', data: null, additional_data: null },
  };
}

function statusText(s: number): string {
  return s === 502 ? 'Bad Gateway' : s === 503 ? 'Service Unavailable' : 'Gateway Timeout';
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // File downloads answer with the bytes themselves (the handler sets content-type and disposition).
  if (Buffer.isBuffer(body)) {
    res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': String(body.length), ...headers });
    res.end(body);
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
