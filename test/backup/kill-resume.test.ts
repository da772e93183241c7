// Restore killed with SIGKILL at three points (issue 30.8), each followed by --resume, which the next
// point kills again: (1) early in the configuration (the second stage created), (2) mid records (the
// fifth person), (3) during child records (the third deal product). Each kill lands inside the sandbox's
// handling of a create, after the write and before its answer: the record exists and the restore never
// learnt its id. The last --resume finishes; the account then holds every record of the backup exactly
// once (0 duplicates, 0 lost, per kind) and diff says identical.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { existsSync, readdirSync } from 'node:fs';
import { journalEntries, killMidRun, killWhen, workDir } from '../automation/helpers.js';

type Rec = Record<string, any>;
let a: SandboxFixture;
let b: SandboxFixture;
const dir = join(workDir(), 'acme');

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  (b.sandbox.state.company as unknown as Record<string, unknown>).contact_sync_enabled = true;
  const r = await runBin(['backup', '--out', dir], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

/** Kills `crmctl restore DIR [...extra]` inside the n-th create of `object` the sandbox handles. */
function killAt(object: string, n: number, extra: string[] = []): Promise<void> {
  let seen = 0;
  return killWhen(['restore', dir, ...extra], b.env, (kill) => b.sandbox.state.events.on((e) => {
    if (e.action === 'create' && e.object === object && ++seen === n) kill();
  }));
}

/** Records of a collection in B (0 while the collection does not exist yet). */
const count = async (name: string) => ((await b.collection(name)) ?? []).length;

/** The restore's journal entries (DIR/restore/<the one target>/journal). */
function journal(): Rec[] {
  const base = join(dir, 'restore');
  const keys = existsSync(base) ? readdirSync(base) : [];
  return keys.length === 1 ? journalEntries(join(base, keys[0]!, 'journal')) : [];
}

describe('restore killed three times, resumed each time', () => {
  it('config, mid records, child records: 0 duplicates, 0 lost, diff identical', async () => {
    // The configuration's writes raise no webhook events: the kill comes once the account has taken a few writes.
    const base = b.sandbox.state.writeSeq;
    await killMidRun(['restore', dir], b.env, () => b.sandbox.state.writeSeq >= base + 4);
    expect(journal().some((e) => e.type === 'run')).toBe(true);
    expect(journal().some((e) => e.key === 'config'), 'killed before the configuration was done').toBe(false);
    expect(await count('persons')).toBe(0);
    await killAt('person', 5, ['--resume']);
    const persons = await count('persons');
    expect(persons).toBeGreaterThanOrEqual(5);
    expect(persons).toBeLessThan(14);
    await killAt('deal_product', 3, ['--resume']);
    expect(await count('dealProducts')).toBeGreaterThanOrEqual(3);
    expect(await count('dealProducts')).toBeLessThan(9);

    // Killed inside the second installment's create (committed, its answer lost): --resume settles it by looking up the deal's installments.
    await killAt('deal_installment', 2, ['--resume']);
    expect(await count('dealInstallments')).toBe(2);

    const r = await spawnCli(['restore', dir, '--resume'], { env: b.env, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^109 records created\.$/m);

    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const inBackup = (...kinds: string[]) => kinds.reduce((n, k) => n + m.kinds[k].count, 0);
    const expected: Record<string, number> = {
      organizations: inBackup('organizations'), persons: inBackup('persons'), products: inBackup('products'), deals: inBackup('deals', 'deals-archived'),
      dealProducts: inBackup('deal-products'), leads: inBackup('leads', 'leads-archived'), projects: inBackup('projects', 'projects-archived'),
      projectTasks: inBackup('tasks'), activities: inBackup('activities'), notes: inBackup('notes'), noteComments: inBackup('note-comments'),
      dealInstallments: inBackup('deal-installments'), files: inBackup('files'),
    };
    const got: Record<string, number> = {};
    for (const c of Object.keys(expected)) got[c] = (await b.collection(c)).length;
    expect(got).toEqual(expected);
    // No two records of a kind are one record of the backup twice (a duplicate that replaced a lost one would hide in a count).
    const names = (rows: Rec[], f: string) => rows.map((x) => x[f]).sort();
    expect(names(await b.collection('persons'), 'name')).toEqual(names(readFileSync(join(dir, 'records', 'persons.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)), 'name'));
    // The configuration, applied three times over, holds each stage once.
    const stages = (await b.collection<Rec>('stages')).map((s) => `${s.pipeline_id}/${s.name}`);
    expect(stages.length).toBe(new Set(stages).size);

    const d = await runBin(['diff', dir], { env: b.env });
    expect(d.code, d.stdout).toBe(0);
    expect(d.stdout).toMatch(/^Identical\.$/m);
  }, 180_000);
});
