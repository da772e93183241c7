// The read-only halves of dedupe and normalize: the plan (groups, the record kept, the fields that
// differ, the merges that would run) and every value before → after. Off a terminal without --yes
// (and without --dry-run) both stop with exit 2 before reading anything; the writes: *-write.test.ts.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

const api = async () => (await fx.requests()).filter((q) => q.path.startsWith('/api/') || q.path.startsWith('/v1/'));

describe('crmctl dedupe --dry-run', () => {
  it('persons: three groups, the oldest kept, the merges PUT /v1/persons/{id}/merge would make', async () => {
    const r = await runCli(['dedupe', 'persons', '--dry-run', '--json', '--region', 'EE'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ dry_run: true, kind: 'persons', keep: 'oldest', records: 14, merges: 3, cost: 549, undo_reads: 429, undo: expect.stringMatching(/^an undo re-creates each merged record /) });
    expect(plan.groups.map((g: { ids: number[]; keep: number; merges: unknown[] }) => [g.ids, g.keep, g.merges])).toEqual([
      [[1, 11], 1, [{ method: 'PUT', path: '/v1/persons/11/merge', body: { merge_with_id: 1 }, cost: 40, keep_reads: 143, files: 0 }]],
      [[2, 12], 2, [{ method: 'PUT', path: '/v1/persons/12/merge', body: { merge_with_id: 2 }, cost: 40, keep_reads: 143, files: 0 }]],
      [[3, 13], 3, [{ method: 'PUT', path: '/v1/persons/13/merge', body: { merge_with_id: 3 }, cost: 40, keep_reads: 143, files: 0 }]],
    ]);
    const bob = plan.groups[1];
    expect(bob.differences.find((d: { field: string }) => d.field === 'phones').values).toEqual({ 2: '+372 5550 1037', 12: '+37255501037' });
    expect(bob.differences.find((d: { field: string }) => d.field === 'Preferred language').values).toEqual({ 2: '202', 12: '' });
    // Only reads: the persons (one page) and the person fields for names.
    expect((await api()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/persons', 'GET /api/v2/personFields']);
  });

  it('the text plan shows each group side by side and says nothing was changed', async () => {
    const r = await runCli(['dedupe', 'organizations', '--dry-run'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Group 1: organizations 1, 7: same website acme.example.com; same name "Acme Corporation" ~ "Acme Corp."\n  keep 1, oldest (added 2025-01-06); merge 7 into it\n');
    expect(r.stdout).toMatch(/ {2}name +Acme Corporation +Acme Corp\.\n/);
    expect(r.stdout).toMatch(/ {2}Annual revenue +250000\n/);
    expect(r.stdout).toContain('  would call: PUT /v1/organizations/7/merge {"merge_with_id":1} (cost 40)\n');
    // The plan says, before anything is merged, that the service cannot take a merge back.
    expect(r.stdout).toContain("Undo: an undo re-creates each merged record (a new id: the old one cannot come back), moves its deals, activities, notes and leads (an organization's persons too), its deal participations and its followers back to it and sets the kept record's changed fields back; files stay with the kept record (the service cannot move a file back). The run keeps what it needs in reads before the merges: at least 304 of the cost (leads and archived deals have no count: a page each).\n2 groups, 2 merges (cost at least 384); dry run: nothing was changed.\n");
  });

  it('--keep most-complete keeps the record with the most fields filled', async () => {
    const r = await runCli(['dedupe', 'organizations', '--dry-run', '--keep', 'most-complete', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const acme = JSON.parse(r.stdout).groups[0];
    // Acme Corp. (7) has its Annual revenue filled besides the name, owner, website and address both have.
    expect([acme.keep, acme.why_keep]).toEqual([7, 'most complete (5 fields filled)']);
  });

  it('without --dry-run off a terminal and without --yes: exit 2 naming --yes, nothing read or written', async () => {
    const r = await runCli(['dedupe', 'persons', '--keep', 'oldest'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Pass --yes to confirm (no prompt: not a terminal, CI or --no-input).');
    expect(await api()).toEqual([]);
    const bad = await runCli(['dedupe', 'deals', '--dry-run'], { env: fx.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: <kind>: must be persons or organizations (got "deals")');
  });
});

describe('crmctl normalize persons --dry-run', () => {
  it('every phone and e-mail before → after: E.164 when valid (national numbers in --region), e-mails trimmed and lower case', async () => {
    const r = await runCli(['normalize', 'persons', '--phones', 'E164', '--emails', 'lower', '--region', 'EE', '--dry-run', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ id: number; field: string; before: string; after: string; outcome: string; note: string }>;
    expect(rows).toHaveLength(28);
    const of = (id: number, field: string) => rows.filter((x) => x.id === id && x.field === field).map((x) => `${x.before} → ${x.after} (${x.outcome}${x.note ? `: ${x.note}` : ''})`);
    expect(of(1, 'phone')).toEqual(['+372 5550 1000 → +37255501000 (changed)']);
    expect(of(11, 'email')).toEqual(['Alice.Andersson@Example.org → alice.andersson@example.org (changed)']);
    expect(of(12, 'phone')).toEqual(['+37255501037 → +37255501037 (same)']);
    expect(of(13, 'phone')).toEqual(['5550 2000 → +37255502000 (changed)']);
    expect(of(14, 'phone')).toEqual(['12345 → 12345 (kept: not a valid number in EE)']);
    expect(of(14, 'email')).toEqual(['dana.doyle@example → dana.doyle@example (same)']);
    expect((await api()).map((q) => q.path)).toEqual(['/api/v2/persons']);
  });

  it('--changed-only, piped: TSV of the changes only', async () => {
    const r = await runCli(['normalize', 'persons', '--emails', 'lower', '--dry-run', '--changed-only'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('11\tAlice Anderson\temail\tAlice.Andersson@Example.org\talice.andersson@example.org\tchanged\t\n');
  });

  it('refusals before anything is read: no form asked, a write off a terminal without --yes, another kind', async () => {
    const a = await runCli(['normalize', 'persons', '--dry-run'], { env: fx.env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('error: --phones, --emails: give at least one: --phones E164 and/or --emails lower');
    const b = await runCli(['normalize', 'persons', '--phones', 'E164'], { env: fx.env });
    expect(b.code).toBe(2);
    expect(b.stderr).toBe('error: normalize persons writes to the account (one update per person whose values change). Pass --yes to confirm (no prompt: not a terminal, CI or --no-input).\n');
    const c = await runCli(['normalize', 'persons', '--phones', 'e.164', '--dry-run'], { env: fx.env });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain("error: option '--phones <form>' argument 'e.164' is invalid. Allowed choices are E164.");
    expect(await api()).toEqual([]);
  });
});
