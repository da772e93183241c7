import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { clientFor, expect400 } from './helpers.js';

let fx: SandboxFixture;
const { run, json, api, refused } = clientFor(() => fx);
type ActivityType = { id: number; name: string; key_string: string; icon_key: string; color: string | null; order_nr: number; active_flag: boolean; is_custom_flag: boolean };

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('activity-types list', () => {
  it('prints every live type in display order; TSV columns id, name, key_string, icon_key, color, order_nr, is_custom_flag', async () => {
    const stored = (await fx.collection<ActivityType>('activityTypes')).sort((a, b) => a.order_nr - b.order_nr);
    const r = await run(['activity-types', 'list', '--output', 'tsv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(stored.map((t) => `${[t.id, t.name, t.key_string, t.icon_key, t.color ?? '', t.order_nr, t.is_custom_flag].join('\t')}\n`).join(''));
    const reqs = await fx.requests();
    expect(reqs.map((q) => [q.method, q.path, q.status, q.cost])).toEqual([['GET', '/api/v1/activityTypes', 200, 20]]);
  });
});

describe('activity-types create', () => {
  it('sends name, icon_key and color; the service generates key_string from the name', async () => {
    const t = await json(['activity-types', 'create', '--name', 'Field trip', '--icon-key', 'truck', '--color', '1ABC9C']);
    expect(t).toMatchObject({ name: 'Field trip', key_string: 'field_trip', icon_key: 'truck', color: '1ABC9C', active_flag: true, is_custom_flag: true });
    const post = (await fx.requests()).find((q) => q.method === 'POST')!;
    expect(post).toMatchObject({ path: '/api/v1/activityTypes', status: 200, body: { name: 'Field trip', icon_key: 'truck', color: '1ABC9C' } });
    const stored = await fx.collection<ActivityType>('activityTypes');
    expect(stored.find((s) => s.id === t.id)).toMatchObject({ key_string: 'field_trip', order_nr: Math.max(...stored.map((s) => s.order_nr)) });
  });

  it('a second type with the same name gets a distinct key_string', async () => {
    const t = await json(['activity-types', 'create', '--name', 'Site visit', '--icon-key', 'car']);
    expect(t.key_string).toBe('site_visit_2');
    expect(t.color).toBeNull();
  });

  it.each([
    [['--icon-key', 'call'], '--name: is required'],
    // A missing enum flag is reported with its allowed values (the shared zod-issue wording).
    [['--name', 'Demo'], '--icon-key: is required'],
    [['--name', 'Demo', '--icon-key', 'rocket'], /--icon-key.*'rocket' is invalid\. Allowed choices are task, email, meeting/],
    [['--name', 'Demo', '--icon-key', 'call', '--color', '#FFCC00'], '--color: must be 6 hex characters without a leading #'],
    [['--name', 'Demo', '--icon-key', 'call', '--color', 'FFCC0'], '--color: must be 6 hex characters'],
    [['--data', '{"name":"Demo","icon_key":"call","key_string":"demo"}'], 'body: key_string is generated from the name and cannot be set'],
  ] as Array<[string[], string | RegExp]>)('refuses %j before sending: %s', async (args, message) => {
    await refused(['activity-types', 'create', ...args], message);
  });

  it('the sandbox enforces the same rules with service-shaped 400s', async () => {
    expect400(await api('POST', '/api/v1/activityTypes', { name: 'Demo' }), 'icon_key: is required');
    expect400(await api('POST', '/api/v1/activityTypes', { icon_key: 'call' }), 'name: is required');
    expect400(await api('POST', '/api/v1/activityTypes', { name: 'Demo', icon_key: 'rocket' }), /^icon_key: must be one of task, email/);
    expect400(await api('POST', '/api/v1/activityTypes', { name: 'Demo', icon_key: 'call', color: '#FFCC00' }), /^color: must be a 6-character hex color/);
    expect400(await api('POST', '/api/v1/activityTypes', { name: 'Demo', icon_key: 'call', key_string: 'demo' }), 'key_string: is generated from the name and cannot be set');
    expect((await fx.collection<ActivityType>('activityTypes')).some((t) => t.name === 'Demo')).toBe(false);
  });
});

describe('activity-types update and delete', () => {
  it('PUT sends only the given fields; renaming keeps key_string', async () => {
    const t = await json(['activity-types', 'update', '1', '--name', 'Phone call', '--order-nr', '9']);
    expect(t).toMatchObject({ id: 1, name: 'Phone call', key_string: 'call', order_nr: 9, icon_key: 'call' });
    const put = (await fx.requests()).find((q) => q.method === 'PUT')!;
    expect(put).toMatchObject({ path: '/api/v1/activityTypes/1', body: { name: 'Phone call', order_nr: 9 } });
    expect(Object.keys(put.body as object).sort()).toEqual(['name', 'order_nr']);
  });

  it('refuses key_string, a negative order and an empty update before sending', async () => {
    await refused(['activity-types', 'update', '1', '--data', '{"key_string":"phone"}'], 'body: key_string is generated from the name and cannot be set');
    await refused(['activity-types', 'update', '1', '--order-nr', '-1'], '--order-nr: must be at least 0');
    await refused(['activity-types', 'update', '1'], 'nothing to update');
    await refused(['activity-types', 'update', 'abc', '--name', 'x'], '<id>');
    expect400(await api('PUT', '/api/v1/activityTypes/1', { key_string: 'phone' }), 'key_string: is generated from the name and cannot be set');
    expect((await fx.collection<ActivityType>('activityTypes')).find((t) => t.id === 1)!.key_string).toBe('call');
  });

  it('delete needs --yes off a terminal; then prints the deactivated type and the list drops it', async () => {
    const no = await run(['activity-types', 'delete', '7']);
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('--yes');
    expect(await fx.requests()).toEqual([]);
    const gone = await json(['activity-types', 'delete', '7', '--yes']);
    expect(gone).toMatchObject({ id: 7, name: 'Site visit', active_flag: false });
    const del = (await fx.requests()).find((q) => q.method === 'DELETE')!;
    expect(del).toMatchObject({ path: '/api/v1/activityTypes/7', status: 200, cost: 6 });
    expect((await json(['activity-types', 'list'])).map((t: ActivityType) => t.id)).not.toContain(7);
    const again = await run(['activity-types', 'delete', '7', '--yes']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('Activity type not found');
  });

  it('a token with only activities:read may list but not write (403, exit 4, scope named)', async () => {
    const token = fx.sandbox.issueToken({ scopes: ['activities:read'] }).access_token;
    const env = { CRMCTL_ACCESS_TOKEN: token };
    expect((await run(['activity-types', 'list', '--json'], { env })).code).toBe(0);
    const r = await run(['activity-types', 'create', '--name', 'X', '--icon-key', 'call'], { env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('admin');
  });
});
