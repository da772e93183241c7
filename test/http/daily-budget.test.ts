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

function setup(steps: Array<Partial<TransportResponse>>) {
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
  const http = new HttpClient({ credentials, transport, clock, maxRetries: 3, baseDelayMs: 100, maxDelayMs: 5000 });
  return { http, sent, slept };
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
});
