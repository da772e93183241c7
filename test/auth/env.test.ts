import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startAuthFixture, type AuthFixture } from './helpers.js';

describe('credentials from the environment', () => {
  let fx: AuthFixture;
  beforeEach(async () => {
    fx = await startAuthFixture();
  });
  afterEach(async () => fx.close());

  const apiCalls = async () => (await fx.requests()).filter((r) => r.path.startsWith('/api/'));

  it('CRMCTL_ACCESS_TOKEN + CRMCTL_API_DOMAIN work without a config file and win over a stored profile', async () => {
    const t = await fx.mint();
    const r = await runCli(['lead-labels', 'list', '--json'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t.access_token, CRMCTL_API_DOMAIN: fx.sandbox.url } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(fx.configDir, 'config.json'))).toBe(false);
    expect((await apiCalls()).map((c) => c.auth)).toEqual(['bearer']);

    // A stored profile with a dead token is ignored when the env token is set.
    await fx.seedProfile('default', { access_token: 'dead', refresh_token: 'dead', expires_in: 3600, scope: 'base' });
    const r2 = await runCli(['lead-labels', 'list'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t.access_token } });
    expect(r2.code, r2.stderr).toBe(0);
    const st = await runCli(['auth', 'status', '--json'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t.access_token } });
    expect(JSON.parse(st.stdout).envOverride).toBe('CRMCTL_ACCESS_TOKEN');
    expect(st.stdout + st.stderr).not.toContain(t.access_token);
  });

  it('an env token without CRMCTL_API_DOMAIN takes the API address from the profile the call uses: the stored default one', async () => {
    const t = await fx.mint();
    // Profile "default" points nowhere; "work" is the stored default and points at the sandbox.
    await fx.seedProfile('default', t, { apiDomain: 'http://127.0.0.1:9' });
    await fx.seedProfile('work', t);
    expect((await runCli(['auth', 'profiles', 'use', 'work'], { env: fx.env })).code).toBe(0);
    const r = await runCli(['lead-labels', 'list', '--json', '--debug'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t.access_token } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('auth: API address from profile work');
    // CRMCTL_PROFILE still wins over the stored default, and --profile over both.
    const env = await runCli(['lead-labels', 'list'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t.access_token, CRMCTL_PROFILE: 'default' } });
    expect(env.code).toBe(1);
    expect(env.stderr).toContain('http://127.0.0.1:9');
    const flag = await runCli(['lead-labels', 'list', '--profile', 'work'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t.access_token, CRMCTL_PROFILE: 'default' } });
    expect(flag.code, flag.stderr).toBe(0);
  });

  it('CRMCTL_API_TOKEN is sent as x-api-token', async () => {
    const info = await fx.ctl<{ users: Array<{ id: number; api_token: string | null }> }>('GET', 'info');
    const apiToken = info.users.find((u) => u.api_token)!.api_token!;
    const r = await runCli(['lead-labels', 'list', '--debug'], { env: { ...fx.env, CRMCTL_API_TOKEN: apiToken, CRMCTL_API_DOMAIN: fx.sandbox.url } });
    expect(r.code, r.stderr).toBe(0);
    expect((await apiCalls()).map((c) => c.auth)).toEqual(['api_token']);
    expect(r.stderr).toMatch(/x-api-token: \[redacted\]/);
    expect(r.stderr).not.toContain(apiToken);
  });

  it('an env token without any API address names both ways to give one (exit 4)', async () => {
    const r = await runCli(['lead-labels', 'list'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: 'x' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/CRMCTL_API_DOMAIN/);
    expect(r.stderr).toMatch(/apiDomain|log in/);
  });

  it('CRMCTL_CLIENT_ID/SECRET/REFRESH_TOKEN refresh in memory without touching the config file', async () => {
    const t = await fx.mint();
    const env = {
      ...fx.env,
      CRMCTL_CLIENT_ID: fx.sandbox.clientId,
      CRMCTL_CLIENT_SECRET: fx.sandbox.clientSecret,
      CRMCTL_REFRESH_TOKEN: t.refresh_token,
      CRMCTL_AUTH_URL: fx.sandbox.url,
    };
    const r = await runCli(['lead-labels', 'list', '--json', '--debug'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(fx.configDir, 'config.json'))).toBe(false);
    const log = await fx.requests();
    expect(log.filter((x) => x.path.startsWith('/oauth/token'))).toHaveLength(1);
    for (const s of [t.refresh_token, fx.sandbox.clientSecret]) expect(r.stderr).not.toContain(s);
  });

  it('not logged in: exit 4 with the login command for the profile', async () => {
    const r = await runCli(['lead-labels', 'list', '--profile', 'acme'], { env: fx.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/crmctl auth login --profile acme/);
    const st = await runCli(['auth', 'status', '--profile', 'acme'], { env: fx.env });
    expect(st.code).toBe(4);
  });

  it('secrets never appear in --debug output, stderr or auth status, even across a refresh', async () => {
    const t = await fx.mint({ lifetimeSec: 1 });
    await fx.seedProfile('default', t);
    await fx.expire('default', t);
    const r = await runCli(['lead-labels', 'list', '--debug'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const p = JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles.default;
    const st = await runCli(['auth', 'status', '--json', '--debug'], { env: fx.env });
    const human = await runCli(['auth', 'status'], { env: fx.env, tty: true });
    const list = await runCli(['auth', 'profiles', 'list', '--json'], { env: fx.env });
    const secrets = [t.access_token, t.refresh_token, p.accessToken, p.refreshToken, fx.sandbox.clientSecret];
    for (const s of secrets) {
      expect(r.stderr).not.toContain(s);
      expect(r.stdout).not.toContain(s);
      expect(st.stdout + st.stderr).not.toContain(s);
      expect(human.stdout + human.stderr).not.toContain(s);
      expect(list.stdout + list.stderr).not.toContain(s);
    }
    expect(r.stderr).toMatch(/refreshing the access token of profile default/);
  });
});
