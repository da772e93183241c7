// The daily token budget beside the burst window: headers, a spent day, the control endpoint, midnight.
import { describe, expect, test } from 'vitest';
import { advanceClock, boot } from './helpers.js';

const daily = (r: { headers: Headers }) => ({
  limit: r.headers.get('x-daily-ratelimit-token-limit'),
  remaining: r.headers.get('x-daily-ratelimit-token-remaining'),
});

/** Seconds from the sandbox's now to the next 00:00 UTC. */
async function secondsToMidnight(control: (m: string, p: string) => Promise<{ body: any }>): Promise<number> {
  const now = Date.parse((await control('GET', 'clock')).body.data.now);
  return Math.ceil(((Math.floor(now / 86_400_000) + 1) * 86_400_000 - now) / 1000);
}

describe('daily token budget', () => {
  test('every answer carries the daily headers, decreasing by each operation\'s cost, apart from the burst window', async () => {
    const { call, control } = await boot({ budget: { limit: 1000, windowSec: 60, dailyLimit: 5000 } });
    const a = await call('GET', '/api/v1/users/me'); // cost 2
    expect(daily(a)).toEqual({ limit: '5000', remaining: '4998' });
    expect(a.headers.get('x-ratelimit-remaining')).toBe('998');
    const b = await call('GET', '/api/v1/leads'); // cost 20
    expect(daily(b)).toEqual({ limit: '5000', remaining: '4978' });
    const c = await call('POST', '/api/v1/leadLabels', { body: { name: 'Daily', color: 'green' } }); // cost 10
    expect(daily(c)).toEqual({ limit: '5000', remaining: '4968' });
    // A new burst window does not give the day back.
    await control('PUT', 'config', { budget: { limit: 1000, windowSec: 60 } });
    const d = await call('GET', '/api/v1/users/me');
    expect(d.headers.get('x-ratelimit-remaining')).toBe('998');
    expect(daily(d)).toEqual({ limit: '5000', remaining: '4966' });
    expect((await control('GET', 'budget')).body.data).toMatchObject({ limit: 5000, used: 34, remaining: 4966 });
  });

  test('a spent day: every request 429 with the daily headers at 0 and Retry-After to midnight UTC; not charged', async () => {
    const { call, control } = await boot();
    expect((await control('POST', 'budget', { daily_limit: 30000, daily_used: 29990 })).body.data).toMatchObject({ limit: 30000, used: 29990, remaining: 10 });
    // The last allowed request may take the day below zero; it is shown as 0.
    const last = await call('GET', '/api/v1/leads');
    expect(last.status).toBe(200);
    expect(daily(last)).toEqual({ limit: '30000', remaining: '0' });
    for (const [method, path] of [['GET', '/api/v1/users/me'], ['POST', '/api/v1/leadLabels']] as const) {
      const r = await call(method, path, method === 'POST' ? { body: { name: 'Refused', color: 'green' } } : {});
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ success: false, error: 'Request over limit', data: null });
      expect(r.body.error_info).toMatch(/daily token budget is used up/);
      expect(daily(r)).toEqual({ limit: '30000', remaining: '0' });
      const ra = Number(r.headers.get('retry-after'));
      const expected = await secondsToMidnight(control);
      expect(ra).toBeGreaterThanOrEqual(expected - 1);
      expect(ra).toBeLessThanOrEqual(expected + 1);
    }
    const log = (await control('GET', 'requests')).body.data as Array<{ status: number; cost: number }>;
    expect(log.slice(-2).map((e) => [e.status, e.cost])).toEqual([[429, 0], [429, 0]]);
    expect((await control('GET', 'state/leadLabels')).body.data.map((l: { name: string }) => l.name)).not.toContain('Refused');
  });

  test('the day comes back at midnight UTC of the sandbox clock, or through the control endpoint', async () => {
    const { call, control, sb } = await boot({ tokenLifetimeSec: 2 * 86_400 }); // the token outlives the jump
    await control('POST', 'budget', { daily_limit: 100, daily_used: 100 });
    expect((await call('GET', '/api/v1/users/me')).status).toBe(429);
    await advanceClock(sb.url, await secondsToMidnight(control));
    const next = await call('GET', '/api/v1/users/me');
    expect(next.status).toBe(200);
    expect(daily(next)).toEqual({ limit: '100', remaining: '98' });
    await control('POST', 'budget', { daily_used: 100 });
    expect((await call('GET', '/api/v1/users/me')).status).toBe(429);
    await control('POST', 'budget', { daily_used: 0 });
    expect(daily(await call('GET', '/api/v1/users/me'))).toEqual({ limit: '100', remaining: '98' });
  });

  test('a burst 429 leaves the daily remaining above 0 (clients tell the two apart by it)', async () => {
    const { call } = await boot({ budget: { limit: 30, windowSec: 60 } });
    expect((await call('GET', '/api/v1/leads')).status).toBe(200);
    const over = await call('GET', '/api/v1/leads');
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('10');
    expect(daily(over)).toEqual({ limit: '10000000', remaining: '9999980' });
  });

  test('the control endpoint refuses bad figures, naming the field', async () => {
    const { control } = await boot();
    expect((await control('POST', 'budget', { daily_used: -1 })).body).toEqual({ success: false, error: 'daily_used must be an integer >= 0' });
    expect((await control('POST', 'budget', { daily_limit: 'lots' })).body).toEqual({ success: false, error: 'daily_limit must be an integer >= 0' });
  });
});
