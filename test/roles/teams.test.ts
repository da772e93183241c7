import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, cliFor, expect400 } from './helpers.js';

let fx: SandboxFixture;
const { run, json, tsv, refused, envAs } = cliFor(() => fx);
const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');
const team = async (id: number) => (await fx.collection<{ id: number; users: number[]; [k: string]: unknown }>('legacyTeams')).find((t) => t.id === id);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('teams reads', () => {
  it('lists teams ordered by id by default, or by --order-by', async () => {
    expect(await tsv(['teams', 'list'])).toBe('1\tClosers\t1\t2,3\t1\t0\n2\tPartnerships\t3\t3\t1\t0\n3\tOnboarding 2024\t1\t1,2\t0\t0\n');
    expect(await tsv(['teams', 'list', '--order-by', 'name', '--fields', 'name'])).toBe('Closers\nOnboarding 2024\nPartnerships\n');
    expect(await tsv(['teams', 'list', '--order-by', 'active_flag', '--fields', 'id'])).toBe('3\n1\n2\n');
    const reqs = await fx.requests();
    expect(reqs.map((r) => [r.method, r.path])).toEqual(Array(3).fill(['GET', '/api/v1/legacyTeams']));
    expect(reqs[1]!.query).toEqual({ order_by: 'name' });
  });

  it('--skip-users 1 leaves out member ids', async () => {
    const teams = await json(['teams', 'list', '--skip-users', '1']);
    expect(teams).toHaveLength(3);
    for (const t of teams) expect(t).not.toHaveProperty('users');
    expect((await fx.requests())[0]!.query).toEqual({ skip_users: '1' });
  });

  it('get shows one team in the service shape', async () => {
    expect(await json(['teams', 'get', '1'])).toEqual({
      id: 1, name: 'Closers', description: 'Tallinn office sales team', manager_id: 1, users: [2, 3],
      active_flag: 1, deleted_flag: 0, add_time: '2025-01-06 09:00:00', created_by_user_id: 1,
    });
  });

  it('a missing team exits 5 with "Team N does not exist" (the service body has no error_info)', async () => {
    const r = await run(['teams', 'get', '9']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Team 9 does not exist');
    expect(await api(fx, 'GET', '/api/v1/legacyTeams/9/users')).toEqual({ status: 404, body: { success: false, error: 'Team 9 does not exist' } });
  });

  it('users list prints one user_id row per member', async () => {
    expect(await tsv(['teams', 'users', 'list', '1'])).toBe('2\n3\n');
    expect(await json(['teams', 'users', 'list', '2'])).toEqual([{ user_id: 3 }]);
    expect((await fx.requests())[0]).toMatchObject({ method: 'GET', path: '/api/v1/legacyTeams/1/users' });
  });

  it('of-user lists the teams a user belongs to, with order and skip_users', async () => {
    expect(await tsv(['teams', 'of-user', '3', '--fields', 'id,name'])).toBe('1\tClosers\n2\tPartnerships\n');
    expect(await tsv(['teams', 'of-user', '2', '--order-by', 'name', '--fields', 'name'])).toBe('Closers\nOnboarding 2024\n');
    expect((await fx.requests()).map((r) => r.path)).toEqual(['/api/v1/legacyTeams/user/3', '/api/v1/legacyTeams/user/2']);
    const r = await run(['teams', 'of-user', '99']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('User not found or not accessible.');
  });

  it.each([
    [['teams', 'list', '--order-by', 'title'], /--order-by.*id, name, manager_id, active_flag/],
    [['teams', 'list', '--skip-users', 'yes'], /--skip-users.*0, 1/],
    [['teams', 'get', 'x'], '<id>: must be a positive integer'],
  ])('refuses %j before sending', async (args, message) => {
    await refused(args, message);
  });

  it('the sandbox checks the list query itself', async () => {
    expect400(await api(fx, 'GET', '/api/v1/legacyTeams?order_by=title'), 'order_by: must be one of id, name, manager_id, active_flag');
    expect400(await api(fx, 'GET', '/api/v1/legacyTeams?skip_users=2'), 'skip_users: must be 0 or 1');
  });

  it('reads need users:read; a token with only admin is refused (exit 4)', async () => {
    const r = await run(['teams', 'list'], { env: envAs({ scopes: ['admin'] }) });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('users:read');
    const ok = await run(['teams', 'list', '--output', 'tsv', '--fields', 'id'], { env: envAs({ scopes: ['users:read'] }) });
    expect(ok).toEqual({ code: 0, stdout: '1\n2\n3\n', stderr: '' });
  });
});

describe('teams writes', () => {
  it('creates a team with a manager, members and a description', async () => {
    const created = await json(['teams', 'create', '--name', 'Closers EMEA', '--manager-id', '2', '--users', '1,3', '--description', 'Berlin office']);
    expect(created).toMatchObject({ id: 4, name: 'Closers EMEA', description: 'Berlin office', manager_id: 2, users: [1, 3], active_flag: 1, deleted_flag: 0, created_by_user_id: 1 });
    expect(created.add_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await writes())[0]).toMatchObject({ method: 'POST', path: '/api/v1/legacyTeams', status: 200, body: { name: 'Closers EMEA', manager_id: 2, users: [1, 3], description: 'Berlin office' } });
    expect(await team(4)).toMatchObject({ name: 'Closers EMEA', users: [1, 3] });
  });

  it.each([
    [['--manager-id', '1'], '--name: is required'],
    [['--name', 'x'], '--manager-id: is required'],
    [['--name', 'x', '--manager-id', '1', '--users', '2,two'], '--users: must be a comma-separated list of integers'],
    [['--name', 'x', '--manager-id', '0'], '--manager-id: must be at least 1'],
  ])('create refuses %j before sending', async (args, message) => {
    await refused(['teams', 'create', ...args], message);
  });

  it('users and manager must exist: the service refuses and nothing is created (exit 2)', async () => {
    let r = await run(['teams', 'create', '--name', 'x', '--manager-id', '1', '--users', '2,99']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('users: user 99 does not exist');
    r = await run(['teams', 'create', '--name', 'x', '--manager-id', '42']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('manager_id: user 42 does not exist');
    expect(await fx.collection('legacyTeams')).toHaveLength(3);
  });

  it('update changes only the given fields; --users replaces the members; flags deactivate and delete', async () => {
    expect(await json(['teams', 'update', '1', '--manager-id', '3', '--users', '3'])).toMatchObject({ id: 1, name: 'Closers', manager_id: 3, users: [3] });
    expect(await json(['teams', 'update', '1', '--active-flag', '0', '--deleted-flag', '1'])).toMatchObject({ active_flag: 0, deleted_flag: 1 });
    expect((await writes()).map((r) => [r.method, r.path, r.body])).toEqual([
      ['PUT', '/api/v1/legacyTeams/1', { manager_id: 3, users: [3] }],
      ['PUT', '/api/v1/legacyTeams/1', { active_flag: 0, deleted_flag: 1 }],
    ]);
    // A deleted team stays listed, marked by its flag.
    expect(await tsv(['teams', 'list', '--fields', 'id,deleted_flag'])).toBe('1\t1\n2\t0\n3\t0\n');
  });

  it.each([
    [['1'], 'nothing to update'],
    [['1', '--active-flag', '2'], /--active-flag.*0, 1/],
    [['1', '--deleted-flag', 'true'], /--deleted-flag.*0, 1/],
  ])('update refuses %j before sending', async (args, message) => {
    await refused(['teams', 'update', ...args], message);
  });

  it('users add returns the members after the change', async () => {
    expect(await tsv(['teams', 'users', 'add', '2', '--users', '1,3'])).toBe('3\n1\n');
    expect((await writes())[0]).toMatchObject({ method: 'POST', path: '/api/v1/legacyTeams/2/users', body: { users: [1, 3] } });
    expect((await team(2))!.users).toEqual([3, 1]);
  });

  it('users remove sends DELETE with a JSON body and needs --yes', async () => {
    expect(await tsv(['teams', 'users', 'remove', '1', '--users', '3', '--yes'])).toBe('2\n');
    expect((await writes())[0]).toMatchObject({ method: 'DELETE', path: '/api/v1/legacyTeams/1/users', body: { users: [3] } });
    expect((await team(1))!.users).toEqual([2]);
    const noYes = await run(['teams', 'users', 'remove', '1', '--users', '2']);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect((await team(1))!.users).toEqual([2]);
  });

  it('users remove refuses non-members after reading the team (no write)', async () => {
    const r = await run(['teams', 'users', 'remove', '1', '--users', '1,2', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--users: not members of team 1: 1 (members: 2, 3)');
    expect(await writes()).toEqual([]);
    await refused(['teams', 'users', 'add', '1'], '--users: is required');
  });

  it('writes need the admin scope (exit 4)', async () => {
    const r = await run(['teams', 'users', 'add', '1', '--users', '1'], { env: envAs({ scopes: ['users:read'] }) });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('admin');
    expect((await team(1))!.users).toEqual([2, 3]);
  });

  it('the sandbox enforces the write rules itself', async () => {
    expect400(await api(fx, 'POST', '/api/v1/legacyTeams', { name: 'x' }), 'manager_id: is required');
    expect400(await api(fx, 'POST', '/api/v1/legacyTeams', { manager_id: 1 }), 'name: is required');
    expect400(await api(fx, 'POST', '/api/v1/legacyTeams', { name: 'x', manager_id: 1, users: { add: [2] } }), 'users: must be an array of user ids');
    expect400(await api(fx, 'POST', '/api/v1/legacyTeams', { name: 'x', manager_id: 1, users: [2, 'all'] }), 'users: must contain only user ids (positive integers)');
    expect400(await api(fx, 'POST', '/api/v1/legacyTeams/1/users', {}), 'users: is required');
    expect400(await api(fx, 'POST', '/api/v1/legacyTeams/1/users', { users: [] }), 'users: must contain at least one user id');
    expect400(await api(fx, 'DELETE', '/api/v1/legacyTeams/1/users', { users: [1] }), 'users: user 1 is not a member of team 1');
    expect400(await api(fx, 'PUT', '/api/v1/legacyTeams/1', { active_flag: 2 }), 'active_flag: must be 0 or 1');
    expect400(await api(fx, 'PUT', '/api/v1/legacyTeams/1', { color: 'red' }), 'color: is not a known field of this operation');
    expect(await api(fx, 'PUT', '/api/v1/legacyTeams/9', { name: 'x' })).toEqual({ status: 404, body: { success: false, error: 'Team 9 does not exist' } });
    expect(await team(1)).toMatchObject({ users: [2, 3], active_flag: 1 });
  });
});
