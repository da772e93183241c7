import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { tempDir, writes } from './helpers.js';

const EXAMPLE = fileURLToPath(new URL('../../docs/fixtures/', import.meta.url));

let fx: SandboxFixture;
let env: Record<string, string>;
beforeAll(async () => {
  fx = await startFixture({ seed: 'demo' });
  env = { ...fx.env, WEBHOOK_URL: 'http://127.0.0.1:9/crm' };
});
afterAll(() => fx.close());

describe('fixtures: a re-apply looks at the account', () => {
  it('a deal changed by hand is drift, not "unchanged": apply sends the files\' value back, then converges', async () => {
    const dir = tempDir();
    cpSync(EXAMPLE, dir, { recursive: true });
    expect((await runBin(['apply', '-f', dir], { env })).code).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, '.crmctl-state.json'), 'utf8'));
    const deal = state.records['initech-rollout'].id;

    const edit = await runBin(['deals', 'update', String(deal), '--title', 'Changed by hand'], { env });
    expect(edit.code, edit.stderr).toBe(0);
    await fx.clearRequests();
    const again = await runBin(['apply', '-f', dir], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^updated +deal +initech-rollout +id ${deal} +changes: title +changed in the account$`, 'm'));
    expect(again.stdout).toMatch(/^Done: 0 created, 1 updated, 0 replaced, 0 deleted, \d+ unchanged\. Cost: 5\. State: .*\nChecked \d+ unchanged records against the account \(cost \d+\)\.$/m);
    expect(writes(await fx.requests()).map((r) => [r.method, r.path, r.body])).toEqual([['PATCH', `/api/v2/deals/${deal}`, { title: 'Initech rollout, 40 seats' }]]);
    expect((await fx.collection<any>('deals')).find((d) => d.id === deal).title).toBe('Initech rollout, 40 seats');

    await fx.clearRequests();
    const third = await runBin(['apply', '-f', dir], { env });
    expect(third.stdout).toMatch(/^Done: 0 created, 0 updated, 0 replaced, 0 deleted, \d+ unchanged\. Cost: 0\./m);
    expect(writes(await fx.requests())).toEqual([]);
  });

  it('a record deleted by hand is created again', async () => {
    const dir = tempDir();
    cpSync(EXAMPLE, dir, { recursive: true });
    await fx.reset('demo');
    expect((await runBin(['apply', '-f', dir], { env })).code).toBe(0);
    const before = JSON.parse(readFileSync(join(dir, '.crmctl-state.json'), 'utf8')).records['initech-kickoff'].id;
    expect((await runBin(['activities', 'delete', String(before), '--yes'], { env })).code).toBe(0);
    const again = await runBin(['apply', '-f', dir], { env });
    expect(again.code, again.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, '.crmctl-state.json'), 'utf8')).records['initech-kickoff'].id;
    expect(after).not.toBe(before);
    expect(again.stdout).toMatch(new RegExp(`^created +activity +initech-kickoff +id ${after} +deleted in the account: created again$`, 'm'));
  });
});
