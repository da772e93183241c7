// apply prices its plan against what is left of the daily budget, and a spent day stops it with exit 6
// and its state file kept, so the same apply run again after the reset finishes the rest, once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, workDir } from './helpers.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

describe('apply and the daily budget', () => {
  it('warns that the plan will not fit, stops on the spent day (exit 6), and the same apply after the reset creates the rest once', async () => {
    const dir = workDir();
    const file = join(dir, 'labels.yaml');
    writeFileSync(file, ['Gold', 'Silver', 'Bronze'].map((n) => `- kind: lead-label\n  name: ${n.toLowerCase()}\n  spec:\n    name: Budget ${n}\n    color: green\n`).join(''));
    const before = (await fx.collection<{ name: string }>('leadLabels')).length;
    const cost = 10; // POST /api/v1/leadLabels
    await control(fx, 'POST', 'budget', { daily_limit: 100_000, daily_used: 100_000 - 15 });
    const r = await runCli(['apply', '--file', file], { env: fx.env });
    expect(r.code, r.stderr).toBe(6);
    // The notice counts what is left once the account is known: the record of changes reads users/me (cost 2) first.
    expect(r.stderr).toMatch(new RegExp(`^warning: cost: about ${3 * cost} tokens, but only 13 of 100,000 are left today: the run will stop when the budget is spent \\(its state is saved; run the same apply again \\(what was applied is in the state file\\) after the reset at 00:00 UTC`, 'm'));
    expect(r.stderr).toContain(`error: ${file}:11 lead-label bronze: The daily budget is spent (0 of 100,000 tokens left); POST /api/v1/leadLabels was refused. It resets at 00:00 UTC (in `);
    expect(r.stderr).toContain(`Records done before it are in ${join(dir, '.crmctl-state.json')}; fix the cause and run apply again to continue.\n`);
    const made = (await fx.collection<{ name: string }>('leadLabels')).filter((l) => l.name.startsWith('Budget '));
    expect(made.map((l) => l.name)).toEqual(['Budget Gold', 'Budget Silver']);

    await control(fx, 'POST', 'budget', { daily_used: 0 });
    const again = await runCli(['apply', '--file', file], { env: fx.env });
    expect(again.code, again.stderr).toBe(0);
    const labels = await fx.collection<{ name: string }>('leadLabels');
    expect(labels.filter((l) => l.name.startsWith('Budget ')).map((l) => l.name).sort()).toEqual(['Budget Bronze', 'Budget Gold', 'Budget Silver']);
    expect(labels.length).toBe(before + 3);
  });
});
