// The daily token budget in the HTTP client, with a scripted transport and a fake clock: a 429 of a
// spent day fails at once (no backoff, exit 6), a burst 429 keeps its retries, the figures are recorded.
import { describe, expect, it } from 'vitest';
import { DailyBudgetError, RateLimitError } from '../../src/core/errors.js';
import { HttpClient } from '../../src/http/client.js';
import type { Clock } from '../../src/http/clock.js';
import type { Transport, TransportResponse } from '../../src/http/transport.js';
import type { HttpRequest } from '../../src/http/types.js';

// 2023-11-14T22:13:20Z: the next 00:00 UTC is 1 h 46 min 40 s away.
const START = 1_700_000_000_000;
const MIDNIGHT = Date.UTC(2023, 10, 15);

function setup(steps: Array<Partial<TransportResponse>>, opts: { maxWaitMs?: number; maxRetries?: number } = {}) {
  const sent: string[] = [];
  const transport: Transport = {
    async request(url, init) {
      sent.push(`${init.method} ${new URL(url).pathname}`);
      const step = steps.shift();
      if (!step) throw new Error(`unexpected request ${init.method} ${url}`);
      return { status: 200, headers: {}, text: '{"success":true}', ...step };
    },
    close: async () => undefined,
  };
  let t = START;
  const slept: number[] = [];
  const clock: Clock = { now: () => t, random: () => 0.5, sleep: async (ms) => { slept.push(ms); t += ms; } };
  const credentials = { get: async () => ({ baseUrl: 'https://api.example.test', headers: { authorization: 'Bearer t' } }), refreshAfter401: async () => false, secrets: () => ['t'] };
  const notices: string[] = [];
  const http = new HttpClient({ credentials, transport, clock, maxRetries: 3, baseDelayMs: 100, maxDelayMs: 5000, notice: (l) => notices.push(l), ...opts });
  return { http, sent, slept, notices };
}

const daily = (limit: number, remaining: number, extra: Record<string, string> = {}) => ({ 'x-daily-ratelimit-token-limit': String(limit), 'x-daily-ratelimit-token-remaining': String(remaining), ...extra });
const answer = (status: number, headers: Record<string, string>) => ({ status, headers: { 'content-type': 'application/json', ...headers }, text: JSON.stringify({ success: status < 300, error: status === 429 ? 'Request over limit' : undefined }) });
const GET: HttpRequest = { method: 'GET', path: '/api/v1/leads', idempotent: true, cost: 20 };

describe('daily budget in the HTTP client', () => {
  it('a 429 with the daily remaining at 0 fails at once: one request, no wait, exit 6, when it resets', async () => {
    const { http, sent, slept } = setup([answer(429, daily(30000, 0, { 'retry-after': '3' }))]);
    const err = await http.send(GET).catch((e) => e);
    expect(err).toBeInstanceOf(DailyBudgetError);
    expect(err.exitCode).toBe(6);
    expect(err.message).toBe('The daily budget is spent (0 of 30,000 tokens left); GET /api/v1/leads was refused. It resets at 00:00 UTC (in 1 h 46 min).');
    expect(err.resetsAt).toBe(MIDNIGHT);
    expect(sent).toEqual(['GET /api/v1/leads']);
    expect(slept).toEqual([]);
  });

  it('a 429 of the burst window (daily remaining above 0) is retried as before', async () => {
    const { http, sent, slept } = setup([answer(429, daily(30000, 1200, { 'retry-after': '1' })), answer(200, daily(30000, 1180))]);
    await http.send(GET);
    expect(sent).toHaveLength(2);
    expect(slept).toEqual([1050]);
    expect(http.daily).toEqual({ limit: 30000, remaining: 1180, seenAt: START + 1050 });
  });

  it('a 429 without daily headers is treated as the burst window (they can be missing briefly)', async () => {
    const { http, sent } = setup([answer(429, {}), answer(429, {}), answer(429, {}), answer(429, {})]);
    expect(await http.send(GET).catch((e) => e)).toSatisfy((e: unknown) => e instanceof RateLimitError && !(e instanceof DailyBudgetError));
    expect(sent).toHaveLength(4);
  });

  it('once an answer said 0 left, the next request is not sent; figures of an answer without headers are kept', async () => {
    const { http, sent } = setup([answer(200, daily(500, 20)), answer(200, {}), answer(200, daily(500, 0))]);
    await http.send(GET);
    await http.send(GET);
    expect(http.daily).toMatchObject({ limit: 500, remaining: 20 });
    await http.send(GET);
    const err = await http.send(GET).catch((e) => e);
    expect(err).toBeInstanceOf(DailyBudgetError);
    expect(sent).toHaveLength(3);
  });

  it('the reset is midnight on the service\'s clock (its Date header), not ours', async () => {
    // The service is 3 hours ahead: its midnight is 1 h 46 min - 3 h away, i.e. it already turned; next is in 22 h 46 min.
    const serviceNow = new Date(START + 3 * 3_600_000).toUTCString();
    const { http } = setup([answer(429, daily(30000, 0, { date: serviceNow }))]);
    const err = await http.send(GET).catch((e) => e);
    expect(err.message).toMatch(/It resets at 00:00 UTC \(in 22 h 46 min\)\.$/);
  });

  it('a 429 asking for 30,000 s without the daily headers is not slept through: exit 6 at once, as a spent day, saying until when', async () => {
    // Before: five sleeps of 30,000 s each (about 40 h), without a word.
    const { http, sent, slept, notices } = setup([answer(429, { 'retry-after': '30000' })]);
    const err = await http.send(GET).catch((e) => e);
    expect(err).toBeInstanceOf(DailyBudgetError);
    expect(err.exitCode).toBe(6);
    expect(err.message).toBe('The service refused GET /api/v1/leads (429) and asked to wait 8 h 20 min, longer than crmctl waits (1 min): taken as the daily budget spent. Try again after 06:33:20 UTC (service time).');
    expect(err.hint).toBe('crmctl stops instead of sleeping that long. Run the command again after that time (`crmctl budget` shows what is left), or set CRMCTL_MAX_RETRY_WAIT (seconds) to wait longer.');
    expect(err.resetsAt).toBe(START + 30_000_000);
    expect(sent).toEqual(['GET /api/v1/leads']);
    expect(slept).toEqual([]);
    expect(notices).toEqual([]);
  });

  it('the cap is configurable; a wait under it is announced on one line with the time it ends on the service\'s clock', async () => {
    // The service's clock is 1 h behind ours: the line says its time.
    const serviceDate = new Date(START - 3_600_000).toUTCString();
    const { http, sent, slept, notices } = setup([answer(429, { 'retry-after': '30', date: serviceDate }), answer(200, {})], { maxWaitMs: 120_000 });
    expect((await http.send(GET)).status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(slept).toEqual([30_050]);
    expect(notices).toEqual(['crmctl: the service answered 429 to GET /api/v1/leads; waiting 30 s, until 21:13:50 UTC (service time), then retrying']);
  });

  it('a Retry-After date is read on the service\'s clock (which wrote it), not ours', async () => {
    // The service is 2 h behind: "30 s from its now" is in our past, and would be no wait at all on our clock.
    const serviceNow = START - 2 * 3_600_000;
    const headers = { date: new Date(serviceNow).toUTCString(), 'retry-after': new Date(serviceNow + 30_000).toUTCString() };
    const { http, slept, notices } = setup([answer(429, headers), answer(200, {})]);
    await http.send(GET);
    expect(slept).toEqual([30_050]);
    expect(notices).toEqual(['crmctl: the service answered 429 to GET /api/v1/leads; waiting 30 s, until 20:13:50 UTC (service time), then retrying']);
  });

  it('short waits (the burst window) stay quiet', async () => {
    const { http, notices } = setup([answer(429, { 'retry-after': '2' }), answer(200, {})]);
    await http.send(GET);
    expect(notices).toEqual([]);
  });

  it('a day seen spent is asked again after recheckDaily (crmctl mcp before each call): a top-up is believed', async () => {
    const { http, sent } = setup([answer(429, daily(30000, 0)), answer(200, daily(60000, 29990))]);
    expect(await http.send(GET).catch((e) => e)).toBeInstanceOf(DailyBudgetError);
    // Without asking again, the next call is refused here, sent nowhere.
    expect(await http.send(GET).catch((e) => e)).toBeInstanceOf(DailyBudgetError);
    expect(sent).toHaveLength(1);
    http.recheckDaily();
    expect((await http.send(GET)).status).toBe(200);
    expect(sent).toHaveLength(2);
    expect(http.daily).toMatchObject({ limit: 60000, remaining: 29990 });
  });
});
