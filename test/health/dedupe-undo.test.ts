// undo of a dedupe run (issue 32.2): "a dedupe merges them and `undo` restores them". The service has no
// un-merge: the dedupe keeps, before each merge, the merged record, the kept record's changed fields and
// the ids of the deals, activities and notes (an organization's persons) the merge moves; the undo
// re-creates the merged record (a new id), points those links back at it and sets the kept record back.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { linkDuplicates as linkDuplicatesOf, snapshot as snapshotOf, writes as writesOf } from './dedupe-undo-helpers.js';
import { demoSandboxPerTest, journalEntries, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

type Rec = Record<string, any> & { id: number };
const snapshot = () => snapshotOf(fx);
const linkDuplicates = (cwd: string) => linkDuplicatesOf(fx, cwd);
const writes = () => writesOf(fx);

describe('crmctl undo of a dedupe run', () => {
  it('persons, --keep oldest then undo --yes: every person (name, e-mails, phones, organization) and every deal, activity and note link is as before', async () => {
    const cwd = workDir();
    await linkDuplicates(cwd);
    const before = await snapshot();
    const d = await runBin(['dedupe', 'persons', '--keep', 'oldest', '--region', 'EE', '--yes'], { env: fx.env, cwd });
    expect(d.code, d.stderr).toBe(0);
    const runId = journalEntries(join(cwd, 'persons.dedupe-state.ndjson'))[0].run_id as string;
    const lines = d.stderr.split('\n');
    expect(lines[0]).toBe('Dedupe persons: 3 groups, 3 merges (cost at least 571: 120 the merges, at least 451 the reads that keep what an undo needs), keep oldest:');
    expect(lines).toContain(`  undo: crmctl undo ${runId}; an undo re-creates each merged record (a new id: the old one cannot come back), moves its deals, activities, notes and leads (an organization's persons too), its deal participations and its followers back to it and sets the kept record's changed fields back; files stay with the kept record (the service cannot move a file back)`);
    expect(d.stdout).toBe(`Merged 3 persons into 3 kept; 0 failed (run ${runId}; crmctl undo ${runId} re-creates the merged records).\n`);
    const merged = await snapshot();
    expect(merged).not.toEqual(before);

    await fx.clearRequests();
    const u = await runBin(['undo', runId, '--yes'], { env: fx.env, cwd });
    expect(u.code, u.stderr).toBe(0);
    const plan = u.stderr.split('\n');
    expect(plan[0]).toBe(`Undo of run ${runId} (dedupe persons: merge duplicates, keep oldest):`);
    expect(plan[1]).toBe('  3 persons to create again (the run merged them away; from the content it kept, each with a new id: the old id cannot come back)');
    expect(plan[2]).toMatch(/^ {2}\d+ links? to move back to the re-created records \(deals, activities, notes, leads the merges moved; one changed since is a conflict, left alone\)$/);
    expect(plan[3]).toBe('  3 kept persons to set back (the fields the merges changed)');
    expect(plan[4]).toMatch(/^ {2}cost: up to \d+ /);
    const out = u.stdout.trim().split('\n');
    expect(out.filter((l) => / created again as \d+ \(a new id: the old one cannot come back\)$/.test(l)).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['persons 13', 'persons 12', 'persons 11']);
    expect(out.at(-1)).toMatch(/^Undo of run \S+: 0 deleted, \d+ set back, 3 created again, 0 already undone; 0 conflicts, 0 failed \(undo run \S+\)\.$/);
    expect((await writes()).filter((w) => w.startsWith('POST')).length).toBe(3);
    expect(await snapshot()).toEqual(before);

    // The same undo again sends nothing.
    await fx.clearRequests();
    const again = await runBin(['undo', runId, '--yes'], { env: fx.env, cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(await writes()).toEqual([]);
  }, 90_000);

  it('organizations, --keep oldest then undo --yes: organizations, their persons, deals, activities and notes are as before', async () => {
    const cwd = workDir();
    await linkDuplicates(cwd);
    const before = await snapshot();
    const d = await runBin(['dedupe', 'organizations', '--keep', 'oldest', '--yes'], { env: fx.env, cwd });
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr.split('\n')[0]).toMatch(/^Dedupe organizations: 2 groups, 2 merges \(cost at least \d+: 80 the merges, at least \d+ the reads that keep what an undo needs\), keep oldest:$/);
    const runId = journalEntries(join(cwd, 'organizations.dedupe-state.ndjson'))[0].run_id as string;
    expect(await snapshot()).not.toEqual(before);
    const u = await runBin(['undo', runId, '--yes'], { env: fx.env, cwd });
    expect(u.code, u.stderr + u.stdout).toBe(0);
    expect(u.stderr).toContain('  2 organizations to create again (the run merged them away; from the content it kept, each with a new id: the old id cannot come back)\n');
    expect(u.stderr).not.toContain('kept organizations to set back');
    expect(await snapshot()).toEqual(before);
  }, 90_000);

  it('a deal re-pointed by hand after the merge is a conflict: left alone and listed, the rest taken back, exit 7', async () => {
    const cwd = workDir();
    await linkDuplicates(cwd);
    const d = await runBin(['dedupe', 'persons', '--keep', 'oldest', '--region', 'EE', '--yes'], { env: fx.env, cwd });
    expect(d.code, d.stderr).toBe(0);
    const journal = journalEntries(join(cwd, 'persons.dedupe-state.ndjson'));
    const runId = journal[0].run_id as string;
    // A deal the merge moved from a merged person to the kept one; someone then gives it to person 4.
    const sending = journal.filter((e) => e.status === 'sending');
    const moved = sending.flatMap((e) => (e.links as Array<{ area: string; ids: number[] }>).filter((l) => l.area === 'deals').flatMap((l) => l.ids.map((id) => ({ id, into: (e.sent as { merge_with_id: number }).merge_with_id }))));
    expect(moved.length).toBeGreaterThan(0);
    const deal = moved[0]!;
    const edit = await runBin(['deals', 'update', String(deal.id), '--person-id', '4'], { env: fx.env, cwd });
    expect(edit.code, edit.stderr).toBe(0);

    await fx.clearRequests();
    const u = await runBin(['undo', runId, '--yes'], { env: fx.env, cwd });
    expect(u.code, u.stderr).toBe(7);
    expect(u.stdout).toContain(`conflict: deals ${deal.id} person_id: the run wrote ${deal.into}, now 4 (left alone)\n`);
    expect(u.stdout).toMatch(/3 created again, 0 already undone; 1 conflicts, 0 failed/);
    expect((await writes()).filter((w) => w.includes(`/deals/${deal.id}`))).toEqual([]);
    const now = (await fx.collection<Rec>('deals')).find((x) => x.id === deal.id)!;
    expect(now.person_id).toBe(4);
  }, 90_000);
});
