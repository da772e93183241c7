// Bulk update against the daily budget: the plan prices the run against what is left today, and a run
// that meets a spent budget stops at once with its journal (exit 6), says when to resume, and --resume
// after the reset updates the rest, every deal once.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, journalEntries, workDir } from './helpers.js';

let fx: SandboxFixture;
let ids: number[];
const run = (args: string[]) => runCli(args, { env: fx.env });
const setDaily = async (body: { daily_limit?: number; daily_used?: number }) => control(fx, 'POST', 'budget', body);
const requests = async () => (await fx.requests()).map((q) => `${q.method} ${q.path} ${q.status}`);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await control(fx, 'POST', 'bulk', { collection: 'deals', count: 20 });
  ids = (await fx.collection<{ id: number; title: string }>('deals')).filter((d) => d.title.startsWith('Bulk deal ')).map((d) => d.id);
  await setDaily({ daily_limit: 100_000, daily_used: 0 });
  await fx.clearRequests();
});

describe('bulk-update and the daily budget', () => {
  it('the plan prints the cost against what is left today (after its reads), on stderr and in the --dry-run document', async () => {
    const state = join(workDir(), 'state.ndjson');
    const r = await run(['deals', 'bulk-update', '--ids', ids.join(','), '--field', 'owner_id=2', '--state', state, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    // One list read of the 20 ids (cost 10) before the plan: 99,990 left when it is shown.
    expect(r.stderr).toBe([
      'Bulk update of deals selected by --ids: 20 records',
      '  owner_id → 2: 20 changes (from 1: 20), 0 already at the value',
      '  20 to update, 0 unchanged (not written)',
      '  cost: about 100 tokens of 99,990 left today',
      '    20 × 5 (PATCH /api/v2/deals/{id}), plus 10 already spent on reads',
      '',
    ].join('\n'));
    expect(JSON.parse(r.stdout)).toMatchObject({ update_cost: 100, read_cost: 10, daily_budget_left: 99_990, daily_budget_limit: 100_000, fits_daily_budget: true });
    expect(await requests()).toEqual(['GET /api/v2/deals 200']);
  });

  it('a run that will not fit says so in the plan; it stops when the budget is spent (exit 6, journal kept); --resume after the reset updates the rest once', async () => {
    const dir = workDir();
    const state = join(dir, 'state.ndjson');
    const results = join(dir, 'results.ndjson');
    const args = ['deals', 'bulk-update', '--ids', ids.join(','), '--field', 'owner_id=2', '--state', state, '--results', results, '--yes', '--concurrency', '1'];
    // A run learns its account once per token (users/me, cost 2): learnt here by a run that changes nothing.
    expect((await run(['deals', 'bulk-update', '--ids', '99999', '--field', 'owner_id=1', '--state', join(dir, 'warm.ndjson'), '--yes'])).code).toBe(7);
    await fx.clearRequests();
    // The read (10) and five updates (5 each) fit; then the day is spent.
    await setDaily({ daily_used: 100_000 - 35 });
    const r = await run(args);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^ {2}cost: about 100 tokens, but only 25 of 100,000 are left today: the run will stop when the budget is spent \(its state is saved; run the same command with --resume after the reset at 00:00 UTC \(in [^)]+\)\)$/m);
    expect(r.stderr).toMatch(/^error: The daily budget is spent \(0 of 100,000 tokens left\); PATCH \/api\/v2\/deals\/\d+ was refused\. It resets at 00:00 UTC \(in [^)]+\)\.$/m);
    expect(r.stderr).toMatch(/^hint: its progress is saved; continue with: crmctl deals bulk-update .* --resume$/m);
    // The fifth answer said 0 left: no sixth update was sent, and the others were not tried one by one.
    expect(await requests()).toEqual(['GET /api/v2/deals 200', ...ids.slice(0, 5).map((id) => `PATCH /api/v2/deals/${id} 200`)]);
    expect(existsSync(state)).toBe(true);

    await setDaily({ daily_used: 0 });
    await fx.clearRequests();
    const done = await run([...args, '--resume']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe(`Updated 20 deals; 0 unchanged, 0 failed. Results: ${results}\n`);
    const patched = (await fx.requests()).filter((q) => q.method === 'PATCH').map((q) => q.path);
    expect(patched).toEqual(ids.slice(5).map((id) => `/api/v2/deals/${id}`));
    const owners = (await fx.collection<{ id: number; owner_id: number }>('deals')).filter((d) => ids.includes(d.id)).map((d) => d.owner_id);
    expect(owners).toEqual(ids.map(() => 2));
    // Every record settled: the run is finished (its journal is kept: it holds the values an undo puts back).
    expect(journalEntries(state).pop()).toMatchObject({ type: 'end', summary: '20 updated, 0 unchanged, 0 failed' });
    const again = await run([...args, '--resume']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^Bulk update already done at .*: 20 updated, 0 unchanged, 0 failed \(run \w+\); nothing sent\./m);
  });
});
