// The HTTP client's branches with a scripted transport and a fake clock: nothing goes on the wire and
// no test waits for real. Each case says what reached the "service", how long the client would have
// waited, and what it returned or threw.
import { describe, expect, it } from 'vitest';
import { AmbiguousWriteError, ApiError, AuthError, CliError, NotFoundError, RateLimitError } from '../../src/core/errors.js';
import { HttpClient, buildUrl } from '../../src/http/client.js';
import type { Clock } from '../../src/http/clock.js';
import type { Transport, TransportRequest, TransportResponse } from '../../src/http/transport.js';
import type { CredentialSource, HttpRequest, HttpResponse } from '../../src/http/types.js';

type Step = Partial<TransportResponse> | { error: string };

/** Answers requests from a script, one step per request; records what was sent. */
function scripted(steps: Step[]) {
  const sent: Array<{ url: string; init: TransportRequest }> = [];
  const transport: Transport = {
    async request(url, init) {
      sent.push({ url, init });
      const step = steps.shift();
      if (!step) throw new Error(`unexpected request ${init.method} ${url}`);
      if ('error' in step) throw Object.assign(new Error(step.error), { code: step.error });
      return { status: 200, headers: {}, text: '', ...step };
    },
    close: async () => undefined,
  };
  return { transport, sent, left: () => steps.length };
}

/** Time moves only when the client sleeps; jitter is fixed. */
function fakeClock(start = 1_700_000_000_000, random = 0.5): Clock & { slept: number[] } {
  let t = start;
  const slept: number[] = [];
  return { slept, now: () => t, random: () => random, sleep: async (ms) => { slept.push(ms); t += ms; } };
}

function creds(o: { refresh?: boolean } = {}): CredentialSource & { refreshes: number; token: string } {
  const c = {
    refreshes: 0,
    token: 'first-token-abcdef',
    async get() { return { baseUrl: 'https://api.example.test', headers: { authorization: `Bearer ${c.token}` }, scopes: ['leads:read'] }; },
    async refreshAfter401() { c.refreshes++; if (!o.refresh) return false; c.token = 'second-token-abcdef'; return true; },
    secrets: () => [c.token, 'first-token-abcdef'],
    loginHint: () => 'crmctl auth login --profile test',
  };
  return c;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Step => ({ status, text: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
const GET: HttpRequest = { method: 'GET', path: '/api/v1/leads', idempotent: true, cost: 20, scopes: ['leads:read'] };
const POST: HttpRequest = { method: 'POST', path: '/api/v1/leads', idempotent: false, cost: 10, body: { title: 'x' } };

function client(steps: Step[], o: { refresh?: boolean; maxRetries?: number; trace?: string[] } = {}) {
  const wire = scripted(steps);
  const clock = fakeClock();
  const credentials = creds(o);
  const http = new HttpClient({ credentials, transport: wire.transport, clock, maxRetries: o.maxRetries ?? 3, baseDelayMs: 100, maxDelayMs: 5000, trace: o.trace ? (l) => o.trace!.push(l) : undefined, userAgent: 'crmctl/test' });
  return { http, wire, clock, credentials };
}

describe('HttpClient', () => {
  it('sends auth, user agent and JSON body; parses a JSON answer; learns the service clock from Date', async () => {
    const { http, wire, clock } = client([json(201, { success: true, data: { id: 'a' } }, { date: new Date(1_700_000_005_000).toUTCString() })]);
    const res = await http.send(POST);
    expect(res).toMatchObject({ status: 201, body: { success: true, data: { id: 'a' } } });
    expect(wire.sent[0]).toMatchObject({ url: 'https://api.example.test/api/v1/leads', init: { method: 'POST', body: '{"title":"x"}', headers: { authorization: 'Bearer first-token-abcdef', 'user-agent': 'crmctl/test', 'content-type': 'application/json' } } });
    expect(http.clockOffsetMs).toBe(5_000);
    expect(clock.slept).toEqual([]);
  });

  it('form bodies are urlencoded, booleans as 1/0 and null as empty', async () => {
    const { http, wire } = client([json(200, { success: true })]);
    await http.send({ method: 'PUT', path: '/api/v1/mailbox/mailThreads/1', idempotent: true, encoding: 'form', body: { read_flag: true, deal_id: null, lead_id: undefined } });
    expect(wire.sent[0]!.init).toMatchObject({ body: 'read_flag=1&deal_id=', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  });

  it('401: refreshes once and repeats the request with the new token', async () => {
    const { http, wire, credentials } = client([json(401, { success: false, error: 'unauthorized access' }), json(200, { success: true, data: [] })], { refresh: true });
    await expect(http.send(GET)).resolves.toMatchObject({ status: 200 });
    expect(credentials.refreshes).toBe(1);
    expect(wire.sent.map((s) => s.init.headers.authorization)).toEqual(['Bearer first-token-abcdef', 'Bearer second-token-abcdef']);
  });

  it('401 twice: one refresh only, then an AuthError with the profile\'s login hint (exit 4)', async () => {
    const { http, credentials } = client([json(401, { error: 'unauthorized access' }), json(401, { error: 'unauthorized access' })], { refresh: true });
    const err = await http.send(GET).catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err).toMatchObject({ exitCode: 4, hint: 'crmctl auth login --profile test', message: 'The service refused the credentials (401): unauthorized access.' });
    expect(credentials.refreshes).toBe(1);
  });

  it('403 names the scopes the operation needs and the token has', async () => {
    const { http } = client([json(403, { error: 'Scope missing' })]);
    await expect(http.send({ ...GET, scopes: ['admin'] })).rejects.toMatchObject({ exitCode: 4, message: 'Permission denied (403) for GET /api/v1/leads: Scope missing. This operation needs one of the scopes: admin. The token has: leads:read.' });
  });

  it('404 is exit 5; 400 is exit 2 with the service\'s words', async () => {
    const a = client([json(404, { error: 'requested lead not found' })]);
    await expect(a.http.send(GET)).rejects.toBeInstanceOf(NotFoundError);
    const b = client([json(400, { error: 'title: is required', error_info: 'Validation failed.' })]);
    await expect(b.http.send(POST)).rejects.toMatchObject({ exitCode: 2, status: 400, hint: 'Validation failed.' });
  });

  it('429 with Retry-After waits at least that long (plus jitter), then succeeds', async () => {
    const { http, clock, wire } = client([json(429, { error: 'Too many' }, { 'retry-after': '2' }), json(200, { success: true })]);
    await http.send(GET);
    expect(wire.sent).toHaveLength(2);
    // backoff ceiling 100 ms * 2^0, jitter 0.5 → 50; Retry-After 2000 wins, + 0.5 * 100 ms.
    expect(clock.slept).toEqual([2050]);
  });

  it('429 without Retry-After waits for x-ratelimit-reset', async () => {
    const { http, clock } = client([json(429, {}, { 'x-ratelimit-reset': '3', 'x-ratelimit-remaining': '0' }), json(200, { success: true })]);
    await http.send(GET);
    expect(clock.slept).toEqual([3000]);
  });

  it('429 on every try: RateLimitError (exit 6) after maxRetries waits with growing backoff', async () => {
    const { http, clock, wire } = client([json(429, {}), json(429, {}), json(429, {})], { maxRetries: 2 });
    const err = await http.send(GET).catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.exitCode).toBe(6);
    expect(wire.sent).toHaveLength(3);
    expect(clock.slept).toEqual([50, 100]);
  });

  it('a read retries 502/503/504 and gives the last answer as an error', async () => {
    const { http, wire } = client([json(502, {}), json(503, {}), json(504, { error: 'gateway' })], { maxRetries: 2 });
    const err = await http.send(GET).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 504, exitCode: 1, message: 'The service answered 504 for GET /api/v1/leads: gateway.' });
    expect(wire.sent).toHaveLength(3);
  });

  it('a create after a 502 without a way to check is not resent (AmbiguousWriteError)', async () => {
    const { http, wire } = client([json(502, {})]);
    const err = await http.send(POST).catch((e) => e);
    expect(err).toBeInstanceOf(AmbiguousWriteError);
    expect(err.message).toBe('POST /api/v1/leads failed with status 502 after it may have reached the service; not resent to avoid a duplicate.');
    expect(wire.sent).toHaveLength(1);
  });

  it('a create after a reset asks the reconciler: found → its answer, no resend', async () => {
    const found: HttpResponse = { status: 201, headers: {}, body: { data: { id: 'found' } } };
    const { http, wire, clock } = client([{ error: 'ECONNRESET' }]);
    let asked = 0;
    const res = await http.send({ ...POST, reconcile: async () => { asked++; return found; } });
    expect(res).toBe(found);
    expect(asked).toBe(1);
    expect(wire.sent).toHaveLength(1);
    expect(clock.slept).toEqual([]);
  });

  it('a create after a reset, not found by the reconciler → resent after a backoff', async () => {
    const { http, wire, clock } = client([{ error: 'ECONNRESET' }, json(201, { data: { id: 'new' } })]);
    const res = await http.send({ ...POST, reconcile: async () => undefined });
    expect(res.status).toBe(201);
    expect(wire.sent).toHaveLength(2);
    expect(clock.slept).toEqual([50]);
  });

  it('a refused connection was never sent: a create is retried without asking the reconciler', async () => {
    const { http, wire } = client([{ error: 'ECONNREFUSED' }, json(201, { data: {} })]);
    let asked = 0;
    await http.send({ ...POST, reconcile: async () => { asked++; return undefined; } });
    expect(asked).toBe(0);
    expect(wire.sent).toHaveLength(2);
  });

  it('nothing answering after every retry is one error naming the address (exit 1)', async () => {
    const { http } = client([{ error: 'ECONNREFUSED' }, { error: 'ECONNREFUSED' }], { maxRetries: 1 });
    const err = await http.send(GET).catch((e) => e);
    expect(err).toBeInstanceOf(CliError);
    expect(err).toMatchObject({ exitCode: 1, message: 'Could not reach the service for GET /api/v1/leads: ECONNREFUSED.' });
    expect(err.hint).toContain('Nothing answers at https://api.example.test');
  });

  it('an unknown wire error is not retried', async () => {
    const { http, wire } = client([{ error: 'EPROTO' }]);
    await expect(http.send(GET)).rejects.toMatchObject({ message: 'Could not reach the service for GET /api/v1/leads: EPROTO.' });
    expect(wire.sent).toHaveLength(1);
  });

  it('the governor waits for the window to turn when the budget left does not cover the cost', async () => {
    const { http, clock, wire } = client([
      json(200, { success: true }, { 'x-ratelimit-remaining': '15', 'x-ratelimit-reset': '2' }),
      json(200, { success: true }, { 'x-ratelimit-remaining': '80', 'x-ratelimit-reset': '2' }),
    ]);
    await http.send(GET); // cost 20 sent blind; 15 left for 2 s
    await http.send(GET); // cost 20 > 15: wait out the window (2000 ms + 15 ms margin)
    expect(clock.slept).toEqual([2015]);
    expect(wire.sent).toHaveLength(2);
    expect(http.governor.stats).toEqual({ acquired: 40, waits: 1 });
  });

  it('--debug traces redact the token, Authorization and secret-looking body fields', async () => {
    const trace: string[] = [];
    const { http } = client([json(200, { success: true, data: { access_token: 'leaked-abcdef' } })], { trace });
    await http.send({ ...POST, body: { title: 'x', http_auth_password: 'p4ssw0rd-long' } });
    const all = trace.join('\n');
    expect(all).toContain('> POST https://api.example.test/api/v1/leads');
    expect(all).toContain('> authorization: [redacted]');
    expect(all).toContain('"http_auth_password":"[redacted]"');
    expect(all).toContain('"access_token":"[redacted]"');
    for (const secret of ['first-token-abcdef', 'p4ssw0rd-long', 'leaked-abcdef']) expect(all).not.toContain(secret);
  });

  it('buildUrl keeps a base path and encodes the query (arrays comma-joined, null as "null")', () => {
    expect(buildUrl('http://h:1/base/', '/api/v1/x', { a: [1, 2], b: null, c: undefined, d: 'a b' })).toBe('http://h:1/base/api/v1/x?a=1%2C2&b=null&d=a+b');
  });
});
