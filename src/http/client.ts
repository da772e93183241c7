import { AmbiguousWriteError, CliError, DailyBudgetError, NetworkError } from '../core/errors.js';
import { backoffDelay, retryAfterMs } from './backoff.js';
import { realClock, type Clock } from './clock.js';
import { dailyBudgetOf, describeReset, inWords, nextResetAt, tokens, type DailyBudget } from './daily-budget.js';
import { CostGovernor } from './governor.js';
import { multipartBody, type StreamBody } from './multipart.js';
import { toApiError } from './map-error.js';
import { redactHeaders, redactText, redactUrlEncoded, redactValue } from '../core/redact.js';
import { requestUrl } from './request-target.js';
import type { Transport } from './transport.js';
import type { HttpPort } from '../core/http-port.js';
import type { CredentialSource, HttpRequest, HttpResponse } from './types.js';

export interface HttpClientOptions {
  credentials: CredentialSource;
  /** Debug trace sink (stderr) or undefined. */
  trace?: (line: string) => void;
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  userAgent?: string;
  timeoutMs?: number;
  /** The wire: node:http by default, undici for long bulk runs (see createTransport). */
  transport?: Transport;
  /** Time, sleeps and jitter (a fake one in tests). */
  clock?: Clock;
  /**
   * The longest wait crmctl sits through when the service asks for one (Retry-After, x-ratelimit-reset);
   * a 429 asking for more is taken as the day's budget spent (default 60 s, CRMCTL_MAX_RETRY_WAIT).
   */
  maxWaitMs?: number;
  /**
   * One whole line on stderr: a wait the service asked for that is long enough to notice, or a request's
   * `notice` (a deprecated v1 endpoint, once per run and text).
   */
  notice?: (line: string) => void;
}

/** Waits shorter than this pass without a word (the burst window asks for a second or two). */
const NOTICE_AT_MS = 5_000;

const RETRY_STATUS = new Set([429, 502, 503, 504]);
/** Errors that happen before a byte was sent: always safe to retry. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);
/** Errors after the request may have reached the service. */
const MAYBE_SENT = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * The one HTTP path of the CLI: auth headers, refresh once on 401, retries with jittered backoff on
 * 429/5xx and resets (never a blind resend of a create), pacing to the cost budget, redacted traces.
 */
export class HttpClient implements HttpPort {
  readonly governor: CostGovernor;
  private readonly clock: Clock;
  /** The daily token budget as the last answer that carried it reported it (this run only). */
  daily: DailyBudget | undefined;
  private dailyWaiters: Array<(d: DailyBudget) => void> = [];
  /** Service clock minus ours, from the last answer's Date header (1 s resolution); undefined until known. */
  clockOffsetMs: number | undefined;
  private readonly transport: Transport;
  private readonly opts: Required<Omit<HttpClientOptions, 'trace' | 'transport' | 'clock' | 'notice'>> & Pick<HttpClientOptions, 'trace' | 'notice'>;
  /** Notices already said this run. */
  private readonly said = new Set<string>();

  constructor(opts: HttpClientOptions) {
    this.opts = {
      maxRetries: 5,
      baseDelayMs: 300,
      maxDelayMs: 10_000,
      userAgent: 'crmctl',
      timeoutMs: 60_000,
      maxWaitMs: 60_000,
      ...opts,
    };
    if (!opts.transport) throw new Error('HttpClient needs a transport (see src/http/create-transport.ts)');
    this.transport = opts.transport;
    this.clock = opts.clock ?? realClock;
    this.governor = new CostGovernor(this.clock);
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    if (req.notice && !this.said.has(req.notice)) {
      this.said.add(req.notice);
      this.opts.notice?.(`notice: ${req.notice}`);
    }
    let refreshed = false;
    let attempt = 0;
    for (;;) {
      // A day seen spent stays spent until its reset: every request would only collect another 429.
      if (this.daily?.remaining === 0 && this.serviceNow() < nextResetAt(this.daily.seenAt + (this.clockOffsetMs ?? 0))) throw this.dailySpent(req);
      const creds = await this.opts.credentials.get();
      const release = await this.governor.acquire(req.cost ?? null);
      let res: HttpResponse;
      try {
        res = await this.once(creds.baseUrl, creds.headers, req);
      } catch (err) {
        release();
        // A download's target refused (exists, not writable): the caller's error, not the network's.
        if (err instanceof CliError) throw err;
        const code = errorCode(err);
        const maybeSent = !NOT_SENT.has(code);
        if (!NOT_SENT.has(code) && !MAYBE_SENT.has(code)) throw this.networkError(err, req, creds.baseUrl);
        if (maybeSent && !req.idempotent) {
          const settled = await this.reconcile(req, `connection ${code}`);
          if (settled) return settled;
        }
        if (attempt >= this.opts.maxRetries) throw this.networkError(err, req, creds.baseUrl);
        await this.wait(attempt++, undefined, `${code}`, req);
        continue;
      }
      release();
      this.governor.observe(res.headers);
      const date = Date.parse(String(first(res.headers.date) ?? ''));
      if (!Number.isNaN(date)) this.clockOffsetMs = date - this.clock.now();
      this.daily = dailyBudgetOf(res.headers, this.clock.now()) ?? this.daily;
      if (this.daily && this.dailyWaiters.length) for (const fn of this.dailyWaiters.splice(0)) fn(this.daily);
      // The daily budget, not the burst window, refused: it resets at midnight, so no backoff.
      if (res.status === 429 && dailyBudgetOf(res.headers, 0)?.remaining === 0) {
        await req.onErrorResponse?.(res);
        throw this.dailySpent(req);
      }

      if (res.status === 401 && !refreshed) {
        refreshed = true;
        if (await this.opts.credentials.refreshAfter401()) continue;
      }
      if (RETRY_STATUS.has(res.status)) {
        // A 429 is refused before any work; a gateway error may hide a committed write.
        if (res.status !== 429 && !req.idempotent) {
          const settled = await this.reconcile(req, `status ${res.status}`);
          if (settled) return settled;
        }
        const asked = askedWaitMs(res, this.serviceNow());
        // A 429 asking for hours is the daily budget without its headers (they can be missing): stop, as for a spent day.
        if (asked !== undefined && asked > this.opts.maxWaitMs) {
          if (res.status === 429) {
            await req.onErrorResponse?.(res);
            throw this.waitTooLong(req, asked);
          }
        } else if (attempt < this.opts.maxRetries) {
          await this.wait(attempt++, res, `status ${res.status}`, req);
          continue;
        }
      }
      // A 3xx is never followed (the token would go wherever Location says) and is not a success.
      if (res.status >= 300) {
        await req.onErrorResponse?.(res);
        throw toApiError(res, { method: req.method, path: req.path, scopes: req.scopes, grantedScopes: creds.scopes, loginHint: this.opts.credentials.loginHint?.() });
      }
      return res;
    }
  }

  /**
   * Forgets a day seen spent, so the next request is sent and its answer believed. A one-shot command
   * stops at the first spent answer; a long-lived server (crmctl mcp) calls this before each call,
   * because the limit can be raised mid-day (a purchased top-up) and midnight on our clock is a guess.
   */
  recheckDaily(): void {
    if (this.daily?.remaining === 0) this.daily = undefined;
  }

  /** Calls `fn` with the daily budget as soon as it is known (at once when it is). */
  whenDailyKnown(fn: (d: DailyBudget) => void): void {
    if (this.daily) fn(this.daily);
    else this.dailyWaiters.push(fn);
  }

  /** Now on the service's clock (its Date header), which decides its midnight. */
  serviceNow(): number {
    return this.clock.now() + (this.clockOffsetMs ?? 0);
  }

  private waitTooLong(req: HttpRequest, askedMs: number): DailyBudgetError {
    const until = this.serviceNow() + askedMs;
    return new DailyBudgetError(
      `The service refused ${req.method} ${req.path} (429) and asked to wait ${inWords(askedMs, true)}, longer than crmctl waits (${inWords(this.opts.maxWaitMs, true)}): taken as the daily budget spent. Try again after ${utcClock(until)} UTC (service time).`,
      until,
      'crmctl stops instead of sleeping that long. Run the command again after that time (`crmctl budget` shows what is left), or set CRMCTL_MAX_RETRY_WAIT (seconds) to wait longer.',
    );
  }

  private dailySpent(req: HttpRequest): DailyBudgetError {
    const now = this.serviceNow();
    const of = this.daily ? ` (0 of ${tokens(this.daily.limit)} tokens left)` : '';
    return new DailyBudgetError(`The daily budget is spent${of}; ${req.method} ${req.path} was refused. It resets at ${describeReset(now)}.`, nextResetAt(now));
  }

  /** Asks the caller whether an ambiguous write landed; without a way to know, stop rather than duplicate. */
  private async reconcile(req: HttpRequest, why: string): Promise<HttpResponse | undefined> {
    if (!req.reconcile) {
      throw new AmbiguousWriteError(`${req.method} ${req.path} failed with ${why} after it may have reached the service; not resent to avoid a duplicate.`);
    }
    const existing = await req.reconcile();
    this.trace(`~ reconcile ${req.method} ${req.path} after ${why}: ${existing ? 'already applied' : 'not applied, resending'}`);
    return existing;
  }

  private async wait(attempt: number, res: HttpResponse | undefined, why: string, req: Pick<HttpRequest, 'method' | 'path'>): Promise<void> {
    let ms = backoffDelay(attempt, this.opts.baseDelayMs, this.opts.maxDelayMs, () => this.clock.random());
    const asked = res ? askedWaitMs(res, this.serviceNow()) : undefined;
    // Retry-After is jittered a little, so clients told the same second do not all come back at once.
    if (asked !== undefined) ms = Math.max(ms, asked) + (retryAfterMs(res!.headers['retry-after']) !== undefined ? Math.round(this.clock.random() * 100) : 0);
    this.trace(`~ retry #${attempt + 1} in ${ms} ms (${why})`);
    // A long wait the service asked for is never silent: the run would look hung. Service time, as the service counts.
    if (res && asked !== undefined && ms >= NOTICE_AT_MS) this.opts.notice?.(`crmctl: the service answered ${res.status} to ${req.method} ${req.path}; waiting ${inWords(ms, true)}, until ${utcClock(this.serviceNow() + ms)} UTC (service time), then retrying`);
    await this.clock.sleep(ms);
  }

  private async once(baseUrl: string, authHeaders: Record<string, string>, req: HttpRequest): Promise<HttpResponse> {
    const url = buildUrl(baseUrl, req.path, req.query);
    const headers: Record<string, string> = { 'user-agent': this.opts.userAgent, accept: 'application/json', ...authHeaders, ...req.headers };
    let body: string | StreamBody | undefined;
    if (req.upload) {
      body = multipartBody((req.body ?? {}) as Record<string, unknown>, req.upload);
    } else if (req.body !== undefined && req.method !== 'GET') {
      if (req.encoding === 'form') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = formEncode(req.body as Record<string, unknown>);
      } else {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(req.body);
      }
    }
    const started = this.clock.now();
    if (this.opts.trace) {
      this.trace(`> ${req.method} ${redactUrlEncoded(url)}`);
      for (const [k, v] of Object.entries(redactHeaders(headers))) this.trace(`> ${k}: ${String(v)}`);
      if (typeof body === 'object') this.trace(`> multipart ${JSON.stringify(redactValue(req.body ?? {}))} + ${req.upload!.field}=${req.upload!.filename} (${req.upload!.size} bytes, ${req.upload!.contentType})`);
      else if (body !== undefined) this.trace(`> ${req.encoding === 'form' ? redactUrlEncoded(body) : JSON.stringify(redactValue(JSON.parse(body)))}`);
    }
    if (req.sink) headers.accept = '*/*';
    const res = await this.transport.request(url, { method: req.method, headers, body, timeoutMs: this.opts.timeoutMs, ...(req.sink ? { sink: req.sink } : {}) });
    const text = res.text;
    let parsed: unknown = text;
    const type = String(res.headers['content-type'] ?? '');
    if (text && (type.includes('json') || /^[[{]/.test(text.trimStart()))) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    } else if (!text) parsed = undefined;
    if (this.opts.trace) {
      this.trace(`< ${res.status} (${this.clock.now() - started} ms)`);
      for (const [k, v] of Object.entries(redactHeaders(res.headers as Record<string, unknown>))) {
        if (/^(x-|retry-after|content-type|date)/i.test(k)) this.trace(`< ${k}: ${String(v)}`);
      }
      // Redacted before it is cut short: a secret across the cut would otherwise leave its first half.
      const shown = redactText(typeof parsed === 'string' ? parsed : JSON.stringify(redactValue(parsed)), this.opts.credentials.secrets());
      if (shown) this.trace(`< ${shown.length > 2000 ? `${shown.slice(0, 2000)}… (${shown.length} chars)` : shown}`);
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  private trace(line: string): void {
    this.opts.trace?.(redactText(line, this.opts.credentials.secrets()));
  }

  private networkError(err: unknown, req: HttpRequest, baseUrl: string): CliError {
    const code = errorCode(err);
    const msg = err instanceof Error ? err.message : String(err);
    const hint =
      code === 'ECONNREFUSED'
        ? `Nothing answers at ${baseUrl}. If this profile points at the sandbox, start it with \`crmctl sandbox start\`.`
        : 'Check the network and the profile\'s API domain (`crmctl auth status`).';
    return new NetworkError(`Could not reach the service for ${req.method} ${req.path}: ${code || msg}.`, hint);
  }
}

export function buildUrl(baseUrl: string, path: string, query?: HttpRequest['query']): string {
  // Never `new URL(path, base)`: `//host/x` would be resolved as another host, and the token sent there.
  const url = requestUrl(baseUrl, path);
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === undefined) continue;
    url.searchParams.set(k, v === null ? 'null' : Array.isArray(v) ? v.join(',') : String(v));
  }
  return url.toString();
}

function formEncode(body: Record<string, unknown>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    p.set(k, v === null ? '' : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return p.toString();
}

function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code ?? '';
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/**
 * How long the answer asks us to wait before retrying: Retry-After, or a 429's window reset; undefined
 * when it does not say. `serviceNow` reads a Retry-After date on the service's clock, which wrote it.
 */
function askedWaitMs(res: HttpResponse, serviceNow: number): number | undefined {
  const after = retryAfterMs(res.headers['retry-after'], serviceNow);
  if (after !== undefined) return after;
  const reset = Number(first(res.headers['x-ratelimit-reset']));
  return res.status === 429 && Number.isFinite(reset) ? reset * 1000 : undefined;
}

/** "14:05:30" of an epoch time, UTC. */
function utcClock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}
