import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, cliFor, expect400 } from './helpers.js';

let fx: SandboxFixture;
const { run, json, tsv, refused, envAs } = cliFor(() => fx);
const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');
const roleRows = async () => fx.collection<{ id: number; name: string; parent_role_id: number | null }>('roles');
const userRole = async (id: number) => (await fx.collection<{ id: number; role_id: number }>('users')).find((u) => u.id === id)!.role_id;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('roles list and get', () => {
  it('lists the hierarchy with level, string counts and the admin columns', async () => {
    expect(await tsv(['roles', 'list'])).toBe(
      ['1\tDefault\t\t1\t1\t2\ttrue', '2\tSales\t1\t2\t1\t1\ttrue', '3\tEMEA sales\t2\t3\t1\t1\ttrue', '4\tCustomer success\t1\t2\t0\t0\ttrue', '5\tNordics sales\t3\t4\t0\t0\ttrue', ''].join('\n'),
    );
    const [first] = await json(['roles', 'list', '--limit', '1']);
    expect(first).toEqual({ id: 1, parent_role_id: null, name: 'Default', active_flag: true, assignment_count: '1', sub_role_count: '2', level: 1 });
    const reqs = await fx.requests();
    expect(reqs.map((r) => [r.method, r.path])).toEqual([['GET', '/api/v1/roles'], ['GET', '/api/v1/roles']]);
    expect(reqs[1]!.query).toMatchObject({ limit: '1' });
  });

  it('pages with --start and --limit (offset pagination)', async () => {
    expect(await tsv(['roles', 'list', '--start', '2', '--limit', '2', '--fields', 'id,name'])).toBe('3\tEMEA sales\n4\tCustomer success\n');
    expect((await fx.requests())[0]!.query).toMatchObject({ start: '2', limit: '2' });
  });

  it('get shows the role with its settings from additional_data', async () => {
    expect(await json(['roles', 'get', '2'])).toEqual({
      id: 2, parent_role_id: 1, name: 'Sales', active_flag: true, assignment_count: '1', sub_role_count: '1',
      settings: { deal_default_visibility: 5, lead_default_visibility: 5, org_default_visibility: 3, person_default_visibility: 3, product_default_visibility: 3 },
    });
    expect((await fx.requests()).map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/api/v1/roles/2', 200]]);
  });

  it('a missing role exits 5 with the service message', async () => {
    const r = await run(['roles', 'get', '99']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Role not found');
  });

  it('refuses a non-integer id before sending', async () => {
    await refused(['roles', 'get', 'abc'], '<id>: must be a positive integer');
    await refused(['roles', 'get', '0'], '<id>: must be a positive integer');
  });

  it('needs the admin scope and an admin user (exit 4)', async () => {
    const scoped = await run(['roles', 'list'], { env: envAs({ scopes: ['users:read'] }) });
    expect(scoped.code).toBe(4);
    expect(scoped.stderr).toContain('admin');
    const regular = await run(['roles', 'list'], { env: envAs({ userId: 2 }) });
    expect(regular.code).toBe(4);
    expect(regular.stderr).toContain('You do not have permissions to do this.');
  });
});

describe('roles create, update, delete', () => {
  it('creates a role under an existing parent after checking it exists', async () => {
    expect(await json(['roles', 'create', '--name', 'APAC sales', '--parent-role-id', '2'])).toEqual({ id: 6 });
    const reqs = await fx.requests();
    // users/me: the write is recorded as a run of this account.
    expect(reqs.map((r) => [r.method, r.path])).toEqual([['GET', '/api/v1/roles'], ['GET', '/api/v1/users/me'], ['POST', '/api/v1/roles']]);
    expect(reqs[2]).toMatchObject({ status: 200, body: { name: 'APAC sales', parent_role_id: 2 } });
    expect((await roleRows()).find((r) => r.id === 6)).toMatchObject({ name: 'APAC sales', parent_role_id: 2 });
  });

  it.each([
    [['roles', 'create'], '--name: is required'],
    [['roles', 'create', '--name', '  '], '--name: must have at least 1 character'],
    [['roles', 'create', '--name', 'x', '--parent-role-id', 'two'], '--parent-role-id: must be an integer'],
    [['roles', 'update', '2'], 'nothing to update'],
    [['roles', 'update', '2', '--parent-role-id', '2'], '--parent-role-id: cannot be the role itself'],
  ])('refuses %j before sending: %s', async (args, message) => {
    await refused(args, message);
  });

  it('refuses an unknown parent and a loop with reads only', async () => {
    let r = await run(['roles', 'create', '--name', 'x', '--parent-role-id', '99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--parent-role-id: no such role: 99');
    r = await run(['roles', 'update', '2', '--parent-role-id', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--parent-role-id: role 5 is a sub-role of role 2');
    expect(await writes()).toEqual([]);
    expect(await roleRows()).toHaveLength(5);
  });

  it('renames and re-parents with PUT; --unset parent_role_id makes a role top-level', async () => {
    expect(await json(['roles', 'update', '3', '--name', 'EMEA & APAC sales', '--parent-role-id', '4'])).toEqual({ id: 3 });
    expect(await json(['roles', 'update', '5', '--unset', 'parent_role_id'])).toEqual({ id: 5 });
    const puts = await writes();
    expect(puts.map((r) => [r.method, r.path, r.body])).toEqual([
      ['PUT', '/api/v1/roles/3', { name: 'EMEA & APAC sales', parent_role_id: 4 }],
      ['PUT', '/api/v1/roles/5', { parent_role_id: null }],
    ]);
    const rows = await roleRows();
    expect(rows.find((r) => r.id === 3)).toMatchObject({ name: 'EMEA & APAC sales', parent_role_id: 4 });
    expect(rows.find((r) => r.id === 5)).toMatchObject({ parent_role_id: null });
  });

  it('delete needs --yes off a terminal and sends nothing without it', async () => {
    await refused(['roles', 'delete', '3'], '--yes');
  });

  it('delete marks the role deleted; its users go to the default role, its sub-roles to its parent', async () => {
    expect(await userRole(3)).toBe(3);
    expect(await json(['roles', 'delete', '3', '--yes'])).toEqual({ id: 3 });
    expect((await writes()).map((r) => [r.method, r.path])).toEqual([['DELETE', '/api/v1/roles/3']]);
    const rows = await roleRows();
    expect(rows.map((r) => r.id)).toEqual([1, 2, 4, 5]);
    expect(rows.find((r) => r.id === 5)!.parent_role_id).toBe(2);
    expect(await userRole(3)).toBe(1);
    const gone = await run(['roles', 'get', '3']);
    expect(gone.code).toBe(5);
  });

  it('the default role cannot be deleted (service 400, exit 2)', async () => {
    const r = await run(['roles', 'delete', '1', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('id: the default role cannot be deleted');
    expect(await roleRows()).toHaveLength(5);
  });
});

describe('role assignments', () => {
  it('lists the users of a role', async () => {
    expect(await tsv(['roles', 'assignments', 'list', '2'])).toBe('2\t2\tSales\t1\ttrue\t1\n');
    expect((await fx.requests())[0]).toMatchObject({ method: 'GET', path: '/api/v1/roles/2/assignments' });
  });

  it('add moves a user to the role', async () => {
    expect(await json(['roles', 'assignments', 'add', '4', '--user-id', '2'])).toEqual({ user_id: 2, role_id: 4 });
    expect((await writes())[0]).toMatchObject({ method: 'POST', path: '/api/v1/roles/4/assignments', body: { user_id: 2 } });
    expect(await userRole(2)).toBe(4);
    expect(await tsv(['roles', 'assignments', 'list', '4', '--fields', 'user_id,name'])).toBe('2\tCustomer success\n');
    expect(await tsv(['roles', 'assignments', 'list', '2'])).toBe('');
  });

  it('add of a user that does not exist is refused by the service (exit 2)', async () => {
    const r = await run(['roles', 'assignments', 'add', '4', '--user-id', '99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('user_id: user 99 does not exist');
  });

  it('remove sends DELETE with a JSON body; the user lands in the default role', async () => {
    expect(await json(['roles', 'assignments', 'remove', '3', '--user-id', '3', '--yes'])).toEqual({ id: 3 });
    expect((await writes())[0]).toMatchObject({ method: 'DELETE', path: '/api/v1/roles/3/assignments', body: { user_id: 3 } });
    expect(await userRole(3)).toBe(1);
  });

  it('remove checks the user holds the role (reads only) and needs --yes', async () => {
    const r = await run(['roles', 'assignments', 'remove', '3', '--user-id', '2', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--user-id: user 2 is not assigned to role 3');
    expect(await writes()).toEqual([]);
    // Without --yes the membership is still read first, but nothing is written.
    const noYes = await run(['roles', 'assignments', 'remove', '3', '--user-id', '3']);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('Pass --yes to confirm');
    expect(await writes()).toEqual([]);
    expect(await userRole(3)).toBe(3);
    await refused(['roles', 'assignments', 'add', '3'], '--user-id: is required');
  });
});

describe('role settings', () => {
  it('lists the five visibilities; the default role also has access levels', async () => {
    expect(await json(['roles', 'settings', 'list', '3'])).toEqual({
      deal_default_visibility: 1, lead_default_visibility: 3, org_default_visibility: 3, person_default_visibility: 3, product_default_visibility: 3,
    });
    expect(Object.keys(await json(['roles', 'settings', 'list', '1']))).toEqual([
      'deal_default_visibility', 'lead_default_visibility', 'org_default_visibility', 'person_default_visibility', 'product_default_visibility',
      'deal_access_level', 'org_access_level', 'person_access_level', 'product_access_level',
    ]);
  });

  it('set adds or updates one key and sends the value as a number', async () => {
    expect(await json(['roles', 'settings', 'set', '3', '--key', 'lead_default_visibility', '--value', '7'])).toEqual({ id: 3, lead_default_visibility: 7 });
    expect((await writes())[0]).toMatchObject({ method: 'POST', path: '/api/v1/roles/3/settings', body: { setting_key: 'lead_default_visibility', value: 7 } });
    expect((await json(['roles', 'settings', 'list', '3'])).lead_default_visibility).toBe(7);
  });

  it.each([
    [['--key', 'deal_default_visibility', '--value', '2'], /--value.*1, 3, 5, 7/],
    [['--key', 'deal_visibility', '--value', '3'], /--key.*deal_default_visibility/],
    [['--key', 'deal_default_visibility'], /--value: is required/],
  ])('refuses %j before sending', async (args, message) => {
    await refused(['roles', 'settings', 'set', '3', ...args], message);
  });
});

describe('role pipelines', () => {
  it('lists visible pipelines, or hidden ones with --hidden', async () => {
    expect(await json(['roles', 'pipelines', 'list', '4'])).toEqual({ pipeline_ids: [1], visible: true });
    expect(await json(['roles', 'pipelines', 'list', '4', '--hidden'])).toEqual({ pipeline_ids: [2], visible: false });
    const reqs = await fx.requests();
    expect(reqs[1]).toMatchObject({ path: '/api/v1/roles/4/pipelines', query: { visible: 'false' } });
    await refused(['roles', 'pipelines', 'list', '4', '--hidden', '--visible', 'true'], '--hidden and --visible cannot be used together');
  });

  it('update sends visible_pipeline_ids {add, remove} and answers the visible ids', async () => {
    expect(await json(['roles', 'pipelines', 'update', '4', '--add', '2', '--remove', '1'])).toEqual({ pipeline_ids: [2], visible: true });
    expect((await writes())[0]).toMatchObject({ method: 'PUT', path: '/api/v1/roles/4/pipelines', body: { visible_pipeline_ids: { add: [2], remove: [1] } } });
    expect(await json(['roles', 'pipelines', 'list', '4', '--hidden'])).toEqual({ pipeline_ids: [1], visible: false });
  });

  it.each([
    [['--add', '1', '--remove', '1'], '--remove: a pipeline cannot be both added and removed: 1'],
    [['--add', 'x'], '--add: must be a comma-separated list of integers'],
    [[], 'nothing to update'],
  ])('refuses %j before sending', async (args, message) => {
    await refused(['roles', 'pipelines', 'update', '4', ...args], message);
  });

  it('refuses pipeline ids the account does not have, with reads only', async () => {
    const r = await run(['roles', 'pipelines', 'update', '4', '--add', '2,99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--add: no such pipeline: 99 (known: 1, 2)');
    expect(await writes()).toEqual([]);
  });
});

describe('the sandbox enforces the roles rules itself', () => {
  it('answers service-shaped 400s for bad bodies', async () => {
    expect400(await api(fx, 'POST', '/api/v1/roles', { parent_role_id: 1 }), 'name: is required');
    expect400(await api(fx, 'POST', '/api/v1/roles', { name: 'x', parent_role_id: 99 }), 'parent_role_id: role 99 does not exist');
    expect400(await api(fx, 'PUT', '/api/v1/roles/2', { parent_role_id: 5 }), 'parent_role_id: cannot be the role itself or one of its sub-roles');
    expect400(await api(fx, 'POST', '/api/v1/roles/2/assignments', {}), 'user_id: is required');
    expect400(await api(fx, 'DELETE', '/api/v1/roles/3/assignments', { user_id: 2 }), 'user_id: user 2 is not assigned to role 3');
    expect400(await api(fx, 'DELETE', '/api/v1/roles/1/assignments', { user_id: 1 }), /default role/);
    expect400(await api(fx, 'POST', '/api/v1/roles/2/settings', { setting_key: 'deal_default_visibility', value: 2 }), 'value: must be one of 1, 3, 5, 7');
    expect400(await api(fx, 'POST', '/api/v1/roles/2/settings', { setting_key: 'deal_access_level', value: 1 }), /^setting_key: must be one of deal_default_visibility/);
    expect400(await api(fx, 'PUT', '/api/v1/roles/2/pipelines', {}), 'visible_pipeline_ids: is required');
    expect400(await api(fx, 'PUT', '/api/v1/roles/2/pipelines', { visible_pipeline_ids: {} }), 'visible_pipeline_ids: give at least one pipeline id in add or remove');
    expect400(await api(fx, 'PUT', '/api/v1/roles/2/pipelines', { visible_pipeline_ids: { add: [99] } }), 'visible_pipeline_ids.add: pipeline 99 does not exist');
    expect400(await api(fx, 'PUT', '/api/v1/roles/2/pipelines', { visible_pipeline_ids: { add: [1], remove: [1] } }), /both added and removed/);
    expect400(await api(fx, 'GET', '/api/v1/roles?limit=501'), 'limit: must be at most 500');
    expect(await roleRows()).toHaveLength(5);
  });

  it('answers 404 for a missing role and keeps deleted roles out of reach', async () => {
    expect(await api(fx, 'GET', '/api/v1/roles/99')).toEqual({
      status: 404, body: { success: false, error: 'Role not found', error_info: 'Object was not found.', data: null, additional_data: null },
    });
  });

  it('accepts only the visibility values of the company plan', async () => {
    fx.sandbox.state.company.plan = 'growth';
    expect400(await api(fx, 'POST', '/api/v1/roles/2/settings', { setting_key: 'deal_default_visibility', value: 5 }), 'value: must be one of 1, 3');
    expect((await api(fx, 'POST', '/api/v1/roles/2/settings', { setting_key: 'deal_default_visibility', value: 3 })).body).toEqual({
      success: true, data: { id: 2, deal_default_visibility: 3 }, additional_data: null,
    });
  });
});
