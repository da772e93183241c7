// What a run records (its journal's header, its record in <configDir>/runs/<id>.json): the command line
// as typed, with any secret in it taken out, and the kind's own fields (a bulk update's changes) kept the
// same way. Journals and records outlive the run and are read by people and by `runs list`: a secret typed
// into --data or a --field value must not be kept there, and --resume must still do what was asked.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { control, countIn, demoSandboxPerTest, inFlightSettled, journalEntries, killMidRun, workDir } from './helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});

const SECRET = 'SECRET-IN-DATA-7f3a91';

/** The text of a run's record in the fixture's config dir (the config dir is the test file's: other tests' runs are there too). */
const recordOf = (runId: string) => readFileSync(join(fx.env.CRMCTL_CONFIG_DIR!, 'runs', `${runId}.json`), 'utf8');
const headerOf = (journal: string) => journalEntries(journal).find((e) => e.type === 'run');
/** The first line of a journal: the header as written, before any item entry. */
const headerText = (journal: string) => readFileSync(journal, 'utf8').split('\n')[0]!;

/** A custom deal field whose name is secret-shaped (a team keeps an integration's key on its deals); its key. */
async function apiTokenField(): Promise<string> {
  const r = await spawnCli(['deal-fields', 'create', '--field-name', 'api_token', '--field-type', 'varchar', '-o', 'json'], { env: fx.env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).field_code as string;
}

describe('the command line a run records', () => {
  it('a secret-keyed value in --data: redacted in the header (command, changes, input) and the run record; the other words as typed', async () => {
    await apiTokenField();
    const cwd = workDir();
    const state = join(cwd, 'deals.journal.ndjson');
    const args = ['deals', 'bulk-update', '--ids', '1,2', '--data', `{"title": "Renamed", "fields": {"api_token": "${SECRET}"}}`, '--yes', '--state', state];
    const r = await spawnCli(args, { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    const expected = ['deals', 'bulk-update', '--ids', '1,2', '--data', '{"title":"Renamed","fields":{"api_token":"[redacted]"}}', '--yes', '--state', state];
    const header = headerOf(state);
    expect(header.command).toEqual(expected);
    expect(header.changes).toEqual({ title: 'Renamed', fields: { api_token: '[redacted]' } });
    expect(header.input.describe).toBe('deals --ids: sets {"title":"Renamed","fields":{"api_token":"[redacted]"}}');
    expect(headerText(state)).not.toContain(SECRET);
    const rec = recordOf(header.run_id);
    expect(JSON.parse(rec)).toMatchObject({ command: expected, input: header.input.describe });
    expect(rec).not.toContain(SECRET);
  });

  it('the access token typed as a flag value (--field title=…TOKEN…) is taken out of every word, the inline --state=FILE kept as typed', async () => {
    const cwd = workDir();
    const token = fx.env.CRMCTL_ACCESS_TOKEN!;
    const state = join(cwd, 'journal.ndjson');
    const args = ['deals', 'bulk-update', '--ids', '3', '--field', `title=pasted ${token} by mistake`, '--yes', `--state=${state}`];
    const r = await spawnCli(args, { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    const expected = ['deals', 'bulk-update', '--ids', '3', '--field', 'title=pasted [redacted] by mistake', '--yes', `--state=${state}`];
    const header = headerOf(state);
    expect(header.command).toEqual(expected);
    expect(header.changes).toEqual({ title: 'pasted [redacted] by mistake' });
    const rec = recordOf(header.run_id);
    expect(JSON.parse(rec).command).toEqual(expected);
    for (const text of [headerText(state), rec]) expect(text).not.toContain(token);
  });

  it('words without a secret are recorded exactly as typed (an import)', async () => {
    const cwd = workDir();
    const file = join(cwd, 'leads.ndjson');
    writeFileSync(file, `${JSON.stringify({ title: 'Recorded', organization_id: 1 })}\n`);
    const args = ['import', 'leads', '--file', file, '--state', join(cwd, 'j.ndjson')];
    const r = await spawnCli(args, { env: fx.env, cwd });
    expect(r.code, r.stderr).toBe(0);
    const header = headerOf(join(cwd, 'j.ndjson'));
    expect(header.command).toEqual(args);
    expect(JSON.parse(recordOf(header.run_id)).command).toEqual(args);
  });

  it('--resume of a run whose changes held a secret: without them exit 2, nothing sent; with the same --data it finishes with the real values', async () => {
    const key = await apiTokenField();
    await control(fx, 'POST', 'bulk', { collection: 'deals', count: 60 });
    const deals = async () => (await fx.collection<{ id: number; title: string; custom_fields: Record<string, unknown> }>('deals')).filter((d) => d.title.startsWith('Bulk deal '));
    const ids = (await deals()).map((d) => d.id);
    const cwd = workDir();
    const state = join(cwd, 'secret.state.ndjson');
    const args = ['deals', 'bulk-update', '--ids', ids.join(','), '--data', `{"fields":{"api_token":"${SECRET}"}}`, '--state', state, '--yes'];
    await control(fx, 'PUT', 'faults', { latencyMs: 30, seed: 3 });
    await killMidRun(args, fx.env, () => countIn(state, '"action":"updated"') >= 5);
    await control(fx, 'PUT', 'faults', {});
    expect(headerText(state)).not.toContain(SECRET);
    // The killed run's updates in flight land after the kill: only what the resumes send counts.
    await inFlightSettled(fx);
    await fx.clearRequests();

    const bare = ['deals', 'bulk-update', '--state', state, '--resume', '--yes'];
    const refused = await spawnCli(bare, { env: fx.env, cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(`error: --resume: the journal in ${state} does not keep the values it sets that are secrets ({"fields":{"api_token":"[redacted]"}}); give the same --data/--field again with --resume\nhint: The journal keeps their hash: the same values continue the run; other values need --new-run.\n`);
    expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);

    const other = await spawnCli([...bare, '--data', '{"fields":{"api_token":"OTHER-VALUE-55"}}'], { env: fx.env, cwd });
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(`error: --resume: this command sets other values than the run in ${state} was started with (the journal keeps only their hash: {"fields":{"api_token":"[redacted]"}})\nhint: Resume with the same fields, or --new-run to start another update (the journal's record is kept).\n`);
    expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);

    const resumed = await spawnCli([...args, '--resume'], { env: fx.env, cwd });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await deals()).every((d) => d.custom_fields[key] === SECRET)).toBe(true);
    expect(headerText(state)).not.toContain(SECRET);
  }, 60_000);
});
