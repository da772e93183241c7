import { chmodSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { freePort, startAuthFixture, type AuthFixture } from '../auth/helpers.js';

interface Check {
  id: string;
  status: 'pass' | 'fail' | 'skip';
  detail: string;
  fix?: string;
}

let fx: AuthFixture | undefined;
let fake: Server | undefined;
afterEach(async () => {
  await fx?.close();
  fx = undefined;
  await new Promise<void>((r) => (fake ? fake.close(() => r()) : r()));
  fake = undefined;
});

const doctor = async (env: Record<string, string>, extra: string[] = []) => {
  const r = await runCli(['doctor', '--json', ...extra], { env });
  const report = JSON.parse(r.stdout) as { ok: boolean; profile: string; checks: Check[] };
  const by = Object.fromEntries(report.checks.map((c) => [c.id, c])) as Record<string, Check>;
  return { ...r, report, by };
};

/** A logged-in profile "work" against the sandbox, with tokens minted there. */
async function loggedIn(o: { scopes?: string[]; lifetimeSec?: number; extra?: Record<string, unknown> } = {}) {
  fx = await startAuthFixture();
  const t = await fx.mint({ scopes: o.scopes, lifetimeSec: o.lifetimeSec });
  await fx.seedProfile('work', t, o.extra as never);
  return { env: { ...fx.env, CRMCTL_PROFILE: 'work' }, tokens: t };
}

describe('crmctl doctor', () => {
  it('a healthy sandbox profile: every check passes, exit 0, only GET /users/me reaches the API', async () => {
    const { env } = await loggedIn();
    const r = await doctor(env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.ok).toBe(true);
    expect(r.report.profile).toBe('work');
    expect(r.report.checks.map((c) => [c.id, c.status])).toEqual([
      ['config-file', 'pass'],
      ['credentials', 'pass'],
      ['token-expiry', 'pass'],
      ['api-reachable', 'pass'],
      ['clock-skew', 'pass'],
      ['daily-budget', 'pass'],
      ['auth-reachable', 'pass'],
      ['scopes', 'pass'],
    ]);
    const users = await fx!.ctl<Array<{ id: number; name: string }>>('GET', 'state/users');
    expect(r.by['api-reachable']!.detail).toContain(`signed in as ${users.find((u) => u.id === 1)!.name}`);
    expect(r.by['auth-reachable']!.detail).toContain(`client ${fx!.sandbox.clientId} with callback http://127.0.0.1:${fx!.callbackPort}/callback`);
    const api = (await fx!.requests()).filter((q) => !q.path.startsWith('/oauth'));
    expect(api.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v1/users/me']);
  });

  it('the daily budget: what is left passes; a spent day fails with when it resets (exit 1)', async () => {
    const { env } = await loggedIn();
    await fx!.ctl('POST', 'budget', { daily_limit: 30000, daily_used: 1000 });
    const ok = await doctor(env);
    expect(ok.by['daily-budget']).toMatchObject({ status: 'pass' });
    expect(ok.by['daily-budget']!.detail).toMatch(/^28,998 of 30,000 tokens left today \(96\.6%\); resets at 00:00 UTC \(in /);
    await fx!.ctl('POST', 'budget', { daily_used: 30000 });
    const spent = await doctor(env);
    expect(spent.code).toBe(1);
    expect(spent.by['daily-budget']).toMatchObject({ status: 'fail', fix: expect.stringMatching(/^Wait for the reset \(crmctl budget shows what is left\)/) });
    expect(spent.by['daily-budget']!.detail).toMatch(/^spent: 0 of 30,000 tokens left; every request is refused until 00:00 UTC \(in /);
  });

  it('the human report has one line per check and says all passed; no colour off a terminal', async () => {
    const { env } = await loggedIn();
    const r = await runCli(['doctor'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^crmctl doctor — profile work\n/);
    for (const title of ['Config file', 'Credentials', 'Token expiry', 'API reachable', 'Clock skew', 'Daily budget', 'Auth server reachable', 'Scopes']) expect(r.stdout).toMatch(new RegExp(`^✓ ${title}\\s`, 'm'));
    expect(r.stdout).toMatch(/All checks passed\.\n$/);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('a config file readable by others fails with the chmod fix (exit 1)', async () => {
    const { env } = await loggedIn();
    const file = join(fx!.configDir, 'config.json');
    chmodSync(file, 0o644);
    const r = await doctor(env);
    expect(r.code).toBe(1);
    expect(r.by['config-file']).toMatchObject({ status: 'fail', fix: `chmod 600 ${file}` });
    expect(r.by['config-file']!.detail).toContain('mode 0644');
    // --json: the failure is one JSON line on stderr (docs/agents.md).
    expect(r.stderr).toContain('{"error":{"code":"error","exit_code":1,"message":"doctor found 1 problem: config file');
    const human = await runCli(['doctor'], { env });
    expect(human.stdout).toMatch(/^✗ Config file .*mode 0644/m);
    expect(human.stdout).toContain(`fix: chmod 600 ${file}`);
    expect(human.stdout).toMatch(/1 problem found\.\n$/);
  });

  it('an expired token with no refresh token: expiry fails with the login fix, and no API call can be made', async () => {
    const { env, tokens } = await loggedIn({ lifetimeSec: 1, extra: { refreshToken: undefined } });
    await fx!.expire('work', tokens);
    const stored = JSON.parse(readFileSync(join(fx!.configDir, 'config.json'), 'utf8')).profiles.work;
    expect(stored.refreshToken).toBeUndefined();
    const r = await doctor(env);
    expect(r.code).toBe(1);
    expect(r.by['token-expiry']!.status).toBe('fail');
    expect(r.by['token-expiry']!.detail).toMatch(/expired .* ago and cannot be refreshed/);
    expect(r.by['token-expiry']!.fix).toContain('crmctl auth login --profile work');
    expect(r.by['api-reachable']!.status).toBe('fail');
    expect(r.by['api-reachable']!.detail).toContain('expired and there is no refresh token');
  });

  it('an expired token that can be refreshed passes (the API check refreshes it)', async () => {
    const { env, tokens } = await loggedIn({ lifetimeSec: 1 });
    await fx!.expire('work', tokens);
    const r = await doctor(env);
    expect(r.code, JSON.stringify(r.report.checks)).toBe(0);
    expect(r.by['token-expiry']!.detail).toMatch(/expired .* ago; the next command refreshes it/);
    const stored = JSON.parse(readFileSync(join(fx!.configDir, 'config.json'), 'utf8')).profiles.work;
    expect(stored.accessToken).not.toBe(tokens.access_token);
  });

  it('missing scopes: names the common commands that will be refused and the scopes to add', async () => {
    const { env } = await loggedIn({ scopes: ['base', 'leads:read'] });
    const r = await doctor(env);
    expect(r.code).toBe(1);
    const s = r.by.scopes!;
    expect(s.status).toBe('fail');
    expect(s.detail).toContain('leads create (needs leads:full)');
    expect(s.detail).toContain('webhooks list (needs admin)');
    expect(s.detail).not.toContain('leads list');
    expect(s.fix).toMatch(/^Add .*leads:full.* to the app's scopes, then log in again/);
    expect(s.fix).toContain('admin');
  });

  it('an unregistered callback port: the auth server refuses it and the fix names --callback-port', async () => {
    const { env } = await loggedIn({ extra: { callbackPort: await freePort() } });
    const r = await doctor(env);
    expect(r.code).toBe(1);
    expect(r.by['auth-reachable']!.status).toBe('fail');
    expect(r.by['auth-reachable']!.detail).toMatch(/refuses client .* or callback http:\/\/127\.0\.0\.1:\d+\/callback \(400\)/);
    expect(r.by['auth-reachable']!.fix).toContain('--callback-port');
  });

  it('an API address nothing listens on is reported as unreachable', async () => {
    const port = await freePort();
    const r = await doctor({ CRMCTL_ACCESS_TOKEN: 'tok', CRMCTL_API_DOMAIN: `http://127.0.0.1:${port}`, CRMCTL_CONFIG_DIR: (await import('../helpers/cli.js')).tempConfigDir() });
    expect(r.code).toBe(1);
    expect(r.by['api-reachable']).toMatchObject({ status: 'fail' });
    expect(r.by['api-reachable']!.detail).toContain(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
    expect(r.by['clock-skew']!.status).toBe('skip');
    // An env token carries no expiry or scopes to check locally.
    expect(r.by['token-expiry']!.status).toBe('skip');
    expect(r.by.scopes!.status).toBe('skip');
  });

  it('a service whose Date is 10 minutes off: clock skew fails with how to synchronise', async () => {
    const offsetMs = -10 * 60_000;
    fake = createServer((_req, res) => {
      res.sendDate = false;
      res.writeHead(200, { 'content-type': 'application/json', date: new Date(Date.now() + offsetMs).toUTCString() });
      res.end(JSON.stringify({ success: true, data: { id: 1, name: 'Skewed' } }));
    });
    await new Promise<void>((r) => fake!.listen(0, '127.0.0.1', () => r()));
    const port = (fake.address() as { port: number }).port;
    const r = await doctor({ CRMCTL_ACCESS_TOKEN: 'tok', CRMCTL_API_DOMAIN: `http://127.0.0.1:${port}`, CRMCTL_CONFIG_DIR: (await import('../helpers/cli.js')).tempConfigDir() });
    expect(r.code).toBe(1);
    expect(r.by['api-reachable']!.status).toBe('pass');
    expect(r.by['clock-skew']).toMatchObject({ status: 'fail' });
    expect(r.by['clock-skew']!.detail).toMatch(/clock is 10 min ahead of the service/);
    expect(r.by['clock-skew']!.fix).toMatch(/timedatectl set-ntp true/);
  });

  it('not logged in: one failure with the login fix, no API call attempted', async () => {
    fx = await startAuthFixture();
    const r = await doctor({ ...fx.env, CRMCTL_PROFILE: 'nobody' });
    expect(r.code).toBe(1);
    expect(r.by.credentials).toMatchObject({ status: 'fail', detail: 'there is no profile "nobody"' });
    expect(r.by.credentials!.fix).toContain('crmctl auth login --profile nobody');
    expect(r.by['api-reachable']!.status).toBe('skip');
    expect(r.report.checks.filter((c) => c.status === 'fail').length).toBe(1);
    expect(await fx.requests()).toEqual([]);
  });
});
