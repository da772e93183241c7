// crmctl history <kind> <id> (issue 31.4): the service's field changelog merged with crmctl's runs,
// each change crmctl made marked with its run and door; changes made around crmctl are not.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runBin, tempConfigDir } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});

let cwd = '';
// A config dir of its own per test: runs of an earlier test (same sandbox, same ids after its reset) are not this test's.
let configDir = '';
beforeEach(() => {
  configDir = tempConfigDir();
});
const run = (args: string[], tty = false) => runBin(args, { env: { ...fx.env, CRMCTL_CONFIG_DIR: configDir }, cwd, tty, columns: 200 });
const newestRun = async () => JSON.parse((await run(['runs', 'list', '--json'])).stdout)[0] as { id: string; kind: string };

/** A change as a person or another tool makes it: a raw request with the token, no crmctl. */
async function patchDirect(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${fx.sandbox.url}${path}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

/** Imports one deal and returns its id and the run. */
async function importDeal(title: string): Promise<{ id: number; run: string }> {
  cwd = workDir();
  writeFileSync(join(cwd, 'deals.csv'), `title,value,currency\n${title},1000,EUR\n`);
  const imp = await run(['import', 'deals', '--file', 'deals.csv']);
  expect(imp.code, imp.stderr).toBe(0);
  const deal = (await fx.collection<{ id: number; title: string }>('deals')).find((d) => d.title === title)!;
  return { id: deal.id, run: (await newestRun()).id };
}

describe('crmctl history', () => {
  it('a deal imported, bulk-updated by crmctl, then changed by hand: each change listed oldest first, crmctl\'s with its run and door', async () => {
    const { id, run: importRun } = await importDeal('History Deal');
    const bulk = await run(['deals', 'bulk-update', '--ids', String(id), '--field', 'owner_id=2', '--yes']);
    expect(bulk.code, bulk.stderr).toBe(0);
    const bulkRun = await newestRun();
    expect(bulkRun.kind).toBe('bulk-update');
    await patchDirect(`/api/v2/deals/${id}`, { title: 'History Deal (renamed by hand)' });

    await fx.clearRequests();
    const r = await run(['history', 'deals', String(id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const strip = rows.map(({ time, ...rest }) => ({ ...rest, time: typeof time }));
    expect(strip).toEqual([
      { field: '(created)', old_value: null, new_value: null, user_id: null, by: 'crmctl', door: 'import', run: importRun, change_source: null, made_by: `crmctl import (run ${importRun})`, time: 'string' },
      { field: 'owner_id', old_value: '1', new_value: '2', user_id: 1, by: 'crmctl', door: 'bulk update', run: bulkRun.id, change_source: 'api', made_by: `crmctl bulk update (run ${bulkRun.id})`, time: 'string' },
      { field: 'title', old_value: 'History Deal', new_value: 'History Deal (renamed by hand)', user_id: 1, by: 'others', door: null, run: null, change_source: 'api', made_by: 'others (api)', time: 'string' },
    ]);
    // Times oldest first, as the service logs them (UTC, whole seconds).
    const times = rows.map((x) => String(x.time));
    expect(times.every((t) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(t))).toBe(true);
    expect([...times].sort()).toEqual(times);
    // One read of the v1 changelog (no v2 form), and the account's identity (users/me) at most once.
    const reads = (await fx.requests()).map((q) => `${q.method} ${q.path}`);
    expect(reads.filter((q) => q !== 'GET /api/v1/users/me')).toEqual([`GET /api/v1/deals/${id}/changelog`]);
    // Off a terminal stderr stays clean (the cost is said only when the read does not fit the budget).
    expect(r.stderr).toBe('');

    // NDJSON: the same rows, one a line; the table on a pipe is TSV with the chosen columns.
    const nd = await run(['history', 'deals', String(id), '--output', 'ndjson']);
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(rows);
    const tsv = await run(['history', 'deals', String(id)]);
    expect(tsv.stdout.trim().split('\n').map((l) => l.split('\t').slice(1))).toEqual([
      ['(created)', '', '', '', `crmctl import (run ${importRun})`],
      ['owner_id', '1', '2', '1', `crmctl bulk update (run ${bulkRun.id})`],
      ['title', 'History Deal', 'History Deal (renamed by hand)', '1', 'others (api)'],
    ]);

    // On a terminal: what it reads and its cost first, a table, then what it found and spent.
    const t = await run(['history', 'deals', String(id)], true);
    expect(t.code, t.stderr).toBe(0);
    const err = t.stderr.split('\n');
    expect(err[0]).toBe(`history reads: the changelog of deal ${id} (GET /api/v1/deals/${id}/changelog, v1 only; 20 tokens a page of 500)`);
    expect(err[1]).toMatch(/^cost: at least 20 tokens of [\d,]+ left today$/);
    expect(err[2]).toContain(`history of deal ${id}: 3 changes, 2 by crmctl; 20 tokens spent.`);
    expect(t.stdout).toMatch(new RegExp(`│ owner_id +│ 1 +│ 2 +│ 1 +│ crmctl bulk update \\(run ${bulkRun.id}\\) +│`));
    expect(t.stdout).toMatch(/│ title +│ History Deal +│ History Deal \(renamed by hand\) +│ 1 +│ others \(api\) +│/);
  }, 60_000);

  it('the same value set again by hand later is not claimed by the run (one change per write); an undo is its own door', async () => {
    const { id } = await importDeal('Twice Deal');
    expect((await run(['deals', 'bulk-update', '--ids', String(id), '--field', 'owner_id=2', '--yes'])).code).toBe(0);
    const bulkRun = (await newestRun()).id;
    const undo = await run(['undo', bulkRun, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    const undoRun = (await newestRun()).id;
    await patchDirect(`/api/v2/deals/${id}`, { owner_id: 2 });
    const rows = JSON.parse((await run(['history', 'deals', String(id), '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(rows.filter((x) => x.field === 'owner_id').map((x) => [x.old_value, x.new_value, x.made_by])).toEqual([
      ['1', '2', `crmctl bulk update (run ${bulkRun})`],
      ['2', '1', `crmctl undo (run ${undoRun})`],
      ['1', '2', 'others (api)'],
    ]);
  }, 60_000);

  it('a kind of run history has no word for (a run of a newer door) shows under its own kind, with the client its record names', async () => {
    const person = (await fx.collection<{ id: number; name: string }>('persons'))[0]!;
    const started = new Date(Date.now() - 1000).toISOString();
    await patchDirect(`/api/v2/persons/${person.id}`, { name: 'Renamed By Assistant' });
    // A run written as the run engine writes one (its record in <config>/runs, its journal), of kind "mcp".
    const dir = join(configDir, 'runs');
    mkdirSync(dir, { recursive: true });
    const journal = join(dir, 'mcp1.ndjson');
    const account = { origin: new URL(fx.sandbox.url).origin, company_id: 1, user_id: 1 };
    writeFileSync(journal, `${[
      { type: 'run', v: 2, run_id: 'mcp1', kind: 'mcp', command: ['mcp'], account, input: { fingerprint: 'x', describe: 'tool persons_update' }, started_at: started, area: 'persons' },
      { key: String(person.id), op: 'update', status: 'sending', at: Date.now(), record: person.id, sent: { name: 'Renamed By Assistant' } },
      { key: String(person.id), op: 'update', status: 'done', action: 'updated' },
    ].map((e) => JSON.stringify(e)).join('\n')}\n`);
    writeFileSync(join(dir, 'mcp1.json'), JSON.stringify({ id: 'mcp1', kind: 'mcp', client: 'Claude Desktop', command: ['mcp'], account, journal, input: 'tool persons_update', started_at: started, status: 'done', finished_at: new Date().toISOString() }));
    const r = await run(['history', 'persons', String(person.id), '--json']);
    expect(r.code, r.stderr).toBe(0);
    // The seed's own history stays the people's; the name the assistant wrote, and the first and last
    // names the service derived from it in the same request, are the run's.
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(rows.filter((x) => String(x.time) < started.slice(0, 19)).every((x) => x.by === 'others')).toBe(true);
    expect(rows.filter((x) => String(x.time) >= started.slice(0, 19)).map((x) => [x.field, x.new_value, x.made_by])).toEqual([
      ['name', 'Renamed By Assistant', 'crmctl MCP (Claude Desktop) (run mcp1)'],
      ['first_name', 'Renamed', 'crmctl MCP (Claude Desktop) (run mcp1)'],
      ['last_name', 'By Assistant', 'crmctl MCP (Claude Desktop) (run mcp1)'],
    ]);
  }, 60_000);

  it('--with-flow: the flow\'s notes listed too, a note a run imported marked with its run, one added by hand not', async () => {
    const { id } = await importDeal('Flow Deal');
    writeFileSync(join(cwd, 'notes.csv'), `content,deal_id\nCalled them about the renewal,${id}\n`);
    const imp = await run(['import', 'notes', '--file', 'notes.csv']);
    expect(imp.code, imp.stderr).toBe(0);
    const notesRun = (await newestRun()).id;
    const res = await fetch(`${fx.sandbox.url}/api/v1/notes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: '<p>Left a <b>voicemail</b></p>', deal_id: id }),
    });
    expect(res.status).toBeLessThan(300);
    await fx.clearRequests();
    const r = await run(['history', 'deals', String(id), '--with-flow', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const notes = (JSON.parse(r.stdout) as Array<Record<string, unknown>>).filter((x) => x.field === '(note)');
    expect(notes.map((x) => [x.new_value, x.by, x.made_by])).toEqual([
      ['Called them about the renewal', 'crmctl', `crmctl import (run ${notesRun})`],
      ['Left a voicemail', 'others', 'others'],
    ]);
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`).filter((q) => q !== 'GET /api/v1/users/me')).toEqual([`GET /api/v1/deals/${id}/changelog`, `GET /api/v1/deals/${id}/flow`]);
  }, 60_000);

  it('a dedupe merged a person into another: the kept person\'s changes from the merge are the dedupe run\'s; the service logs them', async () => {
    const dd = await run(['dedupe', 'persons', '--keep', 'oldest', '--region', 'EE', '--yes']);
    expect(dd.code, dd.stderr).toBe(0);
    const dedupeRun = (await newestRun()).id;
    const started = (JSON.parse((await run(['runs', 'show', dedupeRun, '--json'])).stdout) as { started_at: string }).started_at;
    const rows = JSON.parse((await run(['history', 'persons', '1', '--json'])).stdout) as Array<Record<string, unknown>>;
    // Person 11 (phone +372 5550 9999) went into person 1: the phone added to person 1 is logged, and is the run's.
    const fromMerge = rows.filter((x) => String(x.time) >= started.slice(0, 19));
    expect(fromMerge.map((x) => [x.field, x.made_by])).toEqual([['phones', `crmctl dedupe (run ${dedupeRun})`]]);
    expect(String(fromMerge[0]!.new_value)).toContain('+372 5550 9999');
  }, 60_000);

  it('the sandbox logs an update of an organization as the vendor documents it (field, old, new, user, time; deals and persons above)', async () => {
    const org = (await fx.collection<{ id: number; name: string }>('organizations'))[0]!;
    const before = Date.now() - 1000;
    await patchDirect(`/api/v2/organizations/${org.id}`, { name: 'Renamed Org' });
    const res = await fetch(`${fx.sandbox.url}/api/v1/organizations/${org.id}/changelog?limit=1`, { headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}` } });
    const body = (await res.json()) as { success: boolean; data: Array<Record<string, unknown>>; additional_data: Record<string, unknown> };
    expect(body.success).toBe(true);
    expect(body.data).toEqual([{ field_key: 'name', old_value: org.name, new_value: 'Renamed Org', actor_user_id: 1, time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), change_source: 'api', change_source_user_agent: expect.any(String), is_bulk_update_flag: false }]);
    expect(Date.parse(`${String(body.data[0]!.time).replace(' ', 'T')}Z`)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Object.keys(body.additional_data)).toEqual(['next_cursor']);
  }, 60_000);

  it('a bad kind: exit 2 naming the allowed kinds, nothing sent; an unknown id: the service\'s 404 (exit 5)', async () => {
    const bad = await run(['history', 'leads', '1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<kind>: must be one of deals, persons, organizations (got "leads")');
    expect(await fx.requests()).toEqual([]);
    const notNumber = await run(['history', 'deals', 'abc']);
    expect(notNumber.code).toBe(2);
    expect(await fx.requests()).toEqual([]);
    const missing = await run(['history', 'organizations', '99999']);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/organization|not found/i);
    expect(missing.code).toBe(5);
  }, 60_000);
});
