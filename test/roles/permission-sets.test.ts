import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, cliFor, expect400 } from './helpers.js';

// Read-only area: one fixture, reset only to drop the request log between tests.
let fx: SandboxFixture;
const { run, json, tsv, refused, envAs } = cliFor(() => fx);
interface SetRow { id: string; name: string; app: string; type: string; assignment_count: number }
const setId = async (name: string) => ((await json(['permission-sets', 'list'])) as SetRow[]).find((s) => s.name === name)!.id;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.clearRequests();
});

describe('permission-sets list', () => {
  it('lists every set with counts; --app filters in the query', async () => {
    const all = (await json(['permission-sets', 'list'])) as SetRow[];
    expect(all.map((s) => s.app).sort()).toEqual(['account_settings', 'campaigns', 'global', 'global', 'projects', 'projects', 'sales', 'sales', 'sales', 'sales']);
    expect(Object.keys(all[0]!)).toEqual(['id', 'name', 'description', 'app', 'type', 'assignment_count']);
    const sales = all.filter((s) => s.app === 'sales');
    await fx.clearRequests();
    expect(await tsv(['permission-sets', 'list', '--app', 'sales'])).toBe(
      `${sales.map((s) => [s.id, s.name, 'sales', s.type, s.assignment_count].join('\t')).join('\n')}\n`,
    );
    expect(sales.map((s) => [s.name, s.type, s.assignment_count])).toEqual([
      ['Deals admin', 'admin', 1], ['Deals regular user', 'regular', 2], ['Deals manager', 'manager', 1], ['Deals without export', 'custom', 0],
    ]);
    expect((await fx.requests())[0]).toMatchObject({ method: 'GET', path: '/api/v1/permissionSets', query: { app: 'sales' } });
  });

  it('refuses an unknown app before sending', async () => {
    await refused(['permission-sets', 'list', '--app', 'crm'], /--app.*sales, projects, campaigns, global, account_settings, partnership, nova/);
  });

  it('the sandbox rejects an unknown app itself', async () => {
    expect400(await api(fx, 'GET', '/api/v1/permissionSets?app=crm'), 'app: must be one of sales, projects, campaigns, global, account_settings, partnership, nova');
  });

  it('needs an admin (exit 4 for a regular user or a token without the admin scope)', async () => {
    for (const env of [envAs({ userId: 2 }), envAs({ scopes: ['users:read'] })]) {
      const r = await run(['permission-sets', 'list'], { env });
      expect(r.code).toBe(4);
    }
  });
});

describe('permission-sets get', () => {
  it('shows the set with the permissions it grants', async () => {
    const id = await setId('Deals regular user');
    const set = await json(['permission-sets', 'get', id]);
    expect(set).toMatchObject({ id, name: 'Deals regular user', app: 'sales', type: 'regular', assignment_count: 2 });
    expect(set.contents).toContain('can_use_api');
    expect(set.contents).toContain('can_export_data_from_lists');
    const custom = await json(['permission-sets', 'get', await setId('Deals without export')]);
    expect(custom.contents).not.toContain('can_export_data_from_lists');
  });

  it('refuses an id that is not a UUID; an unknown UUID exits 5', async () => {
    await refused(['permission-sets', 'get', 'deals-admin'], '<id>: must be a UUID');
    const r = await run(['permission-sets', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Permission set not found');
  });
});

describe('permission-sets assignments', () => {
  it('lists the users holding a set (offset pages)', async () => {
    const id = await setId('Deals regular user');
    await fx.clearRequests();
    expect(await tsv(['permission-sets', 'assignments', id])).toBe(`2\t${id}\tDeals regular user\n3\t${id}\tDeals regular user\n`);
    expect(await tsv(['permission-sets', 'assignments', id, '--start', '1', '--limit', '1'])).toBe(`3\t${id}\tDeals regular user\n`);
    const reqs = await fx.requests();
    expect(reqs.map((r) => r.path)).toEqual([`/api/v1/permissionSets/${id}/assignments`, `/api/v1/permissionSets/${id}/assignments`]);
    expect(reqs[1]!.query).toMatchObject({ start: '1', limit: '1' });
  });

  it('a set nobody holds: the service says 404, the CLI shows an empty list after checking the set exists', async () => {
    const id = await setId('Deals without export');
    const raw = await api(fx, 'GET', `/api/v1/permissionSets/${id}/assignments`);
    expect(raw).toMatchObject({ status: 404, body: { success: false, error: 'No assignments found for this permission set' } });
    await fx.clearRequests();
    const r = await run(['permission-sets', 'assignments', id, '--json']);
    expect(r).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    expect((await fx.requests()).map((q) => [q.path, q.status])).toEqual([
      [`/api/v1/permissionSets/${id}/assignments`, 404],
      [`/api/v1/permissionSets/${id}`, 200],
    ]);
  });

  it('an unknown set still exits 5', async () => {
    const r = await run(['permission-sets', 'assignments', '00000000-0000-4000-8000-000000000000']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Permission set not found');
  });
});

describe('empty seed', () => {
  it('keeps only the default admin and regular sets', async () => {
    await fx.reset('empty');
    try {
      const sets = (await json(['permission-sets', 'list'])) as SetRow[];
      expect(sets.map((s) => `${s.app}/${s.type}`)).toEqual(['sales/admin', 'sales/regular', 'global/admin', 'global/regular']);
    } finally {
      await fx.reset('demo');
    }
  });
});
