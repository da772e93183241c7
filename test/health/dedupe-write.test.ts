// dedupe persons|organizations --yes (issue 32.2): each duplicate group merged into the record the rule
// keeps, through the service's merge operation, as a run whose journal records every merge; the plan
// and `undo` say merges cannot be undone; off a terminal without --yes nothing is read or merged.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { control, demoSandboxPerTest, journalEntries, killWhen, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

type Rec = { id: number; is_deleted?: boolean };
const alive = async (kind: string) => (await fx.collection<Rec>(kind)).filter((r) => r.is_deleted !== true).map((r) => r.id);
const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`);

describe('crmctl dedupe --yes', () => {
  it('persons, --keep oldest: the three dirt pairs merged into the oldest; the journal keeps what an undo needs', async () => {
    const cwd = workDir();
    const before = await alive('persons');
    await fx.clearRequests();
    const r = await runBin(['dedupe', 'persons', '--keep', 'oldest', '--region', 'EE', '--yes'], { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    const journal = journalEntries(join(cwd, 'persons.dedupe-state.ndjson'));
    const runId = journal[0].run_id as string;
    expect(r.stderr).toContain('Dedupe persons: 3 groups, 3 merges (cost at least 549: 120 the merges, at least 429 the reads that keep what an undo needs), keep oldest:\n  keep 1 (oldest (added ');
    expect(r.stdout).toBe(`Merged 3 persons into 3 kept; 0 failed (run ${runId}; crmctl undo ${runId} re-creates the merged records).\n`);
    expect(await writes()).toEqual([
      'PUT /api/v1/persons/11/merge {"merge_with_id":1}',
      'PUT /api/v1/persons/12/merge {"merge_with_id":2}',
      'PUT /api/v1/persons/13/merge {"merge_with_id":3}',
    ]);
    expect(await alive('persons')).toEqual(before.filter((id) => ![11, 12, 13].includes(id)));
    expect(journal[0]).toMatchObject({ type: 'run', kind: 'dedupe', area: 'persons', keep: 'oldest' });
    expect(journal.filter((e) => e.status === 'sending').map((e) => [e.key, e.op, e.record, e.sent])).toEqual([
      ['merge:11', 'update', 11, { merge_with_id: 1 }],
      ['merge:12', 'update', 12, { merge_with_id: 2 }],
      ['merge:13', 'update', 13, { merge_with_id: 3 }],
    ]);

    // The merged record whole, the kept one's contacts and organization, and the links moved (none here).
    const first = journal.find((e) => e.status === 'sending' && e.key === 'merge:11');
    expect(first.deleted).toMatchObject({ id: 11 });
    expect(Object.keys(first.kept.prior)).toEqual(['emails', 'phones', 'org_id']);
    expect(first.links.map((l: { area: string; field: string }) => `${l.area}.${l.field}`)).toEqual(['deals.person_id', 'activities.person_id', 'notes.person_id', 'leads.person_id']);
    // The deals it takes part in (none), the users following it and its kept person (the seed's), its files (none).
    expect({ participants: first.participants, followers: first.followers, files: first.files }).toEqual({ participants: [], followers: { moved: [], kept_before: [1, 2] }, files: 0 });
  }, 60_000);

  it('organizations, --keep most-complete: one record per group is left, the one the rule keeps', async () => {
    const cwd = workDir();
    const dry = await runBin(['dedupe', 'organizations', '--keep', 'most-complete', '--dry-run', '--json'], { env: fx.env, cwd });
    expect(dry.code, dry.stderr).toBe(0);
    const groups = JSON.parse(dry.stdout).groups as Array<{ ids: number[]; keep: number }>;
    expect(groups.length).toBe(2);
    // Acme Corp. (7) has more fields filled than Acme Corporation (1): the rule keeps the newer one.
    expect(groups[0]).toMatchObject({ ids: [1, 7], keep: 7 });
    const before = await alive('organizations');
    const r = await runBin(['dedupe', 'organizations', '--keep', 'most-complete', '--yes'], { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    const gone = groups.flatMap((g) => g.ids.filter((id) => id !== g.keep));
    expect(await alive('organizations')).toEqual(before.filter((id) => !gone.includes(id)));
    for (const g of groups) expect(g.ids.filter((id) => before.includes(id) && !gone.includes(id))).toEqual([g.keep]);
    // Run again: no duplicates are left, nothing is merged.
    await fx.clearRequests();
    const again = await runBin(['dedupe', 'organizations', '--keep', 'most-complete', '--yes', '--new-run'], { env: fx.env, cwd });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('Dedupe organizations: 0 groups, 0 merges (cost at least 0: 0 the merges, at least 0 the reads that keep what an undo needs), keep most-complete:\n');
    expect(await writes()).toEqual([]);
  }, 60_000);

  it('kill -9 right after the second merge landed (before its answer), then --resume: each group merged once, no merge sent twice', async () => {
    const cwd = workDir();
    const state = join(cwd, 'persons.dedupe-state.ndjson');
    const before = await alive('persons');
    // Answers held back a little, so the kill lands between a merge done and its answer read.
    await control(fx, 'PUT', 'faults', { latencyMs: 150, seed: 5 });
    await fx.clearRequests();
    let merged = 0;
    const args = ['dedupe', 'persons', '--keep', 'oldest', '--region', 'EE', '--yes', '--state', state];
    await killWhen(args, { ...fx.env }, (kill) => fx.sandbox.state.events.on((e) => {
      if (e.action === 'delete' && e.object === 'person' && ++merged === 2) kill();
    }));
    await new Promise((r) => setTimeout(r, 400));
    await control(fx, 'PUT', 'faults', {});
    // Stopped mid-run: two merges landed, the second announced and never answered, the third not sent.
    const entries = journalEntries(state);
    const answered = new Set(entries.filter((e) => e.status === 'done').map((e) => e.key));
    expect(entries.filter((e) => e.status === 'sending' && !answered.has(e.key)).map((e) => e.key)).toContain('merge:12');
    expect(await writes()).toEqual(['PUT /api/v1/persons/11/merge {"merge_with_id":1}', 'PUT /api/v1/persons/12/merge {"merge_with_id":2}']);

    const r = await runBin([...args, '--resume'], { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('cut off by a stop: the merged record is read first, never merged twice');
    // The resumed run reads the cut-off merge's record (gone: merged) and sends only the one never sent.
    const sent = await writes();
    expect(sent).toEqual([
      'PUT /api/v1/persons/11/merge {"merge_with_id":1}',
      'PUT /api/v1/persons/12/merge {"merge_with_id":2}',
      'PUT /api/v1/persons/13/merge {"merge_with_id":3}',
    ]);
    expect(await alive('persons')).toEqual(before.filter((id) => ![11, 12, 13].includes(id)));
    const runId = journalEntries(state)[0].run_id as string;
    expect(r.stdout).toBe(`Merged 2 persons into 2 kept; 0 failed (run ${runId}; crmctl undo ${runId} re-creates the merged records).\n`);
  }, 60_000);

  it('off a terminal without --yes: exit 2 naming --yes, nothing read or merged', async () => {
    await fx.clearRequests();
    const r = await runBin(['dedupe', 'persons', '--keep', 'oldest'], { env: fx.env, cwd: workDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: dedupe persons merges duplicates (--dry-run shows the plan; crmctl undo re-creates the merged records with new ids). Pass --yes to confirm (no prompt: not a terminal, CI or --no-input).\n');
    expect(await fx.requests()).toEqual([]);
  });
});
