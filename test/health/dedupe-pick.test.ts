// dedupe persons|organizations on a terminal without --keep (issue 32.2): each group shown side by
// side, a person picks the record kept (the most complete is the default) or skips the group; off a
// terminal without --keep: exit 2 naming --keep, nothing read.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { runWithPrompts, type Asked } from '../ux/helpers.js';
import { demoSandboxPerTest, journalEntries, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${JSON.stringify(r.body)}`);
const defaultOf = (q: Asked) => (q as Asked & { default?: unknown }).default;

describe('crmctl dedupe on a terminal without --keep', () => {
  it('asks per group (default: the most complete), merges into the record picked, skips a skipped group', async () => {
    const cwd = workDir();
    const state = join(cwd, 'persons.dedupe-state.ndjson');
    const defaults: unknown[] = [];
    const r = await runWithPrompts(['dedupe'], ['persons'], { region: 'EE', state }, fx.env, [
      /^keep 11 /,
      'skip this group (merge nothing)',
      (q) => {
        defaults.push(defaultOf(q));
        return defaultOf(q);
      },
      true,
    ], {});
    expect(r.error, r.stderr).toBeUndefined();
    expect(r.asked.map((q) => [q.kind, q.message, q.flag])).toEqual([
      ['select', 'Group 1 of 3: which person is kept (the others are merged into it)?', '--keep'],
      ['select', 'Group 2 of 3: which person is kept (the others are merged into it)?', '--keep'],
      ['select', 'Group 3 of 3: which person is kept (the others are merged into it)?', '--keep'],
      ['confirm', 'Merge 2 persons?', '--yes'],
    ]);
    expect(r.asked[0]!.choices!.map((c) => c.name)).toEqual([
      'keep 1 Alice Andersson, added 2025-01-06, 14 fields filled (most complete)',
      'keep 11 Alice Anderson, added 2025-01-20, 5 fields filled',
      'skip this group (merge nothing)',
    ]);
    expect(defaultOf(r.asked[0]!)).toBe(1);
    expect(defaults).toEqual([3]);
    // Each group side by side before its question, no survivor marked (the person picks it).
    expect(r.stderr).toContain([
      'Group 2: persons 2, 12: same phone +37255501037; same name "Bob Berzins" ~ "Bob Bērziņš"',
      '  field               2                        12',
      '  name                Bob Berzins              Bob Bērziņš',
      '  emails              bob.berzins@example.org  bob@globex.example.com',
      '  phones              +372 5550 1037           +37255501037',
      '  job_title           CFO',
      '  label_ids           2',
      '  Preferred language  202',
      '',
    ].join('\n'));
    // The plan before the confirmation: the picks, the skipped group left out.
    expect(r.stderr).toContain('Dedupe persons: 2 groups, 2 merges (cost at least 387: 80 the merges, at least 307 the reads that keep what an undo needs), keep picked:\n  keep 11 (picked); merge 1 into it\n  keep 3 (most complete (8 fields filled), picked); merge 13 into it\n');
    expect(await writes()).toEqual(['PUT /api/v1/persons/1/merge {"merge_with_id":11}', 'PUT /api/v1/persons/13/merge {"merge_with_id":3}']);
    expect(journalEntries(state)[0]).toMatchObject({ type: 'run', kind: 'dedupe', area: 'persons', keep: 'picked' });
  }, 60_000);

  it('every group skipped: nothing asked to confirm, nothing merged', async () => {
    const state = join(workDir(), 'state.ndjson');
    const skip = 'skip this group (merge nothing)';
    const r = await runWithPrompts(['dedupe'], ['persons'], { region: 'EE', state }, fx.env, [skip, skip, skip], {});
    expect(r.error, r.stderr).toBeUndefined();
    expect(r.asked.map((q) => q.kind)).toEqual(['select', 'select', 'select']);
    expect(r.stderr).toContain('Dedupe persons: 0 groups, 0 merges (cost at least 0: 0 the merges, at least 0 the reads that keep what an undo needs), keep picked:\n');
    expect(await writes()).toEqual([]);
  }, 60_000);
});

describe('crmctl dedupe off a terminal', () => {
  it('without --keep: exit 2 naming --keep (and --yes when it is missing too), nothing read', async () => {
    await fx.clearRequests();
    const both = await runBin(['dedupe', 'organizations'], { env: fx.env, cwd: workDir() });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: missing --keep: which record of each group is kept is asked only on a terminal; pass --keep oldest or --keep most-complete, and --yes to confirm the merges (no prompt: not a terminal, CI or --no-input)\n');
    const keepOnly = await runBin(['dedupe', 'persons', '--yes'], { env: fx.env, cwd: workDir() });
    expect(keepOnly.code).toBe(2);
    expect(keepOnly.stderr).toBe('error: missing --keep: which record of each group is kept is asked only on a terminal; pass --keep oldest or --keep most-complete (no prompt: not a terminal, CI or --no-input)\n');
    expect(await fx.requests()).toEqual([]);
  });
});
