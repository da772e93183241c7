// The sandbox against the vendor's documents (issue 18, points 12-17): raw requests, the documented answer.
import { describe, expect, test } from 'vitest';
import { boot } from './helpers.js';

type Call = Awaited<ReturnType<typeof boot>>['call'];
const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);

async function saveFilter(call: Call, type: string, conditions: Array<Record<string, unknown>>): Promise<number> {
  const r = await call('POST', '/api/v1/filters', { body: { name: `f${Math.random()}`, type, conditions: { glue: 'and', conditions: [{ glue: 'and', conditions }, { glue: 'or', conditions: [] }] } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.id;
}

describe('saved filters on system fields whose code is not the record member', () => {
  test('a deals filter on Pipeline (field id 6, = 1) matches the deals ?pipeline_id=1 lists', async () => {
    const { call } = await boot();
    const fields = (await call('GET', '/api/v1/dealFields?limit=500')).body.data as Array<{ id: number; key: string; name: string }>;
    expect(fields.find((f) => f.id === 6)).toMatchObject({ key: 'pipeline', name: 'Pipeline' });
    const byParam = (await call('GET', '/api/v2/deals?pipeline_id=1&limit=500')).body.data;
    expect(byParam.length).toBeGreaterThan(0);
    const f = await saveFilter(call, 'deals', [{ object: 'deal', field_id: 6, operator: '=', value: '1' }]);
    const byFilter = (await call('GET', `/api/v2/deals?filter_id=${f}&limit=500`)).body.data;
    expect(ids(byFilter)).toEqual(ids(byParam));
  });

  test('a deals filter on Owner (user_id) matches the owner_id list', async () => {
    const { call } = await boot();
    const owner = (await call('GET', '/api/v1/dealFields?limit=500')).body.data.find((x: { key: string }) => x.key === 'user_id');
    const f = await saveFilter(call, 'deals', [{ object: 'deal', field_id: owner.id, operator: '=', value: '2' }]);
    const byFilter = (await call('GET', `/api/v2/deals?filter_id=${f}&limit=500`)).body.data;
    const byParam = (await call('GET', '/api/v2/deals?owner_id=2&limit=500')).body.data;
    expect(byParam.length).toBeGreaterThan(0);
    expect(ids(byFilter)).toEqual(ids(byParam));
  });
});

describe('GET /api/v2/deals with filter_id', () => {
  test('status is ignored when filter_id is given (the documents), used without it', async () => {
    const { call } = await boot();
    const all = (await call('GET', '/api/v2/deals?limit=500')).body.data as Array<{ id: number; status: string }>;
    const won = all.filter((d) => d.status === 'won');
    expect(won.length).toBeGreaterThan(0);
    expect(all.length).toBeGreaterThan(won.length);
    const f = await saveFilter(call, 'deals', [{ object: 'deal', field_id: 6, operator: '=', value: '1' }]);
    const plain = (await call('GET', `/api/v2/deals?filter_id=${f}&limit=500`)).body.data;
    const withStatus = (await call('GET', `/api/v2/deals?filter_id=${f}&status=won&limit=500`)).body.data;
    expect(ids(withStatus)).toEqual(ids(plain));
    expect(plain.some((d: { status: string }) => d.status !== 'won')).toBe(true);
    expect(ids((await call('GET', '/api/v2/deals?status=won&limit=500')).body.data)).toEqual(ids(won));
  });
});

describe('GET /v1/currencies?term=', () => {
  test('term is searched in the name and the code', async () => {
    const { call } = await boot();
    const all = (await call('GET', '/v1/currencies')).body.data as Array<{ code: string; name: string }>;
    expect(all.length).toBeGreaterThan(2);
    expect(await call('GET', '/v1/currencies?term=zzz')).toMatchObject({ status: 200, body: { success: true, data: [] } });
    expect((await call('GET', '/v1/currencies?term=eur')).body.data.map((c: { code: string }) => c.code)).toContain('EUR');
    const byName = (await call('GET', '/v1/currencies?term=dollar')).body.data as Array<{ code: string; name: string }>;
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.every((c) => /dollar/i.test(c.name))).toBe(true);
    expect(byName.length).toBeLessThan(all.length);
  });
});

describe('deprecated deal lists of a pipeline and of a stage', () => {
  test('GET /v1/pipelines/{id}/deals and /v1/stages/{id}/deals are served (v1 deals, offset pages)', async () => {
    const { call } = await boot();
    const open = (await call('GET', '/api/v2/deals?pipeline_id=1&status=open&limit=500')).body.data as Array<{ id: number; owner_id: number; stage_id: number }>;
    expect(open.length).toBeGreaterThan(0);
    const everyone = await call('GET', '/v1/pipelines/1/deals?everyone=1');
    expect(everyone.status).toBe(200);
    expect(everyone.body).toMatchObject({ success: true, additional_data: { pagination: { start: 0, more_items_in_collection: false } } });
    expect(ids(everyone.body.data)).toEqual(ids(open));
    expect(everyone.body.data[0]).toMatchObject({ pipeline_id: 1, status: 'open', user_id: expect.any(Number), stage_id: expect.any(Number) });
    // No parameters: the authorized user's open deals.
    expect(ids((await call('GET', '/v1/pipelines/1/deals')).body.data)).toEqual(ids(open.filter((d) => d.owner_id === 1)));
    const stage = open[0]!.stage_id;
    const inStage = await call('GET', `/api/v1/stages/${stage}/deals?everyone=1`);
    expect(inStage.status).toBe(200);
    expect(ids(inStage.body.data)).toEqual(ids(open.filter((d) => d.stage_id === stage)));
    expect((await call('GET', '/v1/stages/9999/deals')).status).toBe(404);
  });

  test('a route the service does not serve answers 404 naming the method and path', async () => {
    const { call } = await boot();
    const r = await call('GET', '/v1/pipelines/1/dealz');
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('Unknown method GET /v1/pipelines/1/dealz.');
  });
});

describe('documented shapes', () => {
  test('a deal participant carries added_by_user_id as the user object', async () => {
    const { call } = await boot();
    const added = await call('POST', '/api/v1/deals/1/participants', { body: { person_id: 5 } });
    expect(added.status).toBe(200);
    const user = { id: 1, name: 'Ada Admin', email: 'ada.admin@example.com', has_pic: 0, pic_hash: null, active_flag: true, value: 1 };
    expect(added.body.data.added_by_user_id).toEqual(user);
    const listed = (await call('GET', '/api/v1/deals/1/participants')).body.data.find((p: { id: number }) => p.id === added.body.data.id);
    expect(listed.added_by_user_id).toEqual(user);
  });

  test('creates the documents answer with 201 do so (tasks, variations)', async () => {
    const { call } = await boot();
    const project = (await call('GET', '/api/v2/projects')).body.data[0].id;
    expect((await call('POST', '/api/v2/tasks', { body: { title: 'T', project_id: project } })).status).toBe(201);
    expect((await call('POST', '/api/v1/tasks', { body: { title: 'T', project_id: project } })).status).toBe(201);
    const product = (await call('GET', '/api/v2/products')).body.data[0].id;
    expect((await call('POST', `/api/v2/products/${product}/variations`, { body: { name: 'V' } })).status).toBe(201);
  });
});
