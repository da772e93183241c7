import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest } from './helpers.js';

// `crmctl <area> upsert --by KEY`, run as users run it (the bundle), against the sandbox.

let fx: SandboxFixture;
const run = (args: string[]) => runBin(args, { env: fx.env });
const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');
type Person = { id: number; name: string; owner_id: number; emails: Array<{ value: string }> };

demoSandboxPerTest((f) => {
  fx = f;
});

describe('persons upsert --by email', () => {
  const zoe = ['persons', 'upsert', '--by', 'email', '--name', 'Zoe Zed', '--emails', 'zoe@example.org', '--owner-id', '1', '--json'];

  it('creates the person the first time; the second run sends no write and says "unchanged"', async () => {
    const first = await run(zoe);
    expect(first.code, first.stderr).toBe(0);
    const created = JSON.parse(first.stdout);
    expect(created.action).toBe('created');
    expect(created.record).toMatchObject({ name: 'Zoe Zed', owner_id: 1 });
    expect(first.stderr).toContain(`created person ${created.record.id}`);
    const posts = (await writes()).map((r) => `${r.method} ${r.path}`);
    expect(posts).toEqual(['POST /api/v2/persons']);

    await fx.clearRequests();
    const second = await run(zoe);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ action: 'unchanged', record: { id: created.record.id } });
    expect(second.stderr).toBe(`unchanged: person ${created.record.id} already has these values\n`);
    expect(await writes()).toEqual([]);
    // The search asked for exact matches of the email only.
    const search = (await fx.requests()).find((r) => r.path === '/api/v2/persons/search');
    expect(search?.query).toMatchObject({ term: 'zoe@example.org', fields: 'email', exact_match: 'true' });
    expect((await fx.collection<Person>('persons')).filter((p) => p.name === 'Zoe Zed')).toHaveLength(1);
  });

  it('a changed field is sent alone in one PATCH, and the output says which', async () => {
    const first = await run(zoe);
    const id = JSON.parse(first.stdout).record.id;
    await fx.clearRequests();
    const r = await run(['persons', 'upsert', '--by', 'email', '--name', 'Zoe Zed', '--emails', 'ZOE@example.org', '--owner-id', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'updated', changed: ['owner_id'], record: { id, owner_id: 2 } });
    expect(r.stderr).toBe(`updated person ${id}: owner_id\n`);
    const w = await writes();
    expect(w.map((x) => `${x.method} ${x.path}`)).toEqual([`PATCH /api/v2/persons/${id}`]);
    expect(w[0]!.body).toEqual({ owner_id: 2 });
  });

  it('two persons with the email: exit 2 listing both, nothing sent', async () => {
    for (const name of ['Twin One', 'Twin Two']) expect((await run(['persons', 'create', '--name', name, '--emails', 'twin@example.org'])).code).toBe(0);
    const ids = (await fx.collection<Person>('persons')).filter((p) => p.name.startsWith('Twin ')).map((p) => p.id);
    await fx.clearRequests();
    const r = await run(['persons', 'upsert', '--by', 'email', '--name', 'Twin', '--emails', 'twin@example.org']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--by email: "twin@example.org" matches 2 persons; nothing was sent:');
    expect(r.stderr).toContain(`  ${ids[0]}  Twin One\n`);
    expect(r.stderr).toContain(`  ${ids[1]}  Twin Two`);
    expect(r.stdout).toBe('');
    expect(await writes()).toEqual([]);
  });

  it('a search hit whose email only contains the value is not a match: the person is created', async () => {
    // The demo's alice.andersson@example.org is not "andersson@example.org".
    const r = await run(['persons', 'upsert', '--by', 'email', '--name', 'Mr Andersson', '--emails', 'andersson@example.org', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).action).toBe('created');
  });

  it('--by phone matches the number however it is spaced', async () => {
    // The demo's Alice Andersson has +372 5550 1000.
    const r = await run(['persons', 'upsert', '--by', 'phone', '--name', 'Alice Andersson', '--phones', '+37255501000', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ action: 'unchanged', record: { id: 1 } });
    expect(await writes()).toEqual([]);
  });

  it('without the key\'s value: exit 2 naming the flag, nothing sent', async () => {
    const r = await run(['persons', 'upsert', '--by', 'email', '--name', 'No Mail']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--emails: is required to upsert --by email');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('upsert by a custom field, and refused keys', () => {
  it('organizations upsert --by a custom field name: created, then updated by that key', async () => {
    const f = await run(['organization-fields', 'create', '--field-name', 'Registry code', '--field-type', 'varchar']);
    expect(f.code, f.stderr).toBe(0);
    const first = await run(['organizations', 'upsert', '--by', 'Registry code', '--name', 'Northwind', '--field', 'Registry code=EE-1013', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const { action, record } = JSON.parse(first.stdout);
    expect(action).toBe('created');
    await fx.clearRequests();
    const second = await run(['organizations', 'upsert', '--by', 'registry code', '--name', 'Northwind Traders', '--field', 'Registry code=ee-1013', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ action: 'updated', changed: ['name', 'Registry code'], record: { id: record.id, name: 'Northwind Traders' } });
    const w = await writes();
    expect(w.map((x) => `${x.method} ${x.path}`)).toEqual([`PATCH /api/v2/organizations/${record.id}`]);
    const key = Object.keys((w[0]!.body as { custom_fields: object }).custom_fields);
    expect(w[0]!.body).toEqual({ name: 'Northwind Traders', custom_fields: { [key[0]!]: 'ee-1013' } });
    const search = (await fx.requests()).find((r) => r.path === '/api/v2/organizations/search');
    expect(search?.query).toMatchObject({ term: 'ee-1013', fields: 'custom_fields', exact_match: 'true' });
  });

  it('--by a monetary field is refused with the reason (built-in and custom), nothing written', async () => {
    const builtin = await run(['deals', 'upsert', '--by', 'value', '--title', 'X', '--value', '10', '--currency', 'EUR']);
    expect(builtin.code).toBe(2);
    expect(builtin.stderr).toContain('--by: value is a monetary field and cannot identify a record: an amount is not an identity');
    expect(await fx.requests()).toEqual([]);
    const custom = await run(['deals', 'upsert', '--by', 'Budget', '--title', 'X', '--field', 'Budget=5000 EUR']);
    expect(custom.code).toBe(2);
    expect(custom.stderr).toContain('--by: Budget is a monetary field and cannot identify a record');
    expect(await writes()).toEqual([]);
  });

  it('--by an address is refused too, and a field the search does not search is named', async () => {
    const address = await run(['organizations', 'upsert', '--by', 'address', '--name', 'X']);
    expect(address.code).toBe(2);
    expect(address.stderr).toContain('--by: address is an address field and cannot identify a record');
    const website = await run(['organizations', 'upsert', '--by', 'website', '--name', 'X']);
    expect(website.code).toBe(2);
    expect(website.stderr).toMatch(/--by: \w+ cannot be matched on: the service's organization search does not search it/);
    expect(await writes()).toEqual([]);
  });

  it('products upsert --by code creates, then finds the product by its code', async () => {
    const args = ['products', 'upsert', '--by', 'code', '--name', 'Support hours', '--code', 'SUP-1', '--json'];
    expect(JSON.parse((await run(args)).stdout).action).toBe('created');
    await fx.clearRequests();
    const again = await run(args);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).action).toBe('unchanged');
    expect(await writes()).toEqual([]);
  });
});

describe('deals upsert', () => {
  it('--by name is the deal title: the seed deal with the same values is unchanged; a new value is one PATCH', async () => {
    const same = await run(['deals', 'upsert', '--by', 'name', '--title', 'Acme annual licence', '--value', '24000', '--currency', 'EUR', '--json']);
    expect(same.code, same.stderr).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ action: 'unchanged', record: { id: 1 } });
    expect(await writes()).toEqual([]);
    const more = await run(['deals', 'upsert', '--by', 'title', '--title', 'acme annual licence', '--value', '25000', '--currency', 'EUR']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toBe('updated deal 1: title, value\n');
    const w = await writes();
    expect(w.map((x) => `${x.method} ${x.path}`)).toEqual(['PATCH /api/v2/deals/1']);
    expect(w[0]!.body).toEqual({ title: 'acme annual licence', value: 25000 });
  });
});
