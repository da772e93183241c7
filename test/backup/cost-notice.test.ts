// A backup prints what the rest will cost, against what is left of the day's budget, before it reads the
// rest: the first page of every list and the deals' count price the records, and the configuration, read
// beside the pages, is counted at what it costs at least. A run that will not fit says so as a warning,
// then stops when the budget is spent (exit 6, its state kept).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, workDir } from '../automation/helpers.js';

let a: SandboxFixture;
let demo: SandboxFixture;

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  await control(a, 'POST', 'bulk', { collection: 'deals', count: 20_000 });
  demo = await startFixture({ seed: 'demo' });
});
afterAll(async () => {
  await a?.close();
  await demo?.close();
});

describe('backup: the cost printed before the rest is read', () => {
  it('a backup that will not fit in what is left today warns with its cost first, then stops with its state kept', async () => {
    // Enough for the configuration and the first pages of the demo (about 1,400 units), not for 20,000 more deals.
    await control(a, 'POST', 'budget', { daily_limit: 1_600, daily_used: 0 });
    const out = join(workDir(), 'acme-cost');
    const r = await runBin(['backup', '--out', out], { env: a.env });
    expect(r.code, r.stderr).toBe(6);
    const lines = r.stderr.split('\n');
    const notice = lines.findIndex((l) => /^warning: cost: at least [\d,]+ tokens, but only [\d,]+ of 1,600 are left today: the run will stop when the budget is spent \(its state is saved; run the same command with --resume after the reset at 00:00 UTC \(in .+\)\)$/.test(l));
    expect(notice, r.stderr).toBeGreaterThanOrEqual(0);
    // The figure covers the 19,500 deals still to read (40 pages at 10 at least), more than is left.
    const [, cost, left] = /cost: at least ([\d,]+) tokens, but only ([\d,]+)/.exec(lines[notice]!)!.map((x) => Number(x.replaceAll(',', '')));
    expect(cost).toBeGreaterThanOrEqual(390);
    expect(cost).toBeGreaterThan(left!);
    expect(lines.slice(notice + 1).join('\n')).toMatch(/^error: The daily budget is spent \(0 of 1,600 tokens left\)/m);
    expect(r.stderr).toContain(`continue with: crmctl backup --out ${out} --resume`);
  });

  it('a backup that fits gives no warning: what the configuration already spent beside the pages is not counted again', async () => {
    // The demo's whole backup costs about 1,410: 190 are left when it ends, less while it reads.
    await control(demo, 'POST', 'budget', { daily_limit: 1_600, daily_used: 0 });
    const r = await runBin(['backup', '--out', join(workDir(), 'demo-cost')], { env: demo.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/cost:/);
    const day = (await control(demo, 'GET', 'budget')).body.data as { used: number };
    expect(day.used).toBeGreaterThan(1_300);
    expect(day.used).toBeLessThan(1_600);
  });
});
