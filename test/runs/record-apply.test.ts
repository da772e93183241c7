// apply and destroy are runs of the record of changes (issue 31.1): each write is an item of one run,
// listed by `runs list`, and `crmctl undo` takes the whole command back: an apply's creates deleted and
// its updates set back, a destroy's deletes created again from the content read before each delete.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBin, tempConfigDir } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest, journalEntries } from '../automation/helpers.js';
import { writeFixtures } from '../fixtures/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});

let env: Record<string, string> = {};
const run = (args: string[]) => runBin(args, { env });
const listJson = async () => JSON.parse((await run(['runs', 'list', '--json'])).stdout) as Array<Record<string, unknown>>;
const leads = async () => (await fx.collection<{ id: string; title: string; expected_close_date: string | null }>('leads')).filter((l) => l.title.startsWith('Record '));
const labels = async () => (await fx.collection<{ id: string; name: string; color: string }>('leadLabels')).filter((l) => l.name.startsWith('Record '));
const FIXTURES = (title: string) => [
  '- kind: lead-label',
  '  name: hot',
  '  spec: { name: Record Hot, color: red }',
  '- kind: lead',
  '  name: l',
  '  spec:',
  `    title: ${title}`,
  '    organization_id: 1',
  '    expected_close_date: "2026-12-31"',
  '',
].join('\n');

describe('apply and destroy are recorded', () => {
  it('apply creates, a second apply updates; undo --last sets the update back, undo of the first apply deletes what it created', async () => {
    env = { ...fx.env, CRMCTL_CONFIG_DIR: tempConfigDir() };
    const dir = writeFixtures({ 'f.yaml': FIXTURES('Record One') });
    const file = join(dir, 'f.yaml');
    expect((await run(['apply', '-f', file])).code).toBe(0);
    writeFileSync(file, FIXTURES('Record One, renamed'));
    expect((await run(['apply', '-f', file])).code).toBe(0);
    const [second, first] = await listJson();
    // The lead is a record write; the lead label (a kind with no read of one label) a call: kept, not counted.
    expect(first).toMatchObject({ kind: 'apply', written: 1, status: 'done', input: file });
    expect(second).toMatchObject({ kind: 'apply', written: 1, status: 'done' });
    // The update's intent keeps the title it replaced, read just before the PATCH.
    const journal = journalEntries(join(env.CRMCTL_CONFIG_DIR!, 'runs', 'writes', `${second!.id as string}.ndjson`));
    expect(journal[1]).toMatchObject({ key: '1', status: 'sending', op: 'update', kind: 'leads', sent: { title: 'Record One, renamed' }, prior: { title: 'Record One' } });

    const back = await run(['undo', '--last', '--yes']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr.split('\n').slice(0, 2)).toEqual([`Undo of run ${second!.id as string} (apply ${file}):`, '  1 leads to set back (fields the run changed)']);
    expect((await leads()).map((l) => l.title)).toEqual(['Record One']);

    const gone = await run(['undo', first!.id as string, '--yes']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stderr.split('\n')).toContain(`  cannot undo 1: leadLabels.create is not a create, update or delete of a record; crmctl cannot take it back; crmctl destroy --state ${join(dir, '.crmctl-state.json')} removes what that apply created`);
    expect(gone.stdout).toMatch(/: 1 deleted, 0 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed/);
    expect(await leads()).toEqual([]);
    expect((await labels()).map((l) => l.name)).toEqual(['Record Hot']);
  }, 60_000);

  it('destroy deletes what apply made; undo --last creates the lead again, with its fields (a new id)', async () => {
    env = { ...fx.env, CRMCTL_CONFIG_DIR: tempConfigDir() };
    const dir = writeFixtures({ 'f.yaml': FIXTURES('Record Two') });
    const file = join(dir, 'f.yaml');
    expect((await run(['apply', '-f', file])).code).toBe(0);
    const made = { lead: (await leads())[0]! };
    const d = await run(['destroy', '--state', join(dir, '.crmctl-state.json'), '--yes']);
    expect(d.code, d.stderr).toBe(0);
    expect(await leads()).toEqual([]);
    const [rec] = await listJson();
    expect(rec).toMatchObject({ kind: 'destroy', written: 1, status: 'done', input: `records of ${join(dir, '.crmctl-state.json')}` });

    const undo = await run(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(/: 0 deleted, 0 set back, 1 created again, 0 already undone; 0 conflicts, 0 failed/);
    const [lead] = await leads();
    expect({ title: lead!.title, expected_close_date: lead!.expected_close_date }).toEqual({ title: made.lead.title, expected_close_date: made.lead.expected_close_date });
    expect(lead!.id).not.toBe(made.lead.id);
  }, 60_000);
});
