// A 429 that asks for hours (Retry-After: 30000) without the daily-budget headers (they can be missing)
// used to be slept through five times, about 40 h, without a word. Now a wait past the cap
// (CRMCTL_MAX_RETRY_WAIT, default 60 s) is taken as a spent day: exit 6 at once, a resumable run keeps
// its state and says how to continue; a shorter wait is announced on stderr with its end in service time.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { workDir } from '../automation/helpers.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { loopback, type Loopback } from './loopback.js';

const TOKEN = 'tok-long-retry-0123456789';
/** The service's clock, 2 h behind ours: every time crmctl shows must be this one. */
const SKEW_MS = -2 * 3_600_000;
let api: Loopback | undefined;
afterEach(async () => api?.close());

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', date: new Date(Date.now() + SKEW_MS).toUTCString(), ...headers }).end(JSON.stringify(body));
const overLimit = (res: ServerResponse, retryAfter: string) => json(res, 429, { success: false, error: 'Request over limit' }, { 'retry-after': retryAfter });
const env = (extra: Record<string, string> = {}) => ({ CRMCTL_ACCESS_TOKEN: TOKEN, CRMCTL_API_DOMAIN: api!.url, CRMCTL_CONFIG_DIR: tempConfigDir(), ...extra });
/** "HH:MM:SS" of a time on the service's clock, `ms` from now. */
const serviceClock = (ms: number) => new Date(Date.now() + SKEW_MS + ms).toISOString().slice(11, 19);
const secondsOf = (hms: string) => hms.split(':').reduce((n, x) => n * 60 + Number(x), 0);

describe('a 429 asking for a long wait, without daily-budget headers', () => {
  it('an export stops at once with exit 6 as for a spent day: checkpoint kept, the line that resumes it, no retry', async () => {
    api = await loopback((req, res) => {
      if (!req.url!.includes('cursor=')) return json(res, 200, { success: true, data: [{ id: 1, title: 'First page' }], additional_data: { next_cursor: 'page2' } });
      overLimit(res, '30000');
    });
    const out = join(workDir(), 'deals.ndjson');
    const started = Date.now();
    // --raw: the pages alone (a named export reads the linked lists besides, which this stand-in does not serve).
    const r = await runCli(['export', 'deals', '--out', out, '--raw'], { env: env() });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    const [note, ...lines] = r.stderr.split('\n');
    expect(note).toBe('note: archived deals are not included (the service leaves them out of its deals list); --include-archived adds them.');
    expect(lines[0]).toMatch(/^error: The service refused GET \/api\/v2\/deals \(429\) and asked to wait 8 h 20 min, longer than crmctl waits \(1 min\): taken as the daily budget spent\. Try again after (\d\d:\d\d:\d\d) UTC \(service time\)\.$/);
    const until = /after (\d\d:\d\d:\d\d) UTC/.exec(lines[0]!)![1]!;
    expect(Math.abs(secondsOf(until) - secondsOf(serviceClock(30_000_000)))).toBeLessThanOrEqual(2);
    expect(lines.slice(1)).toEqual([
      'hint: crmctl stops instead of sleeping that long. Run the command again after that time (`crmctl budget` shows what is left), or set CRMCTL_MAX_RETRY_WAIT (seconds) to wait longer.',
      `hint: its progress is saved; continue with: crmctl export deals --out ${out} --raw --resume`,
      '',
    ]);
    // Whose account the run's journal belongs to, the first page, and the refused one; nothing retried.
    expect(api.seen.map((s) => s.url)).toEqual(['/api/v1/users/me', '/api/v2/deals?limit=500', '/api/v2/deals?cursor=page2&limit=500']);
    expect(existsSync(`${out}.checkpoint.json`)).toBe(true);
    expect(readFileSync(out, 'utf8')).toContain('First page');
  });

  it('CRMCTL_MAX_RETRY_WAIT sets the cap', async () => {
    api = await loopback((_req, res) => overLimit(res, '20'));
    const r = await runCli(['deals', 'list'], { env: env({ CRMCTL_MAX_RETRY_WAIT: '10' }) });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: The service refused GET \/api\/v2\/deals \(429\) and asked to wait 20 s, longer than crmctl waits \(10 s\): taken as the daily budget spent\./);
    expect(api.seen).toHaveLength(1);
  });

  it('a wait under the cap is said on stderr, one line, until when in service time; then the call succeeds', async () => {
    let n = 0;
    api = await loopback((_req, res) => (n++ === 0 ? overLimit(res, '5') : json(res, 200, { success: true, data: [{ id: 7, title: 'After the wait' }], additional_data: { next_cursor: null } })));
    const expected = serviceClock(5_000);
    const r = await runCli(['deals', 'list', '--output', 'tsv', '--fields', 'id,title'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('7\tAfter the wait\n');
    const line = /^crmctl: the service answered 429 to GET \/api\/v2\/deals; waiting 5 s, until (\d\d:\d\d:\d\d) UTC \(service time\), then retrying\n$/.exec(r.stderr);
    expect(line, r.stderr).not.toBeNull();
    expect(Math.abs(secondsOf(line![1]!) - secondsOf(expected))).toBeLessThanOrEqual(2);
  }, 20_000);
});
