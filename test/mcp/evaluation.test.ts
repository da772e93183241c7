// An evaluation of `crmctl mcp` without a model: a scripted client (the SDK's own Client over stdio,
// spawning the bundle as an assistant's client would) performs realistic tasks against the sandbox
// using only what the DEFAULT tool list offers (discovery tools, curated tools, account resources),
// and each test asserts the state left in the sandbox. It prints, per task, the calls made and the
// bytes exchanged, and the tools/list size per mode, so a change that bloats either shows in numbers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ORG_FIELD_KEYS, PERSON_FIELD_KEYS } from '../../src/sandbox/handlers/fields.js';
import { DEAL_FIELD_KEYS } from '../../src/sandbox/seed/base.js';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { dataOf } from './helpers.js';

let fx: SandboxFixture;
let client: Client;
/** Tool names the default list offers (writes allowed): a task may call only these. */
let listed: Set<string>;
const report: Array<{ task: string; calls: number; bytes: number }> = [];
const sizes: Array<{ mode: string; tools: number; bytes: number }> = [];

type Rec = Record<string, any>;

async function open(flags: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...flags], env: cleanEnv(fx.env) as Record<string, string>, stderr: 'pipe' });
  const c = new Client({ name: 'crmctl-eval', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

/** One task's traffic: every tool call and resource read, counted in calls and JSON bytes both ways. */
class Session {
  calls = 0;
  bytes = 0;
  constructor(private readonly task: string) {}

  async tool(name: string, args: Rec = {}): Promise<any> {
    expect(listed.has(name), `${name} is not in the default tool list`).toBe(true);
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
    this.count({ name, arguments: args }, r);
    const text = r.content.map((c) => c.text).join('\n');
    if (r.isError) throw new Error(`${name} failed: ${text}`);
    return dataOf(text);
  }

  /** An operation outside the curated list, the way an assistant reaches it: find, describe, call. */
  async operation(words: string, name: string, args: Rec): Promise<any> {
    const found = await this.tool('find_operations', { query: words });
    expect(found.operations.map((o: Rec) => o.name), `find_operations "${words}"`).toContain(name);
    const described = await this.tool('describe_operation', { name });
    expect(described.allowed).toBe(true);
    return this.tool('call_operation', { name, arguments: args });
  }

  async resource(path: string): Promise<any> {
    const uri = `crmctl://account/${path}`;
    const r = await client.readResource({ uri });
    this.count({ uri }, r);
    return dataOf((r.contents[0] as { text: string }).text);
  }

  private count(request: unknown, response: unknown): void {
    this.calls++;
    this.bytes += Buffer.byteLength(JSON.stringify(request)) + Buffer.byteLength(JSON.stringify(response));
  }

  done(): void {
    report.push({ task: this.task, calls: this.calls, bytes: this.bytes });
  }
}

/** A task: its traffic is recorded whether it passes or not. */
function task(name: string, run: (s: Session) => Promise<void>): void {
  it(name, async () => {
    const s = new Session(name);
    try {
      await run(s);
    } finally {
      s.done();
    }
  });
}

/** Calls the sandbox's API directly (setup only, never on the assistant's behalf). */
async function api(method: string, path: string, body?: unknown): Promise<Rec> {
  const res = await fetch(`${fx.sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return ((await res.json()) as Rec).data;
}

async function sandboxNow(): Promise<Date> {
  const r = (await (await fetch(`${fx.sandbox.url}/__sandbox/clock`)).json()) as Rec;
  return new Date(r.data.now);
}

const byName = <T extends Rec>(list: T[], name: string, key = 'name'): T => {
  const hit = list.find((x) => x[key] === name);
  if (!hit) throw new Error(`no ${name} in ${list.map((x) => x[key]).join(', ')}`);
  return hit;
};

beforeAll(async () => {
  fx = await startFixture({ seed: 'demo' });
  for (const [mode, flags] of [
    ['default (read-only)', []],
    ['default --allow-writes', ['--allow-writes']],
    ['--all-tools (read-only)', ['--all-tools']],
    ['--all-tools --allow-writes --allow-destructive', ['--all-tools', '--allow-writes', '--allow-destructive']],
  ] as Array<[string, string[]]>) {
    const c = await open(flags);
    const { tools } = await c.listTools();
    sizes.push({ mode, tools: tools.length, bytes: Buffer.byteLength(JSON.stringify(tools)) });
    await c.close();
  }
  client = await open(['--allow-writes']);
  listed = new Set((await client.listTools()).tools.map((t) => t.name));
}, 60_000);

beforeEach(async () => {
  await fx.reset('demo');
});

afterAll(async () => {
  await client?.close();
  await fx?.close();
  const pad = (s: string | number, n: number) => String(s).padEnd(n);
  const lines = ['', 'MCP evaluation: default tool list (--allow-writes)', `${pad('task', 72)}${pad('calls', 7)}bytes`];
  for (const r of report) lines.push(`${pad(r.task.length > 70 ? `${r.task.slice(0, 67)}...` : r.task, 72)}${pad(r.calls, 7)}${r.bytes}`);
  lines.push(`${pad('total', 72)}${pad(report.reduce((n, r) => n + r.calls, 0), 7)}${report.reduce((n, r) => n + r.bytes, 0)}`, '', `${pad('tools/list per mode', 50)}${pad('tools', 7)}${pad('bytes', 9)}~tokens`);
  for (const m of sizes) lines.push(`${pad(m.mode, 50)}${pad(m.tools, 7)}${pad(m.bytes, 9)}${Math.round(m.bytes / 4)}`);
  console.log(lines.join('\n'));
});

describe('MCP evaluation: tasks with the default tool list', () => {
  it('the default list fits every client: at most 40 tools and about 8,000 tokens (bytes / 4), in every policy', () => {
    for (const m of sizes.filter((x) => x.mode.startsWith('default'))) {
      expect(m.tools, m.mode).toBeLessThanOrEqual(40);
      expect(m.bytes / 4, m.mode).toBeLessThanOrEqual(8000);
    }
    expect(listed).toContain('find_operations');
    expect(listed).toContain('call_operation');
  });

  task('1. reassign the open deals stuck in "Demo Scheduled" for more than 30 days to Sam Seller', async (s) => {
    // A deal that moved into the stage just now: not stuck, must keep its owner.
    const fresh = await api('POST', '/api/v2/deals', { title: 'Fresh demo', stage_id: 2, owner_id: 1 });
    await api('PATCH', `/api/v2/deals/${fresh.id}`, { stage_id: 3 });
    const pipelines = await s.resource('pipelines');
    const stage = byName(pipelines.flatMap((p: Rec) => p.stages), 'Demo Scheduled');
    const sam = byName(await s.resource('users'), 'Sam Seller');
    const page = await s.tool('deals_list', { stage_id: stage.id, status: 'open', fields: ['id', 'stage_change_time', 'add_time'] });
    const cutoff = (await sandboxNow()).getTime() - 30 * 86_400_000;
    const stuck = page.records.filter((d: Rec) => Date.parse(d.stage_change_time ?? d.add_time) < cutoff);
    for (const d of stuck) await s.tool('deals_update', { id: d.id, owner_id: sam.id });

    const deals = await fx.collection<Rec>('deals');
    const inStage = deals.filter((d) => d.stage_id === stage.id && d.status === 'open');
    // Every deal of the seed in the stage moved there in 2025: all stuck, all Sam's now; the fresh one is not.
    expect(inStage.map((d) => [d.title, d.owner_id])).toEqual([['Acme annual licence', sam.id], ['Regional expansion licence', sam.id], ['Globex renewal 2025', sam.id], ['Fresh demo', 1]]);
    expect(stuck).toHaveLength(3);
  });

  task('2. add a call activity tomorrow to the largest open deal of "Umbrella Logistics"', async (s) => {
    const orgs = await s.tool('organizations_search', { term: 'Umbrella Logistics' });
    const org = orgs.records.find((r: Rec) => (r.item ?? r).name === 'Umbrella Logistics');
    const orgId = (org.item ?? org).id;
    const deals = (await s.tool('deals_list', { org_id: orgId, status: 'open', fields: ['id', 'value'] })).records;
    const largest = deals.reduce((a: Rec, b: Rec) => (b.value > a.value ? b : a));
    const tomorrow = new Date((await sandboxNow()).getTime() + 86_400_000).toISOString().slice(0, 10);
    await s.tool('activities_create', { subject: 'Call about the fleet rollout', type: 'call', deal_id: largest.id, due_date: tomorrow });

    const made = (await fx.collection<Rec>('activities')).filter((a) => a.subject === 'Call about the fleet rollout');
    expect(made.map((a) => [a.type, a.deal_id, a.due_date, a.done])).toEqual([['call', 4, tomorrow, false]]);
  });

  task("3. list Alice Andersson's open deals with their stage names", async (s) => {
    const people = await s.tool('persons_search', { term: 'Alice Andersson' });
    const alice = people.records.map((r: Rec) => r.item ?? r).find((p: Rec) => p.name === 'Alice Andersson');
    const deals = (await s.tool('deals_list', { person_id: alice.id, status: 'open', fields: ['title', 'stage_id'] })).records;
    const stages = new Map((await s.resource('pipelines')).flatMap((p: Rec) => p.stages).map((st: Rec) => [st.id, st.name]));
    const answer = deals.map((d: Rec) => ({ title: d.title, stage: stages.get(d.stage_id) }));

    // The answer against the sandbox's own records.
    const all = await fx.collection<Rec>('deals');
    const stageRows = await fx.collection<Rec>('stages');
    const expected = all.filter((d) => d.person_id === 1 && d.status === 'open' && !d.is_deleted).map((d) => ({ title: d.title, stage: stageRows.find((st) => st.id === d.stage_id)!.name }));
    expect(answer).toEqual(expected);
    expect(answer).toEqual([{ title: 'Acme annual licence', stage: 'Demo Scheduled' }, { title: 'Acme add-on seats', stage: 'Contact Made' }]);
  });

  task('4. set the custom field "Segment" to Enterprise on three deals (key and option read from the fields resource)', async (s) => {
    const fields = await s.resource('fields/deal');
    const segment = byName(fields, 'Segment');
    const enterprise = byName(segment.options, 'Enterprise', 'label');
    for (const title of ['Acme annual licence', 'Globex onboarding', 'Umbrella fleet tracking']) {
      const hit = (await s.tool('deals_search', { term: title, exact_match: true })).records.map((r: Rec) => r.item ?? r)[0];
      await s.tool('deals_update', { id: hit.id, custom_fields: { [segment.key]: enterprise.id } });
    }
    const deals = await fx.collection<Rec>('deals');
    expect(deals.filter((d) => d.custom_fields?.[DEAL_FIELD_KEYS.segment] !== undefined).map((d) => [d.id, d.custom_fields[DEAL_FIELD_KEYS.segment]])).toEqual([[1, enterprise.id], [2, enterprise.id], [4, enterprise.id]]);
  });

  task('4b. set "Segment" to Mid-market on three deals by NAME in the arguments, and read them back by name', async (s) => {
    const ids: number[] = [];
    for (const title of ['Acme annual licence', 'Globex onboarding', 'Umbrella fleet tracking']) {
      const hit = (await s.tool('deals_search', { term: title, exact_match: true })).records.map((r: Rec) => r.item ?? r)[0];
      ids.push(hit.id);
      await s.tool('deals_update', { id: hit.id, custom_fields: { Segment: 'Mid-market' } });
    }
    const named = await s.tool('call_operation', { name: 'deals_get', arguments: { id: ids[0] }, names: true });
    expect([named.title, named.Segment, named.custom_fields]).toEqual(['Acme annual licence', 'Mid-market', undefined]);

    const deals = await fx.collection<Rec>('deals');
    expect(deals.filter((d) => d.custom_fields?.[DEAL_FIELD_KEYS.segment] !== undefined).map((d) => [d.id, d.custom_fields[DEAL_FIELD_KEYS.segment]])).toEqual([[1, 102], [2, 102], [4, 102]]);
  });

  task('5. move "Globex onboarding" to the next stage of its pipeline', async (s) => {
    const deal = (await s.tool('deals_search', { term: 'Globex onboarding' })).records.map((r: Rec) => r.item ?? r)[0];
    const full = await s.tool('deals_get', { id: deal.id, fields: ['id', 'stage_id', 'pipeline_id'] });
    const stages = byName(await s.resource('pipelines'), 'Sales', 'name').stages as Rec[];
    const next = stages[stages.findIndex((st) => st.id === full.stage_id) + 1]!;
    await s.tool('deals_update', { id: full.id, stage_id: next.id });

    const after = (await fx.collection<Rec>('deals')).find((d) => d.id === deal.id)!;
    expect([after.stage_id, after.pipeline_id]).toEqual([2, 1]);
  });

  task('6. note on Bob Berzins that he asked for a call back in March', async (s) => {
    const bob = (await s.tool('persons_search', { term: 'Bob Berzins' })).records.map((r: Rec) => r.item ?? r)[0];
    await s.tool('notes_create', { content: 'Asked for a call back in March.', person_id: bob.id });
    const notes = (await fx.collection<Rec>('notes')).filter((n) => n.content === 'Asked for a call back in March.');
    expect(notes.map((n) => [n.person_id, n.deal_id])).toEqual([[2, null]]);
  });

  task('7. mark "Send Globex onboarding plan" done (an operation outside the list: find, describe, call)', async (s) => {
    const before = (await fx.collection<Rec>('activities')).map((a) => [a.subject, a.done]);
    const acts = (await s.tool('activities_list', { done: false, fields: ['id', 'subject'] })).records;
    const act = byName(acts, 'Send Globex onboarding plan', 'subject');
    await s.operation('update activity', 'activities_update', { id: act.id, done: true });
    const after = (await fx.collection<Rec>('activities')).map((a) => [a.subject, a.done]);
    // That one activity is done; every other is as it was.
    expect(after).toEqual(before.map(([subject, done]) => [subject, subject === 'Send Globex onboarding plan' ? true : done]));
    expect(before).toContainEqual(['Send Globex onboarding plan', false]);
  });

  task('8. add Karl Kask (karl.kask@initech.example) as a person at Initech', async (s) => {
    const org = (await s.tool('organizations_search', { term: 'Initech' })).records.map((r: Rec) => r.item ?? r)[0];
    await s.operation('create person', 'persons_create', { name: 'Karl Kask', org_id: org.id, emails: [{ value: 'karl.kask@initech.example', primary: true }] });
    const karl = (await fx.collection<Rec>('persons')).filter((p) => p.name === 'Karl Kask');
    expect(karl.map((p) => [p.org_id, p.emails.map((e: Rec) => e.value)])).toEqual([[3, ['karl.kask@initech.example']]]);
  });

  task('9. mark "Umbrella fleet tracking" won', async (s) => {
    const deal = (await s.tool('deals_search', { term: 'Umbrella fleet tracking', exact_match: true })).records.map((r: Rec) => r.item ?? r)[0];
    await s.tool('deals_update', { id: deal.id, status: 'won' });
    const after = (await fx.collection<Rec>('deals')).find((d) => d.id === deal.id)!;
    expect([after.title, after.status, typeof after.won_time]).toEqual(['Umbrella fleet tracking', 'won', 'string']);
  });

  task('10. schedule a meeting with Dan Dahl on his open deal for next Monday, owned by Reggie Regular', async (s) => {
    const dan = (await s.tool('persons_search', { term: 'Dan Dahl' })).records.map((r: Rec) => r.item ?? r)[0];
    const deal = (await s.tool('deals_list', { person_id: dan.id, status: 'open', fields: ['id'] })).records[0];
    const types = await s.resource('activity-types');
    const meeting = byName(types, 'Meeting');
    const reggie = byName(await s.resource('users'), 'Reggie Regular');
    const now = await sandboxNow();
    const monday = new Date(now.getTime() + (((8 - now.getUTCDay()) % 7) || 7) * 86_400_000).toISOString().slice(0, 10);
    await s.tool('activities_create', { subject: 'Rollout planning', type: meeting.key_string, owner_id: reggie.id, deal_id: deal.id, person_id: dan.id, due_date: monday });

    const made = (await fx.collection<Rec>('activities')).filter((a) => a.subject === 'Rollout planning');
    expect(made.map((a) => [a.type, a.owner_id, a.deal_id, a.person_id, a.due_date])).toEqual([['meeting', 2, 4, 4, monday]]);
    expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  task('11. rename the "Big open deals" filter to "Open deals over 10k" (filters through find, describe, call)', async (s) => {
    const before = (await fx.collection<Rec>('filters')).map((f) => f.name);
    const list = await s.operation('list filters', 'filters_list', { type: 'deals' });
    const filter = byName(list.records ?? list, 'Big open deals');
    // The service wants the conditions on every update: they are read and sent back as read (each
    // carries the json_value_flag the service sets, which filters_update takes and does not send).
    const full = await s.tool('call_operation', { name: 'filters_get', arguments: { id: filter.id } });
    expect(JSON.stringify(full.conditions)).toContain('"json_value_flag"');
    await s.tool('call_operation', { name: 'filters_update', arguments: { id: filter.id, name: 'Open deals over 10k', conditions: full.conditions } });
    const after = (await fx.collection<Rec>('filters')).map((f) => f.name);
    expect(after).toEqual(before.map((n) => (n === 'Big open deals' ? 'Open deals over 10k' : n)));
    expect(before).toContain('Big open deals');
    const renamed = (await fx.collection<Rec>('filters')).find((f) => f.name === 'Open deals over 10k')!;
    expect(JSON.stringify(renamed.conditions)).toContain('"field_id"');
  });

  task('12. create a filter of deals by field names: "Lead score >= 40" and in stage "Qualified"', async (s) => {
    const described = await s.tool('describe_operation', { name: 'filters_create' });
    expect(Object.keys(described.input_schema.properties)).toEqual(expect.arrayContaining(['where', 'or_where', 'conditions']));
    await s.operation('create filter', 'filters_create', { name: 'Warm qualified deals', type: 'deals', where: ['Lead score>=40', 'stage=Qualified'] });

    // The ids a condition names, from the sandbox's own v1 field list and stages.
    const fields = (await api('GET', '/api/v1/dealFields?limit=500')) as unknown as Rec[];
    const idOf = (key: string) => String(byName(fields, key, 'key').id);
    const qualified = byName(await fx.collection<Rec>('stages'), 'Qualified');
    const made = (await fx.collection<Rec>('filters')).filter((f) => f.name === 'Warm qualified deals');
    expect(made.map((f) => [f.type, f.conditions])).toEqual([[
      'deals',
      {
        glue: 'and',
        conditions: [
          { glue: 'and', conditions: [
            expect.objectContaining({ object: 'deal', field_id: idOf(DEAL_FIELD_KEYS.leadScore), operator: '>=', value: '40' }),
            expect.objectContaining({ object: 'deal', field_id: idOf('stage_id'), operator: '=', value: String(qualified.id) }),
          ] },
          { glue: 'or', conditions: [] },
        ],
      },
    ]]);
  });

  task('13. set Bob Berzins\'s "Preferred language" to Finnish and "Lifetime value" to 12000 EUR by NAME, and read them back by name', async (s) => {
    const bob = (await s.tool('persons_search', { term: 'Bob Berzins' })).records.map((r: Rec) => r.item ?? r)[0];
    await s.operation('update person', 'persons_update', { id: bob.id, custom_fields: { 'Preferred language': 'Finnish', 'Lifetime value': '12000 EUR' } });
    const named = await s.tool('persons_get', { id: bob.id, names: true, fields: ['name', 'Preferred language', 'Lifetime value'] });
    expect(named).toEqual({ name: 'Bob Berzins', 'Preferred language': 'Finnish', 'Lifetime value': { value: 12000, currency: 'EUR' } });

    // The state behind: the option id and the amount with its currency, under the hash keys.
    const stored = (await fx.collection<Rec>('persons')).find((p) => p.id === bob.id)!;
    const K = PERSON_FIELD_KEYS;
    expect([stored.custom_fields[K.language], stored.custom_fields[K.lifetimeValue], stored.custom_fields[`${K.lifetimeValue}_currency`]]).toEqual([203, 12000, 'EUR']);
  });

  task('14. tag Acme Corporation\'s industry as Finance by NAME and list the organizations by name', async (s) => {
    const acme = (await s.tool('organizations_search', { term: 'Acme Corporation' })).records.map((r: Rec) => r.item ?? r)[0];
    await s.tool('call_operation', { name: 'organizations_update', arguments: { id: acme.id, custom_fields: { Industry: 'Finance' } } });
    const got = await s.tool('organizations_get', { id: acme.id, names: true });
    expect([got.name, got.Industry, got.custom_fields, got[ORG_FIELD_KEYS.industry]]).toEqual(['Acme Corporation', 'Finance', undefined, undefined]);
    // Without names the tool answers the service's record: the option id under the hash key.
    const raw = await s.tool('organizations_get', { id: acme.id, fields: ['custom_fields'] });
    expect(raw.custom_fields[ORG_FIELD_KEYS.industry]).toBe(302);
    expect((await fx.collection<Rec>('organizations')).find((o) => o.id === acme.id)!.custom_fields[ORG_FIELD_KEYS.industry]).toBe(302);
  });

  task('15. list open deals with their custom fields by name (names: true on a curated list tool)', async (s) => {
    await s.tool('deals_update', { id: 1, custom_fields: { Segment: 'Enterprise' } });
    const page = await s.tool('deals_list', { status: 'open', names: true, fields: ['title', 'Segment', 'Lead score'], limit: 2 });
    expect(page.records).toEqual([{ title: 'Acme annual licence', Segment: 'Enterprise', 'Lead score': 40 }, { title: 'Globex onboarding', Segment: null, 'Lead score': 50 }]);
    // A name the item type does not have is refused with the list, nothing sent.
    await expect(s.tool('deals_list', { names: true, fields: ['title', 'Segmnt'] })).rejects.toThrow('deals_list failed: Invalid arguments, nothing was sent:\nfields: unknown field Segmnt;');
  });

  task('12b. a misspelt field name in where is refused naming the argument and the nearest name; nothing is created', async (s) => {
    const before = (await fx.collection<Rec>('filters')).length;
    await expect(s.tool('call_operation', { name: 'filters_create', arguments: { name: 'x', type: 'deals', where: ['Lead scor >= 40'] } })).rejects.toThrow(
      'call_operation failed: Invalid arguments, nothing was sent:\narguments.where[0] "Lead scor >= 40": unknown field "Lead scor" (did you mean "Lead score"?); see crmctl deal-fields list',
    );
    expect((await fx.collection<Rec>('filters')).length).toBe(before);
  });
});
