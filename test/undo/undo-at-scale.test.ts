// crmctl undo at the sizes of issue 31.6: an import of 500 rows under faults (5xx, resets before and after
// the write committed) is taken back, under faults too, until the account equals its snapshot field by
// field; a bulk update of 300 deals with one deal edited by hand afterwards: 299 set back, 1 conflict
// listed and left untouched.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { control, demoSandboxPerTest, journalEntries, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});

let cwd = '';
const run = (args: string[]) => runBin(args, { env: fx.env, cwd });
const FAULTS = { rate5xx: 0.04, rateReset: 0.04, resetAfterCommitShare: 0.5, seed: 31 };
const byId = <T extends { id: unknown }>(xs: T[]) => [...xs].sort((a, b) => Number(a.id) - Number(b.id));

describe('undo at scale', () => {
  it('500 persons imported under faults, then undone under faults: the persons are the snapshot, field by field', async () => {
    cwd = workDir();
    const snapshot = byId(await fx.collection<{ id: number }>('persons'));
    writeFileSync(join(cwd, 'persons.csv'), `name,email\n${Array.from({ length: 500 }, (_, i) => `Scale Person ${i + 1},scale${i + 1}@example.com`).join('\n')}\n`);
    await control(fx, 'PUT', 'faults', FAULTS);
    const imp = await run(['import', 'persons', '--file', 'persons.csv']);
    expect(imp.code, imp.stderr).toBe(0);
    await control(fx, 'PUT', 'faults', {});
    const created = (await fx.collection<{ name: string }>('persons')).filter((p) => p.name.startsWith('Scale Person '));
    // Exactly once under faults: 500 persons, no name twice.
    expect(new Set(created.map((p) => p.name)).size).toBe(500);
    expect(created).toHaveLength(500);
    const id = String(journalEntries(join(cwd, 'persons.csv.import-state.json'))[0].run_id);
    // The requests that failed were retried or looked up: some faults did happen.
    expect((await fx.requests()).some((r) => r.status >= 500 || r.status === 0)).toBe(true);

    await control(fx, 'PUT', 'faults', FAULTS);
    const undo = await run(['undo', id, '--yes']);
    await control(fx, 'PUT', 'faults', {});
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(new RegExp(`^Undo of run ${id}: 500 deleted, 0 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed \\(undo run \\w+\\)\\.\\n$`));
    expect(byId(await fx.collection<{ id: number }>('persons'))).toEqual(snapshot);
  }, 180_000);

  it('300 deals bulk-updated, one edited by hand since: undo sets 299 back, lists the one as a conflict and leaves it', async () => {
    cwd = workDir();
    await control(fx, 'POST', 'bulk', { collection: 'deals', count: 300 });
    const bulkDeals = async () => byId((await fx.collection<{ id: number; title: string; owner_id: number; update_time: string }>('deals')).filter((d) => d.title.startsWith('Bulk deal ')));
    const before = await bulkDeals();
    expect(before).toHaveLength(300);
    const owner = before[0]!.owner_id === 2 ? 3 : 2;
    const up = await run(['deals', 'bulk-update', '--ids', before.map((d) => d.id).join(','), '--field', `owner_id=${owner}`, '--yes']);
    expect(up.code, up.stderr).toBe(0);
    const id = JSON.parse((await run(['runs', 'list', '--json'])).stdout)[0].id as string;
    const edited = before[150]!.id;
    // By hand to an owner neither the run's nor the one before it (that would be "already undone").
    const byHand = [1, 2, 3].find((u) => u !== owner && u !== before[150]!.owner_id)!;
    const hand = await run(['deals', 'update', String(edited), '--title', 'Edited by hand', '--owner-id', String(byHand)]);
    expect(hand.code, hand.stderr).toBe(0);

    await fx.clearRequests();
    const undo = await run(['undo', id, '--yes']);
    expect(undo.code, `${undo.stdout}\n${undo.stderr}`).toBe(7);
    expect(undo.stdout).toBe(`conflict: deals ${edited} owner_id: the run wrote ${owner}, now ${byHand} (left alone)\nUndo of run ${id}: 0 deleted, 299 set back, 0 created again, 0 already undone; 1 conflicts, 0 failed (undo run ${JSON.parse((await run(['runs', 'list', '--json'])).stdout)[0].id as string}).\n`);
    // The deal edited by hand was read, never written.
    expect((await fx.requests()).filter((r) => r.method !== 'GET' && r.path === `/api/v2/deals/${edited}`)).toEqual([]);
    const after = await bulkDeals();
    const strip = (d: Record<string, unknown>) => Object.fromEntries(Object.entries(d).filter(([k]) => k !== 'update_time'));
    expect(after.map(strip)).toEqual(before.filter((d) => d.id !== edited).map(strip));
    expect((await fx.collection<{ id: number }>('deals')).find((d) => d.id === edited)).toMatchObject({ title: 'Edited by hand', owner_id: byHand });
  }, 180_000);
});
