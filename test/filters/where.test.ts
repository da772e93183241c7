// filters create --where: conditions written with field names, operators and option labels become the
// vendor's condition tree (POST /v1/filters: one AND group of AND and OR groups of {object, field_id,
// operator, value, extra_value}), with field ids from the v1 field list. The filter then selects the deals
// it says. A misspelt name, operator or label is exit 2 naming it and the nearest, and nothing is written.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
/** v1 field ids by key, as the sandbox's v1 list gives them (the numbers a condition names). */
const ids: Record<string, number> = {};
let budget = '';
let segment = '';

const bin = (args: string[]) => runBin(args, { env: fx.env });

async function api(method: string, path: string, body?: unknown): Promise<{ data: unknown }> {
  const res = await fetch(`${fx.sandbox.url}${path}`, { method, headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: unknown };
}

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
  for (const f of (await api('GET', '/api/v1/dealFields?limit=500')).data as Array<{ id: number; key: string; name: string }>) {
    ids[f.key] = f.id;
    if (f.name === 'Budget') budget = f.key;
    if (f.name === 'Segment') segment = f.key;
  }
  // Segment options of the seeded account: 101 SMB, 102 Mid-market, 103 Enterprise. Stage 1 is Sales/Qualified.
  const deal = async (title: string, stage: number, owner: number, b: number, s: number) =>
    ((await api('POST', '/api/v2/deals', { title, stage_id: stage, owner_id: owner, custom_fields: { [budget]: b, [`${budget}_currency`]: 'EUR', [segment]: s } })).data as { id: number }).id;
  await deal('fits every condition', 1, 2, 5000, 103);
  await deal('budget too small', 1, 2, 900, 103);
  await deal('another segment', 1, 2, 5000, 101);
  await deal('another stage', 2, 2, 5000, 103);
  await deal('another owner', 1, 3, 5000, 103);
}, 120_000);
afterAll(async () => fx?.close());
beforeEach(async () => fx.clearRequests());

describe('filters create --where', () => {
  it('a custom number field, an option label, a stage name and a user name become the documented tree; the filter selects the deal that fits', async () => {
    const r = await bin(['filters', 'create', '--name', 'Enterprise qualified', '--type', 'deals',
      '--where', 'Budget > 1000', '--where', 'segment = Enterprise', '--where', 'Stage = Qualified', '--where', 'Owner = Reggie Regular', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const reqs = await fx.requests();
    // Reads the field ids, the stages (with their pipelines) and the users; then one write.
    // users/me: the write is recorded as a run of this account.
    expect(reqs.map((q) => `${q.method} ${q.path}`).sort()).toEqual(['GET /api/v1/dealFields', 'GET /api/v1/users', 'GET /api/v1/users/me', 'GET /api/v2/pipelines', 'GET /api/v2/stages', 'POST /api/v1/filters']);
    const post = reqs.find((q) => q.method === 'POST')!;
    expect(post.body).toEqual({
      name: 'Enterprise qualified',
      type: 'deals',
      conditions: {
        glue: 'and',
        conditions: [
          {
            glue: 'and',
            conditions: [
              { object: 'deal', field_id: String(ids[budget]), operator: '>', value: '1000', extra_value: null },
              { object: 'deal', field_id: String(ids[segment]), operator: '=', value: '103', extra_value: null },
              { object: 'deal', field_id: String(ids.stage_id), operator: '=', value: '1', extra_value: null },
              { object: 'deal', field_id: String(ids.user_id), operator: '=', value: '2', extra_value: null },
            ],
          },
          { glue: 'or', conditions: [] },
        ],
      },
    });
    const filter = JSON.parse(r.stdout) as { id: number };
    const listed = await bin(['deals', 'list', '--filter-id', String(filter.id), '--query', '[].title', '-o', 'tsv']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('fits every condition\n');
  });

  it('--or-where fills the OR group; a system text field takes "contains", "is empty" takes no value', async () => {
    const r = await bin(['filters', 'create', '--name', 'Either', '--type', 'deals', '--where', 'Lost reason is empty', '--or-where', 'Title contains another', '--or-where', 'Stage = Sales/Contact Made', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const post = (await fx.requests()).find((q) => q.method === 'POST')!;
    expect(post.body).toMatchObject({
      conditions: {
        glue: 'and',
        conditions: [
          { glue: 'and', conditions: [{ object: 'deal', field_id: String(ids.lost_reason), operator: 'IS NULL', value: null, extra_value: null }] },
          { glue: 'or', conditions: [
            { object: 'deal', field_id: String(ids.title), operator: "LIKE '%$%'", value: 'another', extra_value: null },
            { object: 'deal', field_id: String(ids.stage_id), operator: '=', value: '2', extra_value: null },
          ] },
        ],
      },
    });
    const listed = await bin(['deals', 'list', '--filter-id', String((JSON.parse(r.stdout) as { id: number }).id), '--query', '[].title', '-o', 'tsv']);
    // The deals the tree describes, read from the state the sandbox holds (demo deals included).
    const want = (await fx.collection<{ title: string; stage_id: number; lost_reason: string | null; is_deleted?: boolean }>('deals'))
      .filter((d) => !d.is_deleted && !d.lost_reason && (d.title.toLowerCase().includes('another') || d.stage_id === 2)).map((d) => d.title);
    expect(want).toEqual(expect.arrayContaining(['another owner', 'another segment', 'another stage']));
    expect(listed.stdout.split('\n').filter(Boolean).sort()).toEqual(want.sort());
  });
});

describe('conditions by name in --data: the same translation as --where (the entry runs it for every door)', () => {
  it('a `where` key of --data sends the tree --where sends', async () => {
    const viaFlags = await bin(['filters', 'create', '--name', 'By flags', '--type', 'deals', '--where', 'Budget > 1000', '--or-where', 'Stage = Qualified', '--json']);
    expect(viaFlags.code).toBe(0);
    const viaData = await bin(['filters', 'create', '--data', JSON.stringify({ name: 'By data', type: 'deals', where: ['Budget > 1000'], or_where: ['Stage = Qualified'] }), '--json']);
    expect(viaData.stderr).toBe('');
    expect(viaData.code).toBe(0);
    const posts = (await fx.requests()).filter((q) => q.method === 'POST').map((q) => q.body as { name: string; conditions: unknown });
    expect(posts.map((p) => p.name)).toEqual(['By flags', 'By data']);
    expect(posts[1]!.conditions).toEqual(posts[0]!.conditions);
    expect(posts[1]!.conditions).toEqual({
      glue: 'and',
      conditions: [
        { glue: 'and', conditions: [{ object: 'deal', field_id: String(ids[budget]), operator: '>', value: '1000', extra_value: null }] },
        { glue: 'or', conditions: [{ object: 'deal', field_id: String(ids.stage_id), operator: '=', value: '1', extra_value: null }] },
      ],
    });
  });

  it('a misspelt name in --data is refused as with --where, naming the nearest field; nothing is written', async () => {
    const r = await bin(['filters', 'create', '--data', JSON.stringify({ name: 'x', type: 'deals', where: 'Budgte > 1000' })]);
    expect(r.stderr).toBe('error: --where "Budgte > 1000": unknown field "Budgte" (did you mean "Budget"?); see crmctl deal-fields list\n');
    expect(r.code).toBe(2);
    expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('neither conditions nor where: exit 2 naming --conditions, nothing sent', async () => {
    const r = await bin(['filters', 'create', '--name', 'x', '--type', 'deals']);
    expect(r.stderr).toBe('error: --conditions: is required (or give the conditions by name with where)\n');
    expect(r.code).toBe(2);
    expect(await fx.requests()).toEqual([]);
  });
});

describe('filters update --where', () => {
  it('replaces the conditions of a filter, with the names of its own item type', async () => {
    const filters = await fx.collection<{ id: number; type: string }>('filters');
    const deals = filters.find((f) => f.type === 'deals')!;
    const r = await bin(['filters', 'update', String(deals.id), '--where', 'Value >= 5000', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const reqs = await fx.requests();
    // The filter's type, the fields; the filter again (the conditions the write replaces are recorded); the write.
    expect(reqs.map((q) => `${q.method} ${q.path}`)).toEqual([`GET /api/v1/filters/${deals.id}`, 'GET /api/v1/dealFields', `GET /api/v1/filters/${deals.id}`, `PUT /api/v1/filters/${deals.id}`]);
    expect(reqs[3]!.body).toEqual({ conditions: { glue: 'and', conditions: [{ glue: 'and', conditions: [{ object: 'deal', field_id: String(ids.value), operator: '>=', value: '5000', extra_value: null }] }, { glue: 'or', conditions: [] }] } });
    const leads = filters.find((f) => f.type === 'leads')!;
    const refused = await bin(['filters', 'update', String(leads.id), '--where', 'Title = a']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('error: --where: is available for filters of type deals, people, org, products, activity; for leads give --conditions JSON\n');
  });
});

describe('filters create --where refusals: exit 2 naming it and the nearest, nothing written', () => {
  const cases: Array<[string, string]> = [
    ['Budgte > 1000', 'error: --where "Budgte > 1000": unknown field "Budgte" (did you mean "Budget"?); see crmctl deal-fields list\n'],
    ['Budget => 1000', 'error: --where "Budget => 1000": unknown operator "=>" (did you mean ">="?); operators: =, !=, <, >, <=, >=, is empty, is not empty, starts with, contains, does not start with\n'],
    ['Stage iss empty', 'error: --where "Stage iss empty": unknown operator "iss empty" (did you mean "is empty"?); operators: =, !=, <, >, <=, >=, is empty, is not empty, starts with, contains, does not start with\n'],
    ['Segment = Enterprize', 'error: --where "Segment = Enterprize": "Enterprize" is not an option of Segment (did you mean "Enterprise"?); options: SMB, Mid-market, Enterprise\n'],
    ['Stage = Qualifed', 'error: --where "Stage = Qualifed": no stage "Qualifed" (did you mean "Qualified"?); stages: Sales/Qualified, Sales/Contact Made, Sales/Demo Scheduled, Sales/Proposal Made, Sales/Negotiations Started, Partnerships/Intro, Partnerships/Evaluation, Partnerships/Agreement\n'],
    ['Owner = Reggie Regulr', 'error: --where "Owner = Reggie Regulr": no user "Reggie Regulr" (did you mean "Reggie Regular"?); give a name, an email or an id (crmctl users list)\n'],
    ['Segment > Enterprise', 'error: --where "Segment > Enterprise": ">" does not apply to Segment (field type enum); use =, !=, is empty, is not empty\n'],
    ['Budget > lots', 'error: --where "Budget > lots": Budget is a number field: "lots" is not a number\n'],
  ];
  for (const [where, stderr] of cases) {
    it(where, async () => {
      const r = await bin(['filters', 'create', '--name', 'x', '--type', 'deals', '--where', where]);
      expect(r.stderr).toBe(stderr);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
    });
  }

  it('--where beside --conditions, and an item type --where cannot write', async () => {
    const both = await bin(['filters', 'create', '--name', 'x', '--type', 'deals', '--where', 'Budget > 1', '--conditions', '{"glue":"and","conditions":[{"glue":"and","conditions":[]}]}']);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: --where: cannot be combined with --conditions (give the conditions one way)\n');
    const leads = await bin(['filters', 'create', '--name', 'x', '--type', 'leads', '--where', 'Title = a']);
    expect(leads.code).toBe(2);
    expect(leads.stderr).toBe('error: --where: is available for filters of type deals, people, org, products, activity; for leads give --conditions JSON\n');
    expect(await fx.requests()).toEqual([]);
  });
});
