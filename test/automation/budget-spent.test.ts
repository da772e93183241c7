// A spent daily budget: runs stop at once with their state saved (exit 6), say when and how to resume,
// and continue after the reset with every record once; the `budget` gate; `auth status` shows the budget.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { bulkLeads, control, journalEntries, lastPage, ndjson, workDir } from './helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean } = {}) => runCli(args, { ...opts, env: fx.env });
const setDaily = async (body: { daily_limit?: number; daily_used?: number }) => (await control(fx, 'POST', 'budget', body)).body.data as { limit: number; used: number; remaining: number };

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await setDaily({ daily_limit: 100_000, daily_used: 0 });
  await fx.clearRequests();
});

const SPENT = /^error: The daily budget is spent \(0 of 100,000 tokens left\); GET \/api\/v1\/leads was refused\. It resets at 00:00 UTC \(in (\d+ h )?\d+ min|under a minute\)\.$/m;

describe('a spent daily budget', () => {
  it('stops an export at once with its checkpoint (exit 6, one refused request); after the reset --resume writes every lead once', async () => {
    await bulkLeads(fx, 996); // 1,000 leads with the demo's 4
    const out = join(workDir(), 'leads.ndjson');
    // A run learns its account once per token (users/me, cost 2): learnt here, so the run below reads only pages.
    expect((await run(['export', 'lead-labels', '--out', join(workDir(), 'labels.ndjson')])).code).toBe(0);
    await fx.clearRequests();
    // Three pages of 100 (cost 20 each) fit in what is left; the fourth is refused.
    await setDaily({ daily_used: 100_000 - 60 });
    // --raw: the pages alone (a named export reads each linked list once too; export.test.ts counts those).
    const r = await run(['export', 'leads', '--out', out, '--page-size', '100', '--raw']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(SPENT);
    expect(r.stderr).toContain(`hint: its progress is saved; continue with: crmctl export leads --out ${out} --page-size 100 --raw --resume\n`);
    expect(lastPage(`${out}.checkpoint.json`)).toMatchObject({ records: 300, next: 300 });
    // The third answer said 0 left: the fourth page is not even asked (it could only be refused).
    expect((await fx.requests()).map((q) => `${q.status} ${q.query.start ?? '0'}`)).toEqual(['200 0', '200 100', '200 200']);

    // Still spent: --resume is refused once (not retried with backoff) and stops at the same place.
    await fx.clearRequests();
    const again = await run(['export', 'leads', '--out', out, '--page-size', '100', '--raw', '--resume']);
    expect(again.code).toBe(6);
    expect(again.stderr).toMatch(SPENT);
    expect((await fx.requests()).map((q) => `${q.status} ${q.query.start ?? '0'}`)).toEqual(['429 300']);
    expect(lastPage(`${out}.checkpoint.json`)).toMatchObject({ records: 300, next: 300 });

    await setDaily({ daily_used: 0 });
    await fx.clearRequests();
    const done = await run(['export', 'leads', '--out', out, '--page-size', '100', '--raw', '--resume']);
    expect(done.code, done.stderr).toBe(0);
    const ids = ndjson(readFileSync(out, 'utf8')).map((l) => l.id);
    const live = (await fx.collection<{ id: string; is_archived: boolean }>('leads')).filter((l) => !l.is_archived).map((l) => l.id);
    expect(ids).toEqual(live);
    expect(new Set(ids).size).toBe(1000);
    expect((await fx.requests()).map((q) => q.query.start)).toEqual(['300', '400', '500', '600', '700', '800', '900']);
    expect(journalEntries(`${out}.checkpoint.json`).pop()).toMatchObject({ type: 'end', summary: `1000 records written to ${out}` });
  });

  it('stops an import with its journal (exit 6); --resume after the reset creates the rest, every row once', async () => {
    const dir = workDir();
    const file = join(dir, 'leads.ndjson');
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => JSON.stringify({ title: `Budget lead ${i + 1}`, person_id: 1 })).join('\n'));
    // Five creates (cost 10 each) fit; then the day is spent.
    const before = (await fx.collection('leads')).length;
    await setDaily({ daily_used: 100_000 - 50 });
    const r = await run(['import', 'leads', '--file', file, '--concurrency', '1']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: The daily budget is spent \(0 of 100,000 tokens left\); POST \/api\/v1\/leads was refused\./m);
    expect(r.stderr).toContain('--resume\n');
    const posts = (await fx.requests()).filter((q) => q.method === 'POST');
    // The fifth answer said 0 left: no sixth create was sent.
    expect(posts.map((q) => q.status)).toEqual([201, 201, 201, 201, 201]);

    await setDaily({ daily_used: 0 });
    const done = await run(['import', 'leads', '--file', file, '--concurrency', '1', '--resume']);
    expect(done.code, done.stderr).toBe(0);
    const titles = (await fx.collection<{ title: string }>('leads')).map((l) => l.title).filter((t) => t.startsWith('Budget lead '));
    expect(titles.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `Budget lead ${i + 1}`).sort());
    expect((await fx.collection('leads')).length).toBe(before + 12);
  });

  it('rows announced ahead of a stop are journaled as never sent: the undo does not count them, --resume sends each once', async () => {
    const dir = workDir();
    const file = join(dir, 'leads.ndjson');
    writeFileSync(file, Array.from({ length: 30 }, (_, i) => JSON.stringify({ title: `Ahead lead ${i + 1}`, person_id: 1 })).join('\n'));
    const before = (await fx.collection('leads')).length;
    await setDaily({ daily_used: 100_000 - 50 });
    const r = await run(['import', 'leads', '--file', file, '--concurrency', '4']);
    expect(r.code).toBe(6);
    // Rows past the stop had their "sending" entry written ahead of their turn; each is settled as not sent.
    const entries = journalEntries(`${file}.import-state.json`);
    const notSent = entries.filter((e) => e.sent === false).map((e) => String(e.key));
    expect(notSent.length).toBeGreaterThan(0);
    for (const k of notSent) expect(entries.filter((e) => e.key === k).map((e) => e.status)).toEqual(['sending', 'failed']);
    const runId = String(entries[0]!.run_id);
    const dry = await run(['undo', runId, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { to_delete: number; cannot: Array<{ key: string }> };
    expect(plan.to_delete).toBe((await fx.collection('leads')).length - before);
    expect(plan.cannot.map((c) => c.key).filter((k) => notSent.includes(k))).toEqual([]);

    await setDaily({ daily_used: 0 });
    const done = await run(['import', 'leads', '--file', file, '--concurrency', '4', '--resume']);
    expect(done.code, done.stderr).toBe(0);
    const titles = (await fx.collection<{ title: string }>('leads')).map((l) => l.title).filter((t) => t.startsWith('Ahead lead '));
    expect(titles.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `Ahead lead ${i + 1}`).sort());
  });

  it('stops the changes feed with the service\'s own words (exit 6, when it resets); the watermark stays', async () => {
    await setDaily({ daily_used: 100_000 });
    const r = await run(['changes', '--since', '24h', '--types', 'deals']);
    expect(r.code).toBe(6);
    // The feed's first read says whose watermark it is (users/me): that is the one refused.
    expect(r.stderr).toMatch(/^error: The daily budget is spent \(0 of 100,000 tokens left\); GET \/api\/v1\/users\/me was refused\. It resets at 00:00 UTC/m);
    expect(r.stderr).not.toContain('--out FILE');
    expect(r.stdout).toBe('');
    // No watermark was written: after the reset a run without --since is still a first run.
    await setDaily({ daily_used: 0 });
    expect((await run(['changes', '--types', 'deals'])).code).toBe(2);
  });

  it('warns before a run that will not fit (off a terminal), with the cost and what is left', async () => {
    const file = join(workDir(), 'leads.ndjson');
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => JSON.stringify({ title: `Fit lead ${i + 1}`, person_id: 1 })).join('\n'));
    await setDaily({ daily_used: 100_000 - 100 });
    const r = await run(['import', 'leads', '--file', file, '--concurrency', '1']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^warning: cost: about 120 tokens, but only 90 of 100,000 are left today: the run will stop when the budget is spent \(its state is saved; run the same command with --resume after the reset at 00:00 UTC \(in [^)]+\)\)$/m);
  });

  it('prints the cost against what is left on a terminal', async () => {
    await bulkLeads(fx, 996);
    const out = join(workDir(), 'leads.ndjson');
    const r = await run(['export', 'leads', '--out', out, '--page-size', '500', '--raw'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    // v1 leads give no total: the cost is per page.
    expect(r.stderr).toContain('cost: 20 tokens a page of 500 records, 99,980 left today\n');
  });
});

describe('crmctl budget', () => {
  it('prints limit, remaining and the reset; exits 0 at or above --min and 6 below it', async () => {
    await setDaily({ daily_used: 100_000 - 5002 });
    // Each run's GET users/me costs 2: 5,000 left after the first.
    const ok = await run(['budget', '--min', '5000', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ limit: 100_000, remaining: 5000, used: 95_000, percentLeft: 5 });
    expect(JSON.parse(ok.stdout).resetsAt).toMatch(/T00:00:00\.000Z$/);
    const low = await run(['budget', '--min', '5000', '--json']);
    expect(low.code).toBe(6);
    expect(JSON.parse(low.stdout)).toMatchObject({ remaining: 4998 });
    expect(low.stderr).toMatch(/The daily budget is below what was asked \(--min 5,000\): 4,998 of 100,000 tokens left today \(4\.9%\)/);
    expect((await run(['budget', '--min-percent', '4'])).code).toBe(0);
    expect((await run(['budget', '--min-percent', '5'])).code).toBe(6);
  });

  it('a spent day: remaining 0 and exit 6 without a threshold; both thresholds at once is exit 2, nothing sent', async () => {
    await setDaily({ daily_used: 100_000 });
    const r = await run(['budget', '--fields', 'limit,remaining']);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('100000\t0\n');
    await fx.clearRequests();
    const both = await run(['budget', '--min', '1', '--min-percent', '1']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--min, --min-percent: give one threshold, not both/);
    expect(await fx.requests()).toEqual([]);
  });

  it('auth status shows the budget left (one GET users/me)', async () => {
    const r = await run(['auth', 'status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    const left = (await control(fx, 'GET', 'budget')).body.data.remaining;
    expect(s).toMatchObject({ budgetRemaining: left, budgetLimit: 100_000 });
    expect(s.budget).toMatch(/^99,998 of 100,000 tokens left today \(99\.9%\); resets at 00:00 UTC \(in /);
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v1/users/me']);
  });
});
