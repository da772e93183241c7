// normalize persons --yes (issue 32.2): the planned before → after values written as a run, each update
// journaled with the values it replaced so `undo` sets them back; off a terminal without --yes nothing
// is read or sent; a killed run continues with --resume and writes no person twice.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { control, demoSandboxPerTest, journalEntries, killMidRun, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

type Contact = { value: string; label?: string; primary?: boolean };
type Person = { id: number; phones?: Contact[]; emails?: Contact[] };
const ARGS = ['normalize', 'persons', '--phones', 'E164', '--emails', 'lower', '--region', 'EE'];
const contacts = async () => (await fx.collection<Person>('persons')).map((p) => ({ id: p.id, phones: p.phones ?? [], emails: p.emails ?? [] }));
const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');

/** The sandbox's persons with the dry run's "after" put in place of each changed value: what the write must leave. */
async function planned(cwd: string): Promise<Awaited<ReturnType<typeof contacts>>> {
  const dry = await runBin([...ARGS, '--dry-run', '--json'], { env: fx.env, cwd });
  expect(dry.code, dry.stderr).toBe(0);
  const rows = JSON.parse(dry.stdout) as Array<{ id: number; field: 'phone' | 'email'; before: string; after: string; outcome: string }>;
  const after = (id: number, field: 'phone' | 'email', value: string) => rows.find((r) => r.id === id && r.field === field && r.before === value && r.outcome === 'changed')?.after ?? value;
  return (await contacts()).map((p) => ({
    id: p.id,
    phones: p.phones.map((c) => ({ ...c, value: after(p.id, 'phone', c.value) })),
    emails: p.emails.map((c) => ({ ...c, value: after(p.id, 'email', c.value) })),
  }));
}

describe('crmctl normalize persons --yes', () => {
  it('writes exactly the planned values, one PATCH per changed person; undo --last --yes restores every phone and e-mail', async () => {
    const cwd = workDir();
    const before = await contacts();
    const want = await planned(cwd);
    const changedIds = want.filter((p, i) => JSON.stringify(p) !== JSON.stringify(before[i])).map((p) => p.id);
    expect(changedIds.length).toBeGreaterThan(3);
    await fx.clearRequests();
    const r = await runBin([...ARGS, '--yes'], { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('  1 Alice Andersson: phone +372 5550 1000 → +37255501000\n');
    expect(r.stderr).toContain('  13 ');
    const journal = journalEntries(join(cwd, 'persons.normalize-state.ndjson'));
    const runId = journal[0].run_id as string;
    expect(journal[0]).toMatchObject({ type: 'run', kind: 'normalize', area: 'persons' });
    expect(r.stdout).toMatch(new RegExp(`^Normalized \\d+ values of ${changedIds.length} persons; 0 failed \\(run ${runId}; crmctl undo ${runId} sets them back\\)\\.\\n$`));
    expect(await contacts()).toEqual(want);
    expect((await writes()).map((w) => `${w.method} ${w.path}`)).toEqual(changedIds.map((id) => `PATCH /api/v2/persons/${id}`));
    // Entries as bulk-update writes them: "sending" with the body and the values it replaces, then done.
    const sending = journal.filter((e) => e.status === 'sending');
    expect(sending.map((e) => e.record)).toEqual(changedIds);
    const bob = before.find((p) => p.id === sending[0].record)!;
    expect(sending[0]).toMatchObject({ op: 'update', prior: Object.fromEntries(Object.keys(sending[0].sent).map((k) => [k, (bob as Record<string, unknown>)[k]])) });

    await fx.clearRequests();
    const undo = await runBin(['undo', '--last', '--yes'], { env: fx.env, cwd });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain(`Undo of run ${runId} (normalize persons: phones E164, emails lower (region EE)):\n  ${changedIds.length} persons to set back (fields the run changed)\n`);
    expect(await contacts()).toEqual(before);
  }, 60_000);

  it('off a terminal without --yes: exit 2 naming --yes, nothing read or sent', async () => {
    const cwd = workDir();
    await fx.clearRequests();
    const r = await runBin(ARGS, { env: fx.env, cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: normalize persons writes to the account (one update per person whose values change). Pass --yes to confirm (no prompt: not a terminal, CI or --no-input).\n');
    expect(await fx.requests()).toEqual([]);
  });

  it('kill -9 mid-run, then --resume: every planned value written, no person written twice, undo restores all', async () => {
    const cwd = workDir();
    const before = await contacts();
    const want = await planned(cwd);
    await control(fx, 'PUT', 'faults', { latencyMs: 40, seed: 3 });
    await fx.clearRequests();
    const path = join(cwd, 'persons.normalize-state.ndjson');
    await killMidRun([...ARGS, '--yes', '--state', path], { ...fx.env }, () => journalEntries(path).filter((e) => e.status === 'done').length >= 2);
    await control(fx, 'PUT', 'faults', {});
    const plain = await runBin([...ARGS, '--yes', '--state', path], { env: fx.env, cwd });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('Continue it with --resume');
    const r = await runBin([...ARGS, '--yes', '--resume', '--state', path], { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(await contacts()).toEqual(want);
    const patched = (await writes()).map((w) => w.path);
    expect(new Set(patched).size).toBe(patched.length);
    const undo = await runBin(['undo', '--last', '--yes'], { env: fx.env, cwd });
    expect(undo.code, undo.stderr).toBe(0);
    expect(await contacts()).toEqual(before);
  }, 60_000);
});
