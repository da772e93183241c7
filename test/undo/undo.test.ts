// crmctl undo (issue 31): a run taken back from its journal alone; conflicts left alone; itself a run
// (resumable after kill -9, exactly once); never across accounts; undo of an undo redoes.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, demoSandboxPerTest, journalEntries, killMidRun, killWhen, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});
let other: SandboxFixture;
beforeAll(async () => {
  other = await startFixture();
});
afterAll(async () => other?.close());

let cwd = '';
const run = (args: string[], env: Record<string, string> = fx.env) => runBin(args, { env, cwd });
const writes = async (f: SandboxFixture = fx) => (await f.requests()).filter((r) => r.method !== 'GET');
const origin = (f: SandboxFixture) => new URL(f.sandbox.url).origin;
const runsDir = () => join(fx.env.CRMCTL_CONFIG_DIR!, 'runs');
/** The id of the newest run of this account, as `runs list --json` gives it. */
const newestRun = async () => JSON.parse((await run(['runs', 'list', '--json'])).stdout)[0].id as string;

/** Imports `n` persons from a CSV file and returns the run's id. */
async function importPersons(n: number): Promise<string> {
  cwd = workDir();
  const rows = Array.from({ length: n }, (_, i) => `Undo Person ${i + 1},undo${i + 1}@example.com,1`).join('\n');
  writeFileSync(join(cwd, 'persons.csv'), `name,email,org_id\n${rows}\n`);
  const imp = await run(['import', 'persons', '--file', 'persons.csv']);
  expect(imp.code, imp.stderr).toBe(0);
  expect(imp.stdout).toBe(`Imported ${n} persons; 0 failed, 0 skipped. Results: persons.csv.results.ndjson\n`);
  return journalEntries(join(cwd, 'persons.csv.import-state.json'))[0].run_id;
}

describe('undo of an import', () => {
  it('an import of 50 persons, then undo --yes: the persons are those before the import; runs list shows both runs', async () => {
    const before = await fx.collection('persons');
    const id = await importPersons(50);
    expect((await fx.collection('persons')).length).toBe(before.length + 50);
    await fx.clearRequests();
    const r = await run(['undo', id, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([`Undo of run ${id} (import persons from persons.csv):`, '  50 persons to delete (the run created them)']);
    expect(r.stderr).toMatch(/^ {2}cost: up to 200 \(each record is read before it is written; a record changed since the run is a conflict, left alone\)(; [\d,]+ left today)?$/m);
    const undoId = await newestRun();
    expect(r.stdout).toBe(`Undo of run ${id}: 50 deleted, 0 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed (undo run ${undoId}).\n`);
    // The account's persons equal the snapshot before the import, field by field.
    expect(await fx.collection('persons')).toEqual(before);
    const deletes = (await writes()).map((w) => `${w.method} ${w.path}`);
    expect(deletes.length).toBe(50);
    expect(new Set(deletes).size).toBe(50);
    expect(deletes.every((d) => /^DELETE \/api\/v2\/persons\/\d+$/.test(d))).toBe(true);

    // runs list (TSV piped): the undo, then the import, who ran them (a script: not a terminal), what each wrote and cost.
    const list = await run(['runs', 'list']);
    expect(list.code).toBe(0);
    const account = `company 1 (user 1) at ${origin(fx)}`;
    expect(list.stdout.split('\n').filter(Boolean).map((l) => l.split('\t').filter((_, i) => i !== 1))).toEqual([
      [undoId, 'undo', 'script', account, `crmctl undo ${id} --yes`, '50', '200', 'done'],
      [id, 'import', 'script', account, 'crmctl import persons --file persons.csv', '50', '252', 'done'],
    ]);
    // runs show: the undo's outcome per record.
    const show = await run(['runs', 'show', undoId, '--json']);
    const doc = JSON.parse(show.stdout);
    expect(doc).toMatchObject({ id: undoId, kind: 'undo', written: 50, status: 'done', summary: '50 deleted, 0 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed' });
    expect(doc.items.length).toBe(50);
    const created = JSON.parse((await run(['runs', 'show', id, '--json'])).stdout).items.find((i: { key: string }) => i.key === '2');
    expect(created).toEqual({ key: '2', op: 'create', record: null, status: 'done', action: null, id: expect.any(Number), error: null });
    expect(doc.items.find((i: { key: string }) => i.key === '2')).toEqual({ key: '2', op: 'delete', record: created.id, status: 'done', action: 'deleted', id: null, error: null });

    // The run records and journals never hold the access token.
    const token = fx.env.CRMCTL_ACCESS_TOKEN!;
    for (const runId of [id, undoId]) {
      const rec = readFileSync(join(runsDir(), `${runId}.json`), 'utf8');
      expect(rec).not.toContain(token);
      expect(readFileSync(JSON.parse(rec).journal, 'utf8')).not.toContain(token);
    }

    // Done: the same undo again sends nothing.
    await fx.clearRequests();
    const again = await run(['undo', id, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`^Undo already done at \\S+: 50 deleted, 0 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed \\(run ${undoId}\\); nothing sent\\. --new-run to start again\\.\\n$`));
    expect(await writes()).toEqual([]);
  }, 60_000);

  it('undo of the undo creates the persons again (with their fields), and its undo deletes them', async () => {
    const id = await importPersons(3);
    const imported = (await fx.collection<Record<string, unknown>>('persons')).filter((p) => String(p.name).startsWith('Undo Person'));
    expect((await run(['undo', id, '--yes'])).code).toBe(0);
    const undoId = await newestRun();
    const redo = await run(['undo', undoId, '--yes']);
    expect(redo.code, redo.stderr).toBe(0);
    expect(redo.stderr.split('\n').slice(0, 2)).toEqual([`Undo of run ${undoId} (undo of run ${id} (import persons from persons.csv)):`, '  3 persons to create again (the run deleted them, from the content it kept)']);
    const redoId = await newestRun();
    expect(redo.stdout).toBe(`Undo of run ${undoId}: 0 deleted, 0 set back, 3 created again, 0 already undone; 0 conflicts, 0 failed (undo run ${redoId}).\n`);
    const fields = (p: Record<string, unknown>) => ({ name: p.name, emails: p.emails, org_id: p.org_id, owner_id: p.owner_id, visible_to: p.visible_to });
    const again = (await fx.collection<Record<string, unknown>>('persons')).filter((p) => String(p.name).startsWith('Undo Person'));
    expect(again.map(fields)).toEqual(imported.map(fields));
    // New ids: the service never gives a deleted record's id again.
    expect(again.some((p) => imported.some((q) => q.id === p.id))).toBe(false);
    const third = await run(['undo', redoId, '--yes']);
    expect(third.code, third.stderr).toBe(0);
    expect((await fx.collection<Record<string, unknown>>('persons')).filter((p) => String(p.name).startsWith('Undo Person'))).toEqual([]);
  }, 60_000);

  it('--dry-run prints the plan and sends no write; off a terminal without --yes: exit 2 naming --yes, nothing sent', async () => {
    const id = await importPersons(5);
    await fx.clearRequests();
    const dry = await run(['undo', id, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe('Dry run: nothing was written.\n');
    expect(dry.stderr.split('\n').slice(0, 2)).toEqual([`Undo of run ${id} (import persons from persons.csv):`, '  5 persons to delete (the run created them)']);
    const json = await run(['undo', id, '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ dry_run: true, run: id, area: 'persons', to_delete: 5, to_set_back: 0, to_create_again: 0, cannot: [], cost: 20 });
    const noYes = await run(['undo', id]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr.split('\n').slice(-2)).toEqual([`error: Undo run ${id}: delete 5 persons? Pass --yes to confirm (no prompt: not a terminal, CI or --no-input).`, '']);
    expect(await writes()).toEqual([]);
    expect((await fx.collection<Record<string, unknown>>('persons')).filter((p) => String(p.name).startsWith('Undo Person')).length).toBe(5);
    // Nothing was started: the real undo is a new run, not a resume.
    expect(existsSync(join(runsDir(), 'undo', `${id}.ndjson`))).toBe(false);
  }, 60_000);

  it('a run of another account is refused (exit 2 naming both accounts), nothing sent there; --last finds none there', async () => {
    const id = await importPersons(2);
    const otherEnv = { ...other.env, CRMCTL_CONFIG_DIR: fx.env.CRMCTL_CONFIG_DIR! };
    await other.clearRequests();
    const r = await run(['undo', id, '--yes'], otherEnv);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: run ${id} belongs to company 1 (user 1) at ${origin(fx)}; this command acts on company 1 (user 1) at ${origin(other)}. An undo never crosses accounts.\nhint: Undo it with the credentials of that account (--profile NAME).\n`);
    const last = await run(['undo', '--last', '--yes'], otherEnv);
    expect(last.code).toBe(2);
    expect(last.stderr).toBe(`error: --last: this account (company 1 (user 1) at ${origin(other)}) has no run that wrote anything\nhint: crmctl runs list --all-accounts shows the runs of every account.\n`);
    expect(await writes(other)).toEqual([]);
    // runs list shows only this account's runs; --all-accounts shows the others, naming their account.
    expect((await run(['runs', 'list'], otherEnv)).stdout).toBe('');
    const all = await run(['runs', 'list', '--all-accounts', '--output', 'ndjson', '--fields', 'id,account'], otherEnv);
    expect(all.stdout.split('\n')[0]).toBe(JSON.stringify({ id, account: `company 1 (user 1) at ${origin(fx)}` }));
  }, 60_000);

  it('kill -9 during an undo, then undo ID --resume: every person deleted once, no DELETE sent twice', async () => {
    const before = await fx.collection('persons');
    const id = await importPersons(40);
    await control(fx, 'PUT', 'faults', { latencyMs: 30, seed: 3 });
    await fx.clearRequests();
    const journal = join(runsDir(), 'undo', `${id}.ndjson`);
    await killMidRun(['undo', id, '--yes', '--concurrency', '2'], { ...fx.env }, () => journalEntries(journal).filter((e) => e.status === 'done').length >= 5);
    await control(fx, 'PUT', 'faults', {});
    const first = (await writes()).length;
    expect(first).toBeGreaterThanOrEqual(5);
    expect(first).toBeLessThan(40);
    // Without --resume: exit 2 naming it.
    const plain = await run(['undo', id, '--yes']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(new RegExp(`^error: an unfinished undo run \\([0-9a-f]{12}, started [^,]+, undo of run ${id} \\(import persons from persons\\.csv\\)\\) has its journal in ${journal.replace(/[.]/g, '\\.')}\\n`));
    const r = await run(['undo', id, '--yes', '--resume']);
    expect(r.code, r.stderr).toBe(0);
    const deletes = (await writes()).map((w) => `${w.method} ${w.path}`);
    expect(deletes.length).toBe(40);
    expect(new Set(deletes).size).toBe(40);
    expect(await fx.collection('persons')).toEqual(before);
  }, 90_000);
  it('kill -9 right after a delete landed and before its answer, then --resume: that person is read (gone), not deleted again', async () => {
    const before = await fx.collection('persons');
    const id = await importPersons(12);
    await control(fx, 'PUT', 'faults', { latencyMs: 150, seed: 5 });
    await fx.clearRequests();
    let deletes = 0;
    await killWhen(['undo', id, '--yes'], { ...fx.env }, (kill) => fx.sandbox.state.events.on((e) => {
      if (e.action === 'delete' && e.object === 'person' && ++deletes === 3) kill();
    }));
    await new Promise((r) => setTimeout(r, 400));
    await control(fx, 'PUT', 'faults', {});
    // The journal has deletes announced whose answers never came back.
    const entries = journalEntries(join(runsDir(), 'undo', `${id}.ndjson`));
    const settledKeys = new Set(entries.filter((e) => e.status === 'done').map((e) => e.key));
    expect(entries.filter((e) => e.status === 'sending' && !settledKeys.has(e.key)).length).toBeGreaterThan(0);
    const r = await run(['undo', id, '--yes', '--resume']);
    expect(r.code, r.stderr).toBe(0);
    const sent = (await writes()).map((w) => `${w.method} ${w.path}`);
    expect(sent.length).toBe(12);
    expect(new Set(sent).size).toBe(12);
    expect(await fx.collection('persons')).toEqual(before);
  }, 60_000);

  it('kill -9 while the undo of an undo creates persons again, then --resume: each person exists once (a create cut off is looked up)', async () => {
    const id = await importPersons(8);
    expect((await run(['undo', id, '--yes'])).code).toBe(0);
    const undoId = await newestRun();
    await control(fx, 'PUT', 'faults', { latencyMs: 150, seed: 2 });
    let creates = 0;
    await killWhen(['undo', undoId, '--yes'], { ...fx.env }, (kill) => fx.sandbox.state.events.on((e) => {
      if (e.action === 'create' && e.object === 'person' && ++creates === 3) kill();
    }));
    await new Promise((r) => setTimeout(r, 400));
    await control(fx, 'PUT', 'faults', {});
    const r = await run(['undo', undoId, '--yes', '--resume']);
    expect(r.code, r.stderr).toBe(0);
    const names = (await fx.collection<Record<string, unknown>>('persons')).filter((p) => String(p.name).startsWith('Undo Person')).map((p) => p.name).sort();
    expect(names).toEqual(Array.from({ length: 8 }, (_, i) => `Undo Person ${i + 1}`).sort());
  }, 60_000);
});

describe('bad input', () => {
  it('undo without a run, with both a run and --last, or of an unknown run; runs show of an unknown run: named, nothing sent', async () => {
    cwd = workDir();
    await fx.clearRequests();
    const none = await run(['undo', '--yes']);
    expect([none.code, none.stderr]).toEqual([2, 'error: <id>: give the id of the run to undo (crmctl runs list shows them), or --last\n']);
    const both = await run(['undo', 'abc', '--last', '--yes']);
    expect([both.code, both.stderr]).toEqual([2, 'error: <id>, --last: give a run id or --last, not both\n']);
    const unknown = await run(['undo', 'feedfeedfeed', '--yes']);
    expect([unknown.code, unknown.stderr]).toEqual([5, `error: run feedfeedfeed: no such run in ${runsDir()}\nhint: crmctl runs list shows the runs of this account.\n`]);
    const show = await run(['runs', 'show', 'feedfeedfeed']);
    expect([show.code, show.stderr]).toEqual([5, `error: run feedfeedfeed: no such run in ${runsDir()}\nhint: crmctl runs list shows the runs of this account (--all-accounts: of every account).\n`]);
    expect(await writes()).toEqual([]);
  });
});

describe('undo of a bulk update', () => {
  it('open deals set to owner 2, deal 4 then given to owner 1 by hand: undo sets back the others, lists deal 4 as a conflict and leaves it', async () => {
    cwd = workDir();
    const before = await fx.collection<Record<string, unknown>>('deals');
    const bulk = await run(['deals', 'bulk-update', '--status', 'open', '--field', 'owner_id=2', '--yes']);
    expect(bulk.code, bulk.stderr).toBe(0);
    const id = await newestRun();
    const hand = await run(['deals', 'update', '4', '--owner-id', '1']);
    expect(hand.code, hand.stderr).toBe(0);
    await fx.clearRequests();
    const r = await run(['undo', id, '--yes']);
    expect(r.code).toBe(7);
    const undoId = await newestRun();
    expect(r.stdout).toBe(`conflict: deals 4 owner_id: the run wrote 2, now 1 (left alone)\nUndo of run ${id}: 0 deleted, 6 set back, 0 created again, 0 already undone; 1 conflicts, 0 failed (undo run ${undoId}).\n`);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([`Undo of run ${id} (bulk-update deals --status open: sets {"owner_id":2}):`, '  7 deals to set back (fields the run changed)']);
    expect(r.stderr).toContain(`error: 1 of 7 deals were not undone (1 changed since the run, 0 failed)\nhint: A conflict is a record someone changed since the run: it is left alone. crmctl undo ${id} --new-run --force writes over them (records already undone are read and left as they are).\n`);
    const after = await fx.collection<Record<string, unknown>>('deals');
    const owners = (ds: Array<Record<string, unknown>>) => Object.fromEntries(ds.map((d) => [d.id, d.owner_id]));
    expect(owners(after)).toEqual({ ...owners(before), 4: 1 });
    // Deal 4 was read, never written.
    expect((await writes()).map((w) => w.path).sort()).toEqual(['/api/v2/deals/1', '/api/v2/deals/14', '/api/v2/deals/15', '/api/v2/deals/17', '/api/v2/deals/5', '/api/v2/deals/7']);

    // --force writes over it; the rest are read and left as they are.
    await fx.clearRequests();
    const force = await run(['undo', id, '--yes', '--force', '--new-run']);
    expect(force.code, force.stderr).toBe(0);
    expect(force.stdout).toMatch(/^Undo of run \w+: 0 deleted, 1 set back, 0 created again, 6 already undone; 0 conflicts, 0 failed \(undo run \w+\)\.\n$/);
    expect((await writes()).map((w) => `${w.method} ${w.path} ${JSON.stringify(w.body)}`)).toEqual(['PATCH /api/v2/deals/4 {"owner_id":3}']);
    expect(owners(await fx.collection('deals'))).toEqual(owners(before));

    // Undo of that undo redoes: deal 4 back to what the forced undo found (owner 1).
    const forceId = await newestRun();
    const redo = await run(['undo', forceId, '--yes']);
    expect(redo.code, redo.stderr).toBe(0);
    expect(owners(await fx.collection('deals'))).toEqual({ ...owners(before), 4: 1 });
  }, 60_000);
});
