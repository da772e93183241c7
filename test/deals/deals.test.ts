// Deals, pipelines and stages through the CLI against the sandbox: placement in a stage, status times,
// weighted values, the deal value following its products, the vendor's delete rules, merges and the
// v1 reports. Each test checks the output, the requests that reached the sandbox and the state left.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { tools } from '../persons/helpers.js';

let fx: SandboxFixture;
const { run, json, api, refused } = tools(() => fx);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('deals create and update', () => {
  it('a new deal lands in the first stage of the named pipeline; the owner follows it', async () => {
    const d = await json(['deals', 'create', '--title', 'Fleet pilot', '--pipeline-id', '2', '--value', '1200', '--currency', 'EUR']);
    expect(d).toMatchObject({ title: 'Fleet pilot', pipeline_id: 2, stage_id: 6, value: 1200, currency: 'EUR', status: 'open', stage_change_time: null });
    const reqs = await fx.requests();
    // users/me: the write is recorded as a run of this account.
    expect(reqs.map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/api/v1/users/me', 200], ['POST', '/api/v2/deals', 200]]);
    expect(reqs[1]!.body).toEqual({ title: 'Fleet pilot', pipeline_id: 2, value: 1200, currency: 'EUR' });
    expect(await json(['deals', 'followers', 'list', String(d.id)])).toMatchObject([{ user_id: 1 }]);
  });

  it('moving a deal to another stage sets stage_change_time and the pipeline follows the stage', async () => {
    const before = (await api('/api/v2/deals/2')).body.data;
    const d = await json(['deals', 'update', '2', '--stage-id', '7']);
    expect(d).toMatchObject({ stage_id: 7, pipeline_id: 2 });
    expect(d.stage_change_time).not.toBe(before.stage_change_time);
  });

  it('won sets won_time and close_time; lost takes a lost reason', async () => {
    const won = await json(['deals', 'update', '1', '--status', 'won']);
    expect(won.won_time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(won.close_time).toBe(won.won_time);
    const lost = await json(['deals', 'update', '2', '--status', 'lost', '--lost-reason', 'Budget']);
    expect(lost).toMatchObject({ status: 'lost', lost_reason: 'Budget' });
  });

  it('a lost reason without --status lost is refused before sending (exit 2)', async () => {
    await refused(['deals', 'update', '1', '--status', 'won', '--lost-reason', 'x'], '--lost-reason: is only for --status lost');
  });

  it('an unknown stage is refused by the sandbox with the field named (exit 2)', async () => {
    const r = await run(['deals', 'create', '--title', 'X', '--stage-id', '999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('stage_id');
    expect((await api('/api/v2/deals?limit=500')).body.data.some((x: { title: string }) => x.title === 'X')).toBe(false);
  });
});

describe('deal products and the deal value', () => {
  it('adding a product makes the deal value the sum of its one-time lines', async () => {
    const d = await json(['deals', 'create', '--title', 'Seats', '--currency', 'EUR']);
    await json(['deals', 'products', 'add', String(d.id), '--product-id', '1', '--item-price', '100', '--quantity', '3']);
    expect((await api(`/api/v2/deals/${d.id}`)).body.data.value).toBe(300);
    const lines = await json(['deals', 'products', 'list', String(d.id)]);
    expect(lines).toHaveLength(1);
    await json(['deals', 'products', 'delete', String(d.id), String(lines[0].id), '--yes']);
    expect(await json(['deals', 'products', 'list', String(d.id)])).toEqual([]);
  });

  it('a product that does not exist is refused and nothing is attached', async () => {
    const r = await run(['deals', 'products', 'add', '1', '--product-id', '999', '--item-price', '1', '--quantity', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('product_id: no product with id 999');
  });
});

describe('pipelines and stages', () => {
  it('a stage holding deals cannot be deleted; an empty one can', async () => {
    const r = await run(['stages', 'delete', '3', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/deal/);
    expect((await api('/api/v2/stages/3')).status).toBe(200);
    const s = await json(['stages', 'create', '--name', 'Empty', '--pipeline-id', '1']);
    await json(['stages', 'delete', String(s.id), '--yes']);
    expect((await api(`/api/v2/stages/${s.id}`)).status).toBe(404);
  });

  it('weighted values follow the stage probability (v1 summary)', async () => {
    const s = await json(['deals', 'summary', '--status', 'open', '--pipeline-id', '2']);
    const open = (await api('/api/v2/deals?status=open&pipeline_id=2&limit=500')).body.data as Array<{ value: number; stage_id: number; currency: string; probability: number | null }>;
    const stages = (await api('/api/v2/stages?limit=500')).body.data as Array<{ id: number; deal_probability: number }>;
    expect(s.total_count).toBe(open.length);
    const weighted = open.reduce((t, d) => t + (d.value * (d.probability ?? stages.find((x) => x.id === d.stage_id)!.deal_probability)) / 100, 0);
    expect(s.total_weighted_currency_converted_value).toBeCloseTo(weighted, 2);
  });
});

describe('merge, duplicate, participants, search, filters', () => {
  it('merge moves notes and activities to the kept deal and removes the merged one', async () => {
    const notesOf = async (id: number) => ((await api('/api/v1/notes?limit=500')).body.data as Array<{ deal_id: number | null }>).filter((n) => n.deal_id === id).length;
    const before = (await notesOf(1)) + (await notesOf(7));
    await refused(['deals', 'merge', '7', '--merge-with-id', '1'], 'Pass --yes to confirm');
    await json(['deals', 'merge', '7', '--merge-with-id', '1', '--yes']);
    expect(await notesOf(1)).toBe(before);
    expect((await api('/api/v2/deals/7')).status).toBe(404);
    expect((await fx.requests()).find((r) => r.method === 'PUT')).toMatchObject({ path: '/api/v1/deals/7/merge', body: { merge_with_id: 1 }, cost: 40, status: 200 });
  });

  it('participants: add, list, changelog', async () => {
    await json(['deals', 'participants', 'add', '2', '--person-id', '3']);
    const list = await json(['deals', 'participants', 'list', '2']);
    expect(list.map((p: { person_id: { value: number } }) => p.person_id.value)).toContain(3);
    const log = await json(['deals', 'participants', 'changelog', '2']);
    expect(log[0]).toMatchObject({ action: 'added', person_id: 3, actor_user_id: 1 });
  });

  it('search finds the deals whose title holds the term, with the stage by name', async () => {
    const hits = await json(['deals', 'search', '--term', 'Globex']);
    expect(hits.map((h: { item: { id: number; type: string } }) => [h.item.type, h.item.id])).toEqual([['deal', 2], ['deal', 8], ['deal', 18]]); // 18: Globex renewal 2025 (seed/dirt.ts)
    expect(hits[0].item.stage).toEqual({ id: 1, name: 'Qualified' });
    expect((await fx.requests()).map((r) => [r.path, r.query])).toEqual([['/api/v2/deals/search', { term: 'Globex', limit: '100' }]]);
  });

  it('filter_id narrows the list to the saved filter (Big open deals: value > 10000, open)', async () => {
    const rows = await json(['deals', 'list', '--filter-id', '2', '--all']);
    expect(rows.length).toBeGreaterThan(0);
    for (const d of rows) expect(d.value > 10000 && d.status === 'open').toBe(true);
  });
});
