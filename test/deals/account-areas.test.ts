// Organizations, activities, products, users, filters and item search through the CLI against the
// sandbox: counts on request, activity types and done times, product prices and images (multipart),
// the 16-condition filter limit, users me, and ranked search across types.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
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

describe('organizations', () => {
  it('counts of deals and people come with --include-fields and match the account', async () => {
    const o = await json(['organizations', 'get', '1', '--include-fields', 'open_deals_count,people_count,followers_count']);
    const deals = (await api('/api/v2/deals?org_id=1&status=open&limit=500')).body.data as unknown[];
    const people = ((await api('/api/v2/persons?org_id=1&limit=500')).body.data as unknown[]);
    expect(o).toMatchObject({ id: 1, open_deals_count: deals.length, people_count: people.length });
  });

  it('create with an address, then delete unlinks its deals', async () => {
    const o = await json(['organizations', 'create', '--name', 'Cyberdyne', '--address-value', 'Main St 1', '--address-country', 'Estonia']);
    expect(o.address).toMatchObject({ value: 'Main St 1', country: 'Estonia' });
    const d = await json(['deals', 'create', '--title', 'Cyber deal', '--org-id', String(o.id)]);
    await json(['organizations', 'delete', String(o.id), '--yes']);
    expect((await api(`/api/v2/deals/${d.id}`)).body.data.org_id).toBeNull();
  });

  it('a name is required: refused before sending', async () => {
    await refused(['organizations', 'create', '--address-value', 'x'], '--name');
  });
});

describe('activities', () => {
  it('type must be an active activity type key; marking done stamps marked_as_done_time', async () => {
    const r = await run(['activities', 'create', '--subject', 'x', '--type', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('type: must be the key_string of an active activity type');
    const a = await json(['activities', 'create', '--subject', 'Call Acme', '--type', 'call', '--due-date', '2025-03-01', '--due-time', '10:00', '--duration', '00:30', '--deal-id', '1']);
    expect(a).toMatchObject({ type: 'call', due_date: '2025-03-01', due_time: '10:00', duration: '00:30', done: false, marked_as_done_time: null });
    const done = await json(['activities', 'update', String(a.id), '--done', 'true']);
    expect(done.marked_as_done_time).toMatch(/^\d{4}-/);
  });

  it('a due time without a due date is refused before sending', async () => {
    await refused(['activities', 'create', '--subject', 'x', '--due-time', '10:00'], '--due-time');
  });
});

describe('products', () => {
  it('create answers 201 with prices; variations have their own prices', async () => {
    const p = await json(['products', 'create', '--name', 'Gadget', '--code', 'GAD', '--prices', '[{"currency":"EUR","price":10}]']);
    expect(p).toMatchObject({ name: 'Gadget', code: 'GAD', prices: [{ product_id: p.id, currency: 'EUR', price: 10, cost: 0 }] });
    expect((await fx.requests()).at(-1)).toMatchObject({ method: 'POST', path: '/api/v2/products', status: 201 });
    const v = await json(['products', 'variations', 'add', String(p.id), '--name', 'Large', '--prices', '[{"currency":"EUR","price":12}]']);
    expect(v).toMatchObject({ name: 'Large', product_id: p.id });
    expect(await json(['products', 'variations', 'list', String(p.id)])).toHaveLength(1);
  });

  it('the image is uploaded from a file as multipart and read back', async () => {
    const file = join(tmpdir(), `crmctl-img-${process.pid}.png`);
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    const up = await json(['products', 'image', 'upload', '1', '--file', file]);
    expect(up).toMatchObject({ product_id: 1, mime_type: 'image/png' });
    expect(await json(['products', 'image', 'get', '1'])).toMatchObject({ id: up.id });
    const post = (await fx.requests()).find((r) => r.method === 'POST')!;
    expect(post).toMatchObject({ path: '/api/v2/products/1/images', status: 201, cost: 20 });
  });
});

describe('users, filters, search', () => {
  it('users me answers for the token user; find searches names', async () => {
    expect(await json(['users', 'me'])).toMatchObject({ id: 1, name: 'Ada Admin', is_you: true });
    const found = await json(['users', 'find', '--term', 'sam']);
    expect(found.map((u: { id: number }) => u.id)).toEqual([3]);
  });

  it('a filter with 17 conditions is refused before sending; 2 conditions are saved and evaluated on deals list', async () => {
    const fields = (await api('/api/v1/dealFields?limit=500')).body.data as Array<{ id: number; key: string }>;
    const idOf = (key: string) => fields.find((f) => f.key === key)!.id;
    const tree = (conds: unknown[]) => JSON.stringify({ glue: 'and', conditions: [{ glue: 'and', conditions: conds }, { glue: 'or', conditions: [] }] });
    const many = Array.from({ length: 17 }, () => ({ object: 'deal', field_id: idOf('value'), operator: '>', value: '1' }));
    await refused(['filters', 'create', '--name', 'Too many', '--type', 'deals', '--conditions', tree(many)], '--conditions: has 17 conditions; a filter may have at most 16');
    const ok = await json(['filters', 'create', '--name', 'Won big', '--type', 'deals', '--conditions', tree([
      { object: 'deal', field_id: idOf('status'), operator: '=', value: 'won' }, { object: 'deal', field_id: idOf('value'), operator: '>', value: '10000' },
    ])]);
    expect((await fx.requests()).at(-1)).toMatchObject({ method: 'POST', path: '/api/v1/filters', status: 200, cost: 10 });
    const rows = await json(['deals', 'list', '--filter-id', String(ok.id), '--all']);
    expect(rows.length).toBeGreaterThan(0);
    for (const d of rows) expect(d.status === 'won' && d.value > 10000).toBe(true);
  });

  it('item search ranks across types: score, then type, then id', async () => {
    const r = await json(['search', 'items', '--term', 'Acme']);
    expect(r.map((x: { item: { type: string; id: unknown } }) => [x.item.type, x.item.type === 'lead' ? 'lead' : x.item.id])).toEqual([
      ['deal', 1], ['deal', 7], ['organization', 1], ['organization', 7], ['lead', 'lead'], ['project', 1], // 7: Acme Corp., the demo's duplicate (seed/dirt.ts)
    ]);
    const only = await json(['search', 'items', '--term', 'Acme', '--item-types', 'organization']);
    expect(only.map((x: { item: { name: string } }) => x.item.name)).toEqual(['Acme Corporation', 'Acme Corp.']);
    await refused(['search', 'items', '--term', 'Acme', '--item-types', 'planet'], '--item-types');
  });
});
