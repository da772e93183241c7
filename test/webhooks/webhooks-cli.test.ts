// webhooks list / create / delete through the CLI against the sandbox, and the sandbox's own rules.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api } from './helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean; stdin?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { ...opts, env: { ...fx.env, ...(opts.env ?? {}) } });
const direct = (method: string, path: string, body?: unknown) => api(fx.sandbox.url, fx.env.CRMCTL_ACCESS_TOKEN!, method, path, body);
type Hook = Record<string, unknown> & { id: number };

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('webhooks list', () => {
  it('prints every webhook with the basic-auth password masked', async () => {
    const stored = await fx.collection<Hook>('webhooks');
    const r = await run(['webhooks', 'list', '--output', 'tsv', '--fields', 'id,name,http_auth_user,http_auth_password']);
    expect(r.code).toBe(0);
    const expected = stored.map((h) => [h.id, h.name, h.http_auth_user ?? '', h.http_auth_password == null ? '' : '********'].join('\t'));
    expect(r.stdout).toBe(`${expected.join('\n')}\n`);
    expect(stored.some((h) => typeof h.http_auth_password === 'string')).toBe(true);
    for (const h of stored) if (h.http_auth_password) expect(r.stdout).not.toContain(String(h.http_auth_password));
    const reqs = await fx.requests();
    expect(reqs.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['GET /api/v1/webhooks 200']);
  });

  it('--json keeps the record shape but masks the password', async () => {
    const r = await run(['webhooks', 'list', '--json']);
    const list = JSON.parse(r.stdout) as Hook[];
    const raw = await direct('GET', '/api/v1/webhooks');
    expect(raw.body).toMatchObject({ status: 'ok', success: true });
    expect(list).toEqual(raw.body.data.map((h: Hook) => (h.http_auth_password == null ? h : { ...h, http_auth_password: '********' })));
  });
});

describe('webhooks create', () => {
  it('creates (201) with version 2.0 and the caller as user by default', async () => {
    const r = await run(['webhooks', 'create', '--name', 'ERP', '--url', 'https://198.51.100.7/hooks', '--action', '*', '--object', 'deal', '--json']);
    expect(r.code).toBe(0);
    const hook = JSON.parse(r.stdout);
    expect(hook).toMatchObject({ name: 'ERP', subscription_url: 'https://198.51.100.7/hooks', event_action: '*', event_object: 'deal', version: '2.0', user_id: 1, owner_id: 1, is_active: 1, http_auth_user: null, http_auth_password: null, last_http_status: null });
    // After users/me (the write is recorded as a run of this account).
    const [, post] = await fx.requests();
    expect(post).toMatchObject({ method: 'POST', path: '/api/v1/webhooks', status: 201 });
    expect(post!.body).toEqual({ name: 'ERP', subscription_url: 'https://198.51.100.7/hooks', event_action: '*', event_object: 'deal' });
    const stored = await fx.collection<Hook>('webhooks');
    expect(stored.find((h) => h.id === hook.id)).toEqual(hook);
  });

  it('reads the password from stdin, sends it, stores it and never prints it', async () => {
    const r = await run(['webhooks', 'create', '--name', 'Leads', '--url', 'http://127.0.0.1:9/x', '--action', 'create', '--object', 'lead', '--payload-version', '1.0', '--user-id', '2', '--auth-user', 'crm', '--auth-password-stdin', '--json'], { stdin: 's3cret-value\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("s3cret-value");
    const hook = JSON.parse(r.stdout);
    expect(hook).toMatchObject({ version: '1.0', user_id: 2, http_auth_user: 'crm', http_auth_password: '********' });
    const [post] = await fx.requests();
    expect(post!.body).toMatchObject({ http_auth_user: 'crm', version: '1.0', user_id: 2 });
    const stored = (await fx.collection<Hook>('webhooks')).find((h) => h.id === hook.id)!;
    expect(stored.http_auth_password).toBe('s3cret-value');
  });

  it.each([
    [['--url', 'ftp://files.example.com/x'], '--url: must be a full http(s) URL'],
    [['--url', 'not a url'], '--url: must be a full http(s) URL'],
    [['--url', 'https://a.example.com', '--auth-password', 'pw'], '--auth-user: is required with a password'],
    [['--url', 'https://a.example.com', '--user-id', '0'], '--user-id: must be at least 1'],
    [['--url', 'https://api.pipedrive.com/v1/x'], '--url: must not be an endpoint of the service'],
    [['--url', 'https://10.0.0.1/x'], '--url: must be publicly reachable (10.0.0.1 is a private address); loopback is allowed for a local receiver'],
    [['--url', 'https://192.168.1.20/x'], '--url: must be publicly reachable'],
    [['--url', 'https://[fd00::1]/x'], '--url: must be publicly reachable'],
    [['--url', 'http://0.0.0.0:8080/x'], '--url: must be publicly reachable (0.0.0.0 is an unspecified address)'],
    [['--url', 'http://[::]:8080/x'], '--url: must be publicly reachable ([::] is an unspecified address)'],
    [['--url', 'http://[::ffff:0.0.0.0]:8080/x'], '--url: must be publicly reachable ([::ffff:0:0] is an unspecified address)'],
    [['--url', 'http://[::ffff:10.0.0.1]/x'], '--url: must be publicly reachable ([::ffff:a00:1] is a private address)'],
    [['--url', 'http://[::ffff:169.254.169.254]/latest'], '--url: must be publicly reachable ([::ffff:a9fe:a9fe] is a private address)'],
    [['--url', 'http://[64:ff9b::10.0.0.1]/x'], '--url: must be publicly reachable ([64:ff9b::a00:1] is a reserved address)'],
  ])('refuses %j before sending: %s', async (extra, message) => {
    const r = await run(['webhooks', 'create', '--name', 'x', '--action', 'create', '--object', 'deal', ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(await fx.requests()).toEqual([]);
  });

  it('a name that does not resolve is the service\'s refusal (exit 2, its message)', async () => {
    const r = await run(['webhooks', 'create', '--name', 'x', '--action', 'create', '--object', 'deal', '--url', 'https://no-such-host.invalid/hook']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: The service answered 400 for POST /api/v1/webhooks: subscription_url: invalid or non-reachable URL. It refused the input; nothing was changed.\n');
    expect((await fx.requests()).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['POST /api/v1/webhooks 400']);
  });

  it('refuses a URL that points at the API domain of the profile (any loopback name)', async () => {
    const port = new URL(fx.sandbox.url).port;
    for (const url of [
      `${fx.sandbox.url}/api/v1/leads`, `http://localhost:${port}/hook`, `http://LOCALHOST.:${port}/hook`, `http://[::ffff:127.0.0.1]:${port}/__sandbox/reset`,
      `http://127.0.0.2:${port}/x`, `http://2130706433:${port}/x`, `http://[::1]:${port}/x`, `http://0.0.0.0:${port}/x`,
    ]) {
      const r = await run(['webhooks', 'create', '--name', 'x', '--action', 'create', '--object', 'deal', '--url', url]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--url: must not be an endpoint of the service');
    }
    expect(await fx.requests()).toEqual([]);
  });

  it('names a bad action or object and a missing name, nothing sent', async () => {
    const bad = await run(['webhooks', 'create', '--name', 'x', '--url', 'https://a.example.com', '--action', 'update', '--object', 'deal']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--action.*create, change, delete, \*/);
    const obj = await run(['webhooks', 'create', '--name', 'x', '--url', 'https://a.example.com', '--action', 'create', '--object', 'invoice']);
    expect(obj.code).toBe(2);
    expect(obj.stderr).toMatch(/--object.*activity, deal, lead/);
    const noName = await run(['webhooks', 'create', '--url', 'https://a.example.com', '--action', 'create', '--object', 'deal']);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('--name: is required');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('webhooks delete', () => {
  it('needs --yes off a terminal, then deletes (record kept as removed)', async () => {
    const [first] = await fx.collection<Hook>('webhooks');
    const noYes = await run(['webhooks', 'delete', String(first!.id)]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect(await fx.requests()).toEqual([]);

    const r = await run(['webhooks', 'delete', String(first!.id), '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: first!.id });
    const reqs = await fx.requests();
    expect(reqs.map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([`DELETE /api/v1/webhooks/${first!.id} 200`]);
    expect((await fx.collection<Hook>('webhooks')).map((h) => h.id)).not.toContain(first!.id);
    const list = JSON.parse((await run(['webhooks', 'list', '--json'])).stdout) as Hook[];
    expect(list.map((h) => h.id)).not.toContain(first!.id);
  });

  it('exits 5 for an unknown webhook and 2 for a non-integer id', async () => {
    const r = await run(['webhooks', 'delete', '999', '--yes']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('id: not found');
    const bad = await run(['webhooks', 'delete', 'abc', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<id>: must be a webhook id');
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v1/webhooks/999']);
  });
});

describe('sandbox rules (sent directly, as the CLI would refuse to)', () => {
  const valid = { name: 'x', subscription_url: 'https://198.51.100.7/h', event_action: 'create', event_object: 'deal' };

  it('answers the service 400 body for its own address and non-http URLs', async () => {
    const port = new URL(fx.sandbox.url).port;
    for (const url of [`${fx.sandbox.url}/api/v1/webhooks`, `http://localhost:${port}/`, 'ftp://a.example.com/x', 'nope', 'https://api.pipedrive.com/v1/deals']) {
      const r = await direct('POST', '/api/v1/webhooks', { ...valid, subscription_url: url });
      expect(r.status, url).toBe(400);
      expect(r.body).toEqual({ status: 'error', success: false, errors: { subscription_url: ['invalid or non-reachable URL'] } });
    }
    // Another loopback port is fine in the sandbox (the real service wants public URLs).
    expect((await direct('POST', '/api/v1/webhooks', { ...valid, subscription_url: 'http://127.0.0.1:9/hook' })).status).toBe(201);
  });

  it.each([
    [{ subscription_url: undefined }, 'subscription_url', 'is required'],
    [{ event_action: 'update' }, 'event_action', 'must be one of create, change, delete, *'],
    [{ event_object: 'invoice' }, 'event_object', 'must be one of activity, deal, lead, note, organization, person, pipeline, product, stage, user, project, task, board, phase, deal_product, deal_installment, *'],
    [{ name: '' }, 'name', 'is required'],
    [{ version: '3.0' }, 'version', 'must be one of 1.0, 2.0'],
    [{ user_id: 99 }, 'user_id', 'user 99 does not exist or is not active'],
    [{ http_auth_password: 'pw' }, 'http_auth_user', 'is required with http_auth_password'],
    [{ colour: 'red' }, 'colour', 'is not a known field of this operation'],
  ])('400 for %j', async (patch, field, rule) => {
    const r = await direct('POST', '/api/v1/webhooks', { ...valid, ...patch });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ status: 'error', success: false, errors: { [field]: [rule] } });
  });

  it('allows 40 webhooks per user, not 41', async () => {
    const mine = (await fx.collection<Hook>('webhooks')).filter((h) => h.owner_id === 1).length;
    for (let i = mine; i < 40; i++) expect((await direct('POST', '/api/v1/webhooks', { ...valid, name: `h${i}` })).status).toBe(201);
    const r = await direct('POST', '/api/v1/webhooks', { ...valid, name: 'one too many' });
    expect(r.status).toBe(400);
    expect(r.body.errors.user_id[0]).toContain('at most 40 webhooks');
    // Deleting one frees a place.
    const hooks = await fx.collection<Hook>('webhooks');
    const last = hooks[hooks.length - 1]!.id;
    expect((await direct('DELETE', `/api/v1/webhooks/${last}`)).body).toEqual({ status: 'ok', success: true, data: { id: last } });
    expect((await direct('POST', '/api/v1/webhooks', { ...valid, name: 'fits again' })).status).toBe(201);
  });

  it('404 body for a missing webhook, and 403 without the admin scope', async () => {
    const r = await direct('DELETE', '/api/v1/webhooks/4242');
    expect(r).toEqual({ status: 404, body: { status: 'error', success: false, errors: { id: ['not found'] } } });
    const t = fx.sandbox.issueToken({ scopes: ['base', 'leads:full'] }).access_token;
    const denied = await api(fx.sandbox.url, t, 'GET', '/api/v1/webhooks');
    expect(denied.status).toBe(403);
    const cli = await runCli(['webhooks', 'list'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t } });
    expect(cli.code).toBe(4);
    expect(cli.stderr).toContain('admin');
  });
});
