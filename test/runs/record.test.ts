// The record of every change (issue 31.1-31.3, 31.5): a single write (a command, an MCP tool call) is a
// small run of the one engine, with the values it replaced read before it, listed by `runs list` (who,
// cost), taken back by `crmctl undo`; secrets never in it; rotated; CRMCTL_RECORD=off turns it off.
import { existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin, tempConfigDir } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { control, demoSandboxPerTest, journalEntries, killWhen } from '../automation/helpers.js';
import { callMcpTool, connectMcp, dataOf } from '../mcp/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});

/** Each test its own config dir: its runs only. */
let env: Record<string, string> = {};
const fresh = (extra: Record<string, string> = {}) => {
  env = { ...fx.env, CRMCTL_CONFIG_DIR: tempConfigDir(), ...extra };
  return env;
};
const run = (args: string[], o: { tty?: boolean } = {}) => runBin(args, { env, ...o });
const runsDir = () => join(env.CRMCTL_CONFIG_DIR!, 'runs');
const sent = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}`);
const listJson = async () => JSON.parse((await run(['runs', 'list', '--json'])).stdout) as Array<Record<string, unknown>>;
const dealTitle = async (id: number) => (await fx.collection<{ id: number; title: string }>('deals')).find((d) => d.id === id)?.title;
/** Every file under the runs dir, as text. */
const allRunFiles = (dir = runsDir()): string =>
  readdirSync(dir).map((f) => join(dir, f)).map((p) => (statSync(p).isDirectory() ? allRunFiles(p) : readFileSync(p, 'utf8'))).join('\n');

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe('a single write is a run', () => {
  it('deals update: the title it replaced is read before the PATCH and kept; runs list shows who (script) and the cost; undo sets it back', async () => {
    fresh();
    const before = await dealTitle(1);
    const up = await run(['deals', 'update', '1', '--title', 'Renamed by a script', '--output', 'json']);
    expect(up.code, up.stderr).toBe(0);
    // The record before the write, users/me once for this token (the account the run belongs to), the write.
    expect(await sent()).toEqual(['GET /api/v2/deals/1', 'GET /api/v1/users/me', 'PATCH /api/v2/deals/1']);
    const costs = (await fx.requests()).reduce((n, r) => n + r.cost, 0);
    const [rec] = await listJson();
    expect(rec).toMatchObject({ kind: 'command', who: 'script', command: "crmctl deals update 1 --title 'Renamed by a script' --output json", written: 1, cost: costs, status: 'done', summary: 'deals 1 updated', input: 'deals update 1' });
    const id = rec!.id as string;
    const journal = journalEntries(join(runsDir(), 'writes', `${id}.ndjson`));
    expect(journal[1]).toEqual({ key: '1', status: 'sending', at: expect.any(Number), op: 'update', kind: 'deals', record: 1, sent: { title: 'Renamed by a script' }, prior: { title: before } });
    expect(journal.slice(2)).toEqual([{ key: '1', status: 'done' }, { type: 'end', at: expect.any(String), summary: 'deals 1 updated', counts: {} }]);

    // The table: who and cost are columns.
    const table = await run(['runs', 'list']);
    expect(table.stdout.split('\n')[0]!.split('\t').filter((_, i) => i !== 1 && i !== 4)).toEqual([id, 'command', 'script', "crmctl deals update 1 --title 'Renamed by a script' --output json", '1', String(costs), 'done']);

    await fx.clearRequests();
    const undo = await run(['undo', '--last', '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr.split('\n').slice(0, 2)).toEqual([`Undo of run ${id} (command deals update 1):`, '  1 deals to set back (fields the run changed)']);
    expect(undo.stdout).toMatch(new RegExp(`^Undo of run ${id}: 0 deleted, 1 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed \\(undo run \\w+\\)\\.\\n$`));
    expect(await sent()).toEqual(['GET /api/v2/deals/1', 'PATCH /api/v2/deals/1']);
    expect((await fx.requests())[1]!.body).toEqual({ title: before });
    expect(await dealTitle(1)).toBe(before);
  }, 60_000);

  it('deals update, then someone edits the deal: the undo is a conflict, left alone (exit 7)', async () => {
    fresh();
    expect((await run(['deals', 'update', '2', '--title', 'Ours'])).code).toBe(0);
    const id = (await listJson())[0]!.id as string;
    expect((await run(['deals', 'update', '2', '--title', 'Theirs', '--data', '{}'])).code).toBe(0);
    await fx.clearRequests();
    const undo = await run(['undo', id, '--yes']);
    expect(undo.code).toBe(7);
    expect(undo.stdout.split('\n')[0]).toBe('conflict: deals 2 title: the run wrote "Ours", now "Theirs" (left alone)');
    expect(await sent()).toEqual(['GET /api/v2/deals/2']);
    expect(await dealTitle(2)).toBe('Theirs');
  }, 60_000);

  it('persons delete: the whole person is read first; undo creates it again with its fields and its organization', async () => {
    fresh();
    const person = (await fx.collection<Record<string, unknown>>('persons')).find((p) => p.id === 2)!;
    expect(person.org_id).toBe(2);
    const del = await run(['persons', 'delete', '2', '--yes']);
    expect(del.code, del.stderr).toBe(0);
    expect(await sent()).toEqual(['GET /api/v2/persons/2', 'GET /api/v1/users/me', 'DELETE /api/v2/persons/2']);
    const id = (await listJson())[0]!.id as string;
    const journal = journalEntries(join(runsDir(), 'writes', `${id}.ndjson`));
    expect(journal[1]).toMatchObject({ status: 'sending', op: 'delete', kind: 'persons', record: 2, deleted: { id: 2, name: person.name, org_id: 2 } });
    await fx.clearRequests();
    const undo = await run(['undo', id, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    // The entry's account check of the labels, then the create.
    expect(await sent()).toEqual(['GET /api/v2/personFields/label_ids', 'POST /api/v2/persons']);
    const again = (await fx.collection<Record<string, unknown>>('persons')).find((p) => p.name === person.name && p.id !== 2)!;
    const fields = (p: Record<string, unknown>) => ({ name: p.name, org_id: p.org_id, owner_id: p.owner_id, emails: p.emails, phones: p.phones, visible_to: p.visible_to, label_ids: p.label_ids });
    expect(fields(again)).toEqual(fields(person));
  }, 60_000);

  it('organizations create: undo deletes it; a write that is no record write (a follower) is kept but not undone', async () => {
    fresh();
    const cr = await run(['organizations', 'create', '--name', 'Recorded Org', '--output', 'json']);
    expect(cr.code, cr.stderr).toBe(0);
    const orgId = JSON.parse(cr.stdout).id as number;
    // A create reads nothing before it.
    expect(await sent()).toEqual(['GET /api/v1/users/me', 'POST /api/v2/organizations']);
    const id = (await listJson())[0]!.id as string;
    expect(journalEntries(join(runsDir(), 'writes', `${id}.ndjson`))[2]).toEqual({ key: '1', status: 'done', id: orgId });
    await fx.clearRequests();
    const undo = await run(['undo', id, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await sent()).toEqual([`GET /api/v2/organizations/${orgId}`, `DELETE /api/v2/organizations/${orgId}`]);
    expect((await fx.collection<{ id: number }>('organizations')).some((o) => o.id === orgId)).toBe(false);

    expect((await run(['deals', 'followers', 'add', '1', '--user-id', '2'])).code).toBe(0);
    const f = (await listJson())[0]!;
    expect(f).toMatchObject({ kind: 'command', written: 0, status: 'done', summary: 'deals followers add 1: sent' });
    const dry = await run(['undo', f.id as string, '--dry-run']);
    expect(dry.stderr.split('\n')).toContain('  cannot undo 1: deals.addFollower is not a create, update or delete of a record; crmctl cannot take it back');
  }, 60_000);

  it('who: a terminal, CI', async () => {
    fresh();
    expect((await run(['deals', 'update', '1', '--title', 'From a terminal'], { tty: true })).code).toBe(0);
    env = { ...env, CI: 'true' };
    expect((await run(['deals', 'update', '1', '--title', 'From CI'])).code).toBe(0);
    expect((await listJson()).map((r) => r.who)).toEqual(['ci', 'terminal']);
  }, 60_000);
});

describe('an assistant\'s writes (MCP)', () => {
  it('a write tool call is recorded as the client\'s (name, tool); recent_runs lists it; the instructions say so; crmctl undo takes it back', async () => {
    fresh();
    const before = await dealTitle(3);
    const client = await connectMcp(env, ['--allow-writes']);
    open.push(client);
    expect(client.getInstructions()).toContain('Every write you make is recorded as yours (this client, the tool) and the user can take it back with `crmctl undo RUN_ID` at a terminal; recent_runs lists your writes and their run ids.');
    const r = await callMcpTool(client, 'deals_update', { id: 3, title: 'Set by an assistant' });
    expect(r.isError, r.text).toBe(false);
    const [rec] = await listJson();
    expect(rec).toMatchObject({ kind: 'mcp', who: 'mcp crmctl-test (deals_update)', client: 'crmctl-test', tool: 'deals_update', command: '(mcp) deals_update: deals update 3', written: 1, status: 'done' });
    const mine = dataOf((await callMcpTool(client, 'recent_runs', {})).text);
    expect(mine).toEqual({
      runs: [{ id: rec!.id, started_at: rec!.started_at, client: 'crmctl-test', tool: 'deals_update', what: 'deals_update: deals update 3', status: 'done', summary: 'deals 3 updated', cost: rec!.cost }],
      undo: 'The user takes a run back with: crmctl undo RUN_ID',
    });
    // Read-only: no hint of undo in the instructions, and no undo tool under any policy.
    const reader = await connectMcp(env, []);
    open.push(reader);
    expect(reader.getInstructions()).not.toContain('crmctl undo');
    expect((await client.listTools()).tools.map((t) => t.name).filter((n) => /undo/.test(n))).toEqual([]);

    const undo = await run(['undo', rec!.id as string, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(await dealTitle(3)).toBe(before);
  }, 60_000);
});

describe('what the record keeps', () => {
  it('never the token nor a webhook\'s password: neither anywhere under the runs dir', async () => {
    fresh();
    const password = 'hunter2-webhook-secret';
    const w = await run(['webhooks', 'create', '--name', 'Recorded hook', '--url', 'http://127.0.0.1:9/hook', '--action', 'create', '--object', 'deal', '--data', JSON.stringify({ http_auth_user: 'crm', http_auth_password: password })]);
    expect(w.code, w.stderr).toBe(0);
    const id = (await listJson())[0]!.id as string;
    const journal = journalEntries(join(runsDir(), 'writes', `${id}.ndjson`));
    expect(journal[1].sent).toMatchObject({ http_auth_user: 'crm', http_auth_password: '[redacted]' });
    const all = allRunFiles();
    expect(all).toContain(id);
    expect(all).not.toContain(password);
    expect(all).not.toContain(env.CRMCTL_ACCESS_TOKEN);
  }, 60_000);

  it('rotation: finished runs older than CRMCTL_RUNS_KEEP_DAYS go with their journals; unfinished ones stay; then the oldest finished go past CRMCTL_RUNS_MAX_MB', async () => {
    fresh({ CRMCTL_RUNS_KEEP_DAYS: '30' });
    expect((await run(['deals', 'update', '1', '--title', 'First'])).code).toBe(0);
    const rec = JSON.parse(readFileSync(join(runsDir(), `${(await listJson())[0]!.id}.json`), 'utf8'));
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const lay = (id: string, status: string, started: string) => {
      const journal = join(runsDir(), 'writes', `${id}.ndjson`);
      writeFileSync(journal, `${JSON.stringify({ type: 'run', v: 2, run_id: id })}\n`);
      writeFileSync(join(runsDir(), `${id}.json`), JSON.stringify({ ...rec, id, status, started_at: started, finished_at: status === 'done' ? started : undefined, journal }));
    };
    lay('oldfinished01', 'done', old);
    lay('oldstopped001', 'stopped', old);
    lay('oldkilled0001', 'running', old);
    lay('newfinished1', 'done', new Date(Date.now() - 86_400_000).toISOString());
    // The pass runs once an hour: the marker left by the first write is made old.
    const marker = join(runsDir(), '.pruned');
    writeFileSync(marker, '');
    utimesSync(marker, new Date(Date.now() - 2 * 3_600_000), new Date(Date.now() - 2 * 3_600_000));
    expect((await run(['deals', 'update', '1', '--title', 'Second'])).code).toBe(0);
    const ids = () => readdirSync(runsDir()).filter((f) => f.endsWith('.json') && f !== 'accounts.json').map((f) => f.slice(0, -5)).sort();
    expect(ids()).not.toContain('oldfinished01');
    expect(existsSync(join(runsDir(), 'writes', 'oldfinished01.ndjson'))).toBe(false);
    expect(ids()).toEqual(expect.arrayContaining(['oldstopped001', 'oldkilled0001', 'newfinished1']));
    expect(ids().length).toBe(5);

    // Past the size limit (1 KB here), the oldest finished runs go until under it; unfinished ones stay.
    utimesSync(marker, new Date(Date.now() - 2 * 3_600_000), new Date(Date.now() - 2 * 3_600_000));
    env = { ...env, CRMCTL_RUNS_MAX_MB: String(1 / 1024) };
    expect((await run(['deals', 'update', '1', '--title', 'Third'])).code).toBe(0);
    expect(ids()).toEqual(expect.arrayContaining(['oldstopped001', 'oldkilled0001']));
    expect(ids()).not.toContain('newfinished1');
    // The run that was beginning is not finished yet when the pass runs: it stays.
    expect((await listJson())[0]).toMatchObject({ status: 'done', summary: 'deals 1 updated' });
  }, 60_000);

  it('CRMCTL_RECORD=off: nothing is read before the write and no run is kept', async () => {
    fresh({ CRMCTL_RECORD: 'off' });
    expect((await run(['deals', 'update', '1', '--title', 'Unrecorded'])).code).toBe(0);
    expect(await sent()).toEqual(['PATCH /api/v2/deals/1']);
    expect(existsSync(runsDir())).toBe(false);
  }, 60_000);

  it('a value of CRMCTL_RECORD or a limit it does not know: exit 2 naming the variable and the rule, nothing sent, the deal unchanged', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ CRMCTL_RECORD: 'of' }, 'error: CRMCTL_RECORD: must be on or off (got "of")\nhint: Unset it to keep the record of changes, or set CRMCTL_RECORD=off.\n'],
      [{ CRMCTL_RUNS_KEEP_DAYS: 'abc' }, 'error: CRMCTL_RUNS_KEEP_DAYS: must be a positive number (got "abc")\nhint: Unset it for the default (90).\n'],
      [{ CRMCTL_RUNS_MAX_MB: '0' }, 'error: CRMCTL_RUNS_MAX_MB: must be a positive number (got "0")\nhint: Unset it for the default (200).\n'],
    ];
    const before = await dealTitle(1);
    for (const [extra, stderr] of cases) {
      fresh(extra);
      await fx.clearRequests();
      const r = await run(['deals', 'update', '1', '--title', 'Never sent']);
      expect([r.code, r.stderr]).toEqual([2, stderr]);
      expect(await sent()).toEqual([]);
    }
    expect(await dealTitle(1)).toBe(before);
  }, 60_000);

  it('kill -9 between the intent and the answer: the run is unsettled; undo settles it by reading the deal, then sets it back', async () => {
    fresh();
    const before = await dealTitle(4);
    // users/me known first, so the killed command's only write is the PATCH.
    expect((await run(['runs', 'list'])).code).toBe(0);
    await control(fx, 'PUT', 'faults', { latencyMs: 300, seed: 1 });
    await killWhen(['deals', 'update', '4', '--title', 'Cut off'], { ...env }, (kill) => fx.sandbox.state.events.on((e) => {
      if (e.action === 'change' && e.object === 'deal') kill();
    }));
    await control(fx, 'PUT', 'faults', {});
    await new Promise((r) => setTimeout(r, 400));
    expect(await dealTitle(4)).toBe('Cut off');
    const [rec] = await listJson();
    expect(rec).toMatchObject({ kind: 'command', status: 'running', written: 0 });
    const show = JSON.parse((await run(['runs', 'show', rec!.id as string, '--json'])).stdout);
    expect(show.items).toEqual([{ key: '1', op: 'update', record: 4, status: 'unsettled', action: null, id: null, error: null }]);
    await fx.clearRequests();
    const undo = await run(['undo', rec!.id as string, '--yes']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain(`run ${rec!.id} did not finish (running): undoing what its journal says it did`);
    expect(await sent()).toEqual(['GET /api/v2/deals/4', 'PATCH /api/v2/deals/4']);
    expect(await dealTitle(4)).toBe(before);
  }, 60_000);
});
