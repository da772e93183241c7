// `crmctl mcp` driven by the MCP SDK's own client over stdio: the bundle (bin/crmctl.js) is spawned
// as an assistant's client would spawn it, against a sandbox on loopback. Each test checks what the
// client receives and what reached the sandbox.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/api/operations/index.js';
import { DEAL_FIELD_KEYS } from '../../src/sandbox/seed/base.js';
import { spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { callMcpTool, connectMcp, dataOf } from './helpers.js';

let fx: SandboxFixture;
const open: Client[] = [];
/** Everything the client received, to check for secrets at the end. */
const received: string[] = [];

beforeAll(async () => {
  fx = await startFixture({ seed: 'demo' });
});
afterAll(async () => {
  // No token, refresh token or client secret in anything a client was given.
  const all = received.join('\n');
  expect(all.length).toBeGreaterThan(1000);
  for (const secret of secrets()) expect(all).not.toContain(secret);
  await fx.close();
});
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

let stderrText = '';
function secrets(): string[] {
  return [fx.env.CRMCTL_ACCESS_TOKEN!, ...extraSecrets].filter(Boolean);
}
const extraSecrets: string[] = [];

async function connect(flags: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  const client = await connectMcp({ ...fx.env, ...env }, flags, (text) => {
    stderrText += text;
    received.push(text);
  });
  open.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; text: string }> {
  const r = await callMcpTool(client, name, args);
  received.push(r.text);
  return r;
}

const data = dataOf;

const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');

describe('crmctl mcp: tools from the operation tables', () => {
  it('--all-tools read-only: every read is listed, each with its schema, cost, scopes and hints', async () => {
    const client = await connect(['--all-tools']);
    const { tools } = await client.listTools();
    received.push(JSON.stringify(tools));
    const reads = ALL_OPERATIONS.filter((o) => o.method === 'GET' && !o.cli.upload);
    expect(tools).toHaveLength(reads.length);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true && t.annotations?.destructiveHint === false)).toBe(true);
    expect(tools.map((t) => t.name)).not.toContain('leads_create');
    const deals = tools.find((t) => t.name === 'deals_list')!;
    expect(deals.description).toBe('List deals (filters, sort, include extra fields). Returns one page (default 50 records); pass the returned next_cursor as cursor for the next. GET /api/v2/deals; cost 10; scopes: deals:read or deals:full.');
    const props = deals.inputSchema.properties as Record<string, any>;
    expect(props.status).toEqual({ type: 'string', enum: ['open', 'won', 'lost', 'deleted'] });
    expect(props.ids).toEqual({ type: 'array', maxItems: 100, items: { type: 'integer', minimum: 1 } });
    expect(deals.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
  });

  it('--allow-writes adds creates and updates with their required fields; --allow-destructive adds deletes', async () => {
    const writer = await connect(['--allow-writes', '--areas', 'leads']);
    const w = (await writer.listTools()).tools;
    const create = w.find((t) => t.name === 'leads_create')!;
    expect(create.inputSchema.required).toEqual(['title']);
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(w.map((t) => t.name)).not.toContain('leads_delete');
    expect(w.every((t) => t.name.startsWith('leads_'))).toBe(true);
    const all = await connect(['--allow-writes', '--allow-destructive', '--areas', 'leads']);
    const del = (await all.listTools()).tools.find((t) => t.name === 'leads_delete')!;
    expect(del.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(del.inputSchema.required).toEqual(['id']);
  });
});

describe('calls', () => {
  it('a read returns one page of records with the cursor for the next, trimmed to the fields asked', async () => {
    const client = await connect();
    const r = await call(client, 'deals_list', { limit: 2, fields: ['id', 'title'] });
    expect(r.isError).toBe(false);
    const page = data(r.text);
    expect(page.records).toEqual([{ id: 1, title: 'Acme annual licence' }, { id: 2, title: 'Globex onboarding' }]);
    expect(page).toMatchObject({ count: 2, more: true, next_cursor: expect.any(String) });
    const next = data((await call(client, 'deals_list', { limit: 2, cursor: page.next_cursor, fields: ['id'] })).text);
    expect(next.records).toEqual([{ id: 3 }, { id: 4 }]);
    expect((await fx.requests()).map((q) => [q.method, q.path, q.query.limit])).toEqual([['GET', '/api/v2/deals', '2'], ['GET', '/api/v2/deals', '2']]);
  });

  it('a v1 list says how many records remain when the service gives a total', async () => {
    const client = await connect();
    const page = data((await call(client, 'leads_list', {})).text);
    expect(page.count).toBe((await fx.collection<{ is_archived: boolean }>('leads')).filter((l) => !l.is_archived).length);
    expect((await fx.requests())[0]).toMatchObject({ path: '/api/v1/leads', query: { limit: '50' } });
  });

  it('a write is refused by the read-only server, naming the flag; nothing is sent', async () => {
    const client = await connect();
    const r = await call(client, 'leads_create', { title: 'From an assistant', person_id: 1 });
    expect(r).toEqual({ isError: true, text: 'Refused: leads_create changes the account and this server runs read-only: start `crmctl mcp` with --allow-writes. Nothing was sent.' });
    expect(await fx.requests()).toEqual([]);
  });

  it('an allowed write reaches the sandbox with the arguments as the body', async () => {
    const client = await connect(['--allow-writes']);
    const r = await call(client, 'leads_create', { title: 'From an assistant', person_id: 1, value: { amount: 500, currency: 'EUR' } });
    expect(r.isError, r.text).toBe(false);
    const lead = data(r.text);
    expect(lead).toMatchObject({ title: 'From an assistant', person_id: 1, value: { amount: 500, currency: 'EUR' } });
    expect((await writes()).map((q) => [q.method, q.path, q.body])).toEqual([['POST', '/api/v1/leads', { title: 'From an assistant', person_id: 1, value: { amount: 500, currency: 'EUR' } }]]);
    expect((await fx.collection<{ id: string }>('leads')).some((l) => l.id === lead.id)).toBe(true);
  });

  it('a destructive call needs --allow-destructive as well; with it, the delete goes through', async () => {
    const writer = await connect(['--allow-writes']);
    const r = await call(writer, 'deals_delete', { id: 1 });
    expect(r).toEqual({ isError: true, text: 'Refused: deals_delete is destructive: start `crmctl mcp` with --allow-writes --allow-destructive. Nothing was sent.' });
    expect(await fx.requests()).toEqual([]);
    const all = await connect(['--allow-writes', '--allow-destructive']);
    const ok = await call(all, 'deals_delete', { id: 1 });
    expect(ok.isError, ok.text).toBe(false);
    expect((await writes()).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['DELETE /api/v2/deals/1 200']);
  });

  it('bad arguments come back as a tool error naming the field and the rule; nothing is sent', async () => {
    const client = await connect(['--allow-writes']);
    expect(await call(client, 'deals_create', { title: 'x', value: -5, status: 'maybe' })).toEqual({
      isError: true,
      text: 'Invalid arguments, nothing was sent:\nvalue: must be at least 0\nstatus: must be one of open, won, lost',
    });
    expect(await call(client, 'deals_get', { id: 0 })).toEqual({ isError: true, text: 'Invalid arguments, nothing was sent:\nid: must be a positive integer id' });
    expect(await call(client, 'deals_list', { colour: 'red' })).toMatchObject({ isError: true, text: expect.stringMatching(/^Invalid arguments, nothing was sent:\narguments: unknown key "colour"; known: filter_id, ids, /) });
    expect(await call(client, 'deals_list', { fields: ['id', 'nope'] })).toMatchObject({ isError: true, text: expect.stringMatching(/^Invalid arguments, nothing was sent:\nfields: unknown field nope; fields: id, title, /) });
    expect(await fx.requests()).toEqual([]);
  });

  it('a service error is a tool error with its message, and the server keeps serving', async () => {
    const client = await connect();
    const r = await call(client, 'deals_get', { id: 999 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Not found \(404\)/);
    expect((await call(client, 'deals_get', { id: 1 })).isError).toBe(false);
  });

  it('a 429 from a budget another client spent is waited out and retried; the call succeeds', async () => {
    const before = (await (await fetch(`${fx.sandbox.url}/__sandbox/config`)).json()).data.budget;
    await fetch(`${fx.sandbox.url}/__sandbox/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ budget: { limit: 20, windowSec: 2 } }) });
    try {
      const client = await connect();
      // Another client spends the window's budget: the server's first call is answered 429.
      for (let i = 0; i < 2; i++) await fetch(`${fx.sandbox.url}/api/v2/deals?limit=1`, { headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}` } });
      await fx.clearRequests();
      const r = await call(client, 'deals_list', { limit: 1, fields: ['id'] });
      expect(r.isError, r.text).toBe(false);
      expect(data(r.text).records).toEqual([{ id: 1 }]);
      expect((await fx.requests()).map((q) => q.status)).toEqual([429, 200]);
    } finally {
      await fetch(`${fx.sandbox.url}/__sandbox/config`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ budget: before }) });
    }
  });

  it('a refused token is a tool error that names the cause, without the token', async () => {
    const bogus = 'v1u:refused-token-0123456789abcdef';
    extraSecrets.push(bogus);
    const client = await connect([], { CRMCTL_ACCESS_TOKEN: bogus });
    const r = await call(client, 'users_me', {});
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^The service refused the credentials \(401\)/);
    expect(r.text).not.toContain(bogus);
    expect(await fx.requests()).toEqual([expect.objectContaining({ path: '/api/v1/users/me', status: 401 })]);
  });
});

describe('start-up checks', () => {
  it('--allow-destructive without --allow-writes, and an unknown area, are refused (exit 2)', async () => {
    const a = await spawnCli(['mcp', '--allow-destructive'], { env: fx.env });
    expect(a).toMatchObject({ code: 2, stdout: '', stderr: 'error: --allow-destructive: needs --allow-writes (a delete is a write)\n' });
    const b = await spawnCli(['mcp', '--areas', 'deals,widgets'], { env: fx.env });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/^error: --areas: unknown area widgets; areas with tools: activities, /);
  });

  it('--list-tools without --areas prints the default list: the discovery tools first', async () => {
    const r = await spawnCli(['mcp', '--list-tools', '--output', 'tsv'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.slice(0, 4).map((x) => x.slice(0, 3))).toEqual([['find_operations', 'discovery', ''], ['describe_operation', 'discovery', ''], ['call_operation', 'discovery', ''], ['search_items', 'read', '20']]);
    expect(rows.length).toBeLessThanOrEqual(40);
  });

  it('--list-tools prints the offered tools and exits', async () => {
    const r = await spawnCli(['mcp', '--areas', 'pipelines', '--list-tools', '--output', 'tsv'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'pipelines_list\tread\t5\tdeals:read deals:full admin\npipelines_get\tread\t1\tdeals:read deals:full admin\n' +
        'pipelines_conversion_stats\tread\t40\tdeals:read deals:full\npipelines_movement_stats\tread\t40\tdeals:read deals:full\n',
    );
    expect(await fx.requests()).toEqual([]);
    expect(stderrText).not.toContain(fx.env.CRMCTL_ACCESS_TOKEN!);
  });
});

describe('safety is enforced where a call runs: named tool and call_operation, in every mode', () => {
  // Each path to an operation: its own tool name, or call_operation of the discovery tools.
  const paths: Array<[string, (c: Client, name: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>]> = [
    ['named tool', (c, name, args) => call(c, name, args)],
    ['call_operation', (c, name, args) => call(c, 'call_operation', { name, arguments: args })],
  ];
  for (const [mode, modeFlags] of [['default (discovery)', []], ['--all-tools', ['--all-tools']], ['--areas deals', ['--areas', 'deals']]] as Array<[string, string[]]>) {
    it(`${mode}: writes refused read-only, deletes refused without --allow-destructive, both through either path; nothing sent`, async () => {
      const readOnly = await connect(modeFlags);
      const writer = await connect([...modeFlags, '--allow-writes']);
      for (const [how, run] of paths) {
        expect(await run(readOnly, 'deals_update', { id: 1, title: 'Renamed' }), how).toEqual({
          isError: true,
          text: 'Refused: deals_update changes the account and this server runs read-only: start `crmctl mcp` with --allow-writes. Nothing was sent.',
        });
        expect(await run(writer, 'deals_delete', { id: 1 }), how).toEqual({
          isError: true,
          text: 'Refused: deals_delete is destructive: start `crmctl mcp` with --allow-writes --allow-destructive. Nothing was sent.',
        });
      }
      expect(await fx.requests()).toEqual([]);
      // Allowed: the same write through both paths reaches the sandbox.
      for (const [how, run] of paths) expect((await run(writer, 'deals_update', { id: 1, title: `Renamed by ${how}` })).isError, how).toBe(false);
      expect((await writes()).map((q) => [q.method, q.path, q.body])).toEqual([
        ['PATCH', '/api/v2/deals/1', { title: 'Renamed by named tool' }],
        ['PATCH', '/api/v2/deals/1', { title: 'Renamed by call_operation' }],
      ]);
    });
  }

  it('--areas: an operation outside the areas is refused through call_operation too', async () => {
    const client = await connect(['--areas', 'deals']);
    expect(await call(client, 'call_operation', { name: 'persons_get', arguments: { id: 1 } })).toEqual({
      isError: true,
      text: 'Refused: persons_get is outside the areas this server offers (--areas). Nothing was sent.',
    });
    expect(await fx.requests()).toEqual([]);
  });

  it('custom fields by name: translated at the entry for both paths; a bad option is refused naming the argument', async () => {
    const client = await connect(['--allow-writes']);
    const bad = await call(client, 'call_operation', { name: 'deals_update', arguments: { id: 1, custom_fields: { Segment: 'Huge' } } });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Invalid arguments, nothing was sent:\narguments\.custom_fields\.Segment: .*SMB, Mid-market, Enterprise/);
    expect((await writes())).toEqual([]);
    expect((await call(client, 'deals_update', { id: 1, custom_fields: { Segment: 'SMB' } })).isError).toBe(false);
    expect((await writes()).map((q) => [q.method, q.path, q.body])).toEqual([['PATCH', '/api/v2/deals/1', { custom_fields: { [DEAL_FIELD_KEYS.segment]: 101 } }]]);
  });

  it('call_operation checks arguments with the same entry as a named tool; an unknown operation is named', async () => {
    const client = await connect(['--allow-writes']);
    expect(await call(client, 'call_operation', { name: 'deals_create', arguments: { title: 'x', value: -5 } })).toEqual({ isError: true, text: 'Invalid arguments, nothing was sent:\nvalue: must be at least 0' });
    expect(await call(client, 'call_operation', { name: 'deals_explode', arguments: {} })).toEqual({ isError: true, text: 'Unknown operation deals_explode; find_operations lists them.' });
    expect(await fx.requests()).toEqual([]);
  });
});

describe('the default list: discovery tools and the account as resources', () => {
  it('lists the discovery tools and the curated reads only; find and describe reach any operation', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    received.push(JSON.stringify(tools));
    expect(tools.map((t) => t.name)).toEqual([
      'find_operations', 'describe_operation', 'call_operation', 'search_items', 'deals_list', 'deals_get', 'deals_search', 'leads_list',
      'persons_search', 'persons_get', 'organizations_search', 'organizations_get', 'activities_list', 'users_find',
      'account_audit', 'pipeline_analytics', 'dedupe_plan', // account health, read-only (src/health/mcp-tool-defs.ts)
      'recent_runs', // the assistant's own writes, read-only (src/mcp/runs-tool.ts)
    ]);
    const found = data((await call(client, 'find_operations', { query: 'deal participants', kind: 'write' })).text);
    expect(found.operations[0]).toEqual({
      name: 'deals_participants_add', kind: 'write', summary: expect.any(String), cost: expect.any(Number),
      refused: 'deals_participants_add changes the account and this server runs read-only: start `crmctl mcp` with --allow-writes',
    });
    const described = data((await call(client, 'describe_operation', { name: 'deals_list' })).text);
    expect(described).toMatchObject({ name: 'deals_list', kind: 'read', method: 'GET', path: '/api/v2/deals', cost: 10, allowed: true });
    expect(described.account_resources).toEqual(['crmctl://account/pipelines', 'crmctl://account/users', 'crmctl://account/fields/deal']);
    expect(described.input_schema.properties.status).toEqual({ type: 'string', enum: ['open', 'won', 'lost', 'deleted'] });
    // Reads only: describing and finding cost nothing at the service.
    expect(await fx.requests()).toEqual([]);
  });

  it('describe of a write lists the custom fields of its item type with their options', async () => {
    const client = await connect(['--allow-writes']);
    const described = data((await call(client, 'describe_operation', { name: 'deals_update' })).text);
    expect(described.custom_fields.find((f: { name: string }) => f.name === 'Segment')).toEqual({ key: expect.stringMatching(/^[0-9a-f]{40}$/), name: 'Segment', type: 'enum', custom: true, options: [{ id: 101, label: 'SMB' }, { id: 102, label: 'Mid-market' }, { id: 103, label: 'Enterprise' }] });
    expect((await fx.requests()).map((q) => [q.method, q.path])).toEqual([['GET', '/api/v2/dealFields']]);
  });

  it('resources: pipelines with stages, users, activity types and fields, read through the entry', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'crmctl://account/pipelines', 'crmctl://account/users', 'crmctl://account/activity-types', 'crmctl://account/fields/deal', 'crmctl://account/fields/person',
      'crmctl://account/fields/organization', 'crmctl://account/fields/product', 'crmctl://account/fields/activity', 'crmctl://account/fields/lead',
      'crmctl://account/fields/note', 'crmctl://account/fields/project',
    ]);
    const read = async (uri: string) => data(((await client.readResource({ uri })).contents[0] as { text: string }).text);
    const pipelines = await read('crmctl://account/pipelines');
    expect(pipelines.map((p: { name: string; stages: Array<{ name: string }> }) => [p.name, p.stages.map((s) => s.name)])).toEqual([
      ['Sales', ['Qualified', 'Contact Made', 'Demo Scheduled', 'Proposal Made', 'Negotiations Started']],
      ['Partnerships', ['Intro', 'Evaluation', 'Agreement']],
    ]);
    expect((await read('crmctl://account/users')).slice(0, 3)).toEqual([
      { id: 1, name: 'Ada Admin', email: 'ada.admin@example.com', active: true, admin: true },
      { id: 2, name: 'Reggie Regular', email: 'reggie.regular@example.com', active: true, admin: false },
      { id: 3, name: 'Sam Seller', email: 'sam.seller@example.com', active: true, admin: false },
    ]);
    expect((await read('crmctl://account/activity-types')).map((t: { key_string: string }) => t.key_string)).toEqual(['call', 'meeting', 'task', 'deadline', 'email', 'lunch', 'site_visit', 'product_demo']);
    const person = await read('crmctl://account/fields/person');
    expect(person.find((f: { name: string }) => f.name === 'Preferred language')).toMatchObject({ type: 'enum', custom: true, options: [{ id: 201, label: 'English' }, { id: 202, label: 'Estonian' }, { id: 203, label: 'Finnish' }, { id: 204, label: 'Swedish' }] });
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/pipelines', 'GET /api/v2/stages', 'GET /api/v1/users', 'GET /api/v1/activityTypes', 'GET /api/v2/personFields']);
    await expect(client.readResource({ uri: 'crmctl://account/widgets' })).rejects.toThrow(/Unknown resource crmctl:\/\/account\/widgets; resources\/list names them\./);
  });
});
