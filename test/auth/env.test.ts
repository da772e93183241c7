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
    const withEnv = { ...fx.env, CRMCTL_ACCESS_TOKEN: t.access_token, CRMCTL_API_DOMAIN: fx.sandbox.url };
    const r2 = await runCli(['lead-labels', 'list'], { env: withEnv });
    expect(r2.code, r2.stderr).toBe(0);
    const st = await runCli(['auth', 'status', '--json'], { env: withEnv });
    expect(JSON.parse(st.stdout).envOverride).toBe('CRMCTL_ACCESS_TOKEN');
    expect(st.stdout + st.stderr).not.toContain(t.access_token);
  });

  // Issue 28.4: half a set of credential variables used to be completed from the stored profile, so a
  // CI job whose token secret was missing ran against the default profile's account.
  describe('half a set of credential variables is refused (exit 2, nothing sent), never completed from a profile', () => {
    const HINT = 'hint: Nothing was sent. Give the whole set (docs/auth.md, "CI and scripts"), or unset them all to use the stored profile.\n';
    const noApiCalls = async () => expect(await apiCalls()).toEqual([]);

    it('CRMCTL_API_DOMAIN with CRMCTL_ACCESS_TOKEN empty or unset: the logged-in default profile is not used', async () => {
      await fx.seedProfile('default', await fx.mint());
      for (const [token, state] of [[undefined, 'not set'], ['', 'empty']] as const) {
        const r = await runCli(['lead-labels', 'create', '--name', 'meant for another account', '--color', 'red'], { env: { ...fx.env, CRMCTL_API_DOMAIN: 'http://127.0.0.1:9', CRMCTL_ACCESS_TOKEN: token } });
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toBe(`error: CRMCTL_API_DOMAIN is set but CRMCTL_ACCESS_TOKEN is ${state}: set CRMCTL_ACCESS_TOKEN (or CRMCTL_API_TOKEN) and CRMCTL_API_DOMAIN together, or neither\n${HINT}`);
        expect(r.stdout).toBe('');
      }
      await noApiCalls();
      // The same refusal where the credentials are only reported.
      for (const cmd of [['auth', 'status'], ['doctor']]) {
        const r = await runCli(cmd, { env: { ...fx.env, CRMCTL_API_DOMAIN: fx.sandbox.url, CRMCTL_API_TOKEN: '' } });
        expect(r.code, cmd.join(' ')).toBe(2);
        expect(r.stderr).toMatch(/^error: CRMCTL_API_DOMAIN is set but CRMCTL_API_TOKEN is empty: /);
      }
      await noApiCalls();
    });

    it('an env token without CRMCTL_API_DOMAIN is not sent to the profile\'s API address', async () => {
      const t = await fx.mint();
      await fx.seedProfile('default', t);
      for (const [name, value] of [['CRMCTL_ACCESS_TOKEN', t.access_token], ['CRMCTL_API_TOKEN', 'api-token-0123456789']] as const) {
        const r = await runCli(['lead-labels', 'list'], { env: { ...fx.env, [name]: value } });
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(`error: ${name} is set but CRMCTL_API_DOMAIN is not set: set ${name} and CRMCTL_API_DOMAIN together, or neither\n${HINT.replace(/\n$/, '')} CRMCTL_API_DOMAIN is the api_domain of the token response, e.g. https://yourcompany.example.com.\n`);
        expect(r.stderr).not.toContain(value);
      }
      await noApiCalls();
    });

    it('CRMCTL_REFRESH_TOKEN without its client and OAuth server: named, and the profile\'s auth URL is not used', async () => {
      const t = await fx.mint();
      await fx.seedProfile('default', t);
      const r = await runCli(['lead-labels', 'list'], { env: { ...fx.env, CRMCTL_REFRESH_TOKEN: t.refresh_token, CRMCTL_CLIENT_ID: fx.sandbox.clientId, CRMCTL_CLIENT_SECRET: '' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`error: CRMCTL_REFRESH_TOKEN is set but CRMCTL_CLIENT_SECRET is empty, CRMCTL_AUTH_URL is not set: set CRMCTL_REFRESH_TOKEN, CRMCTL_CLIENT_ID, CRMCTL_CLIENT_SECRET and CRMCTL_AUTH_URL together, or none of them\n${HINT}`);
      expect((await fx.requests()).filter((q) => q.path.startsWith('/oauth/'))).toEqual([]);
      await noApiCalls();
    });

    it('the client id and secret alone are login defaults, not a set: the profile is used', async () => {
      await fx.seedProfile('default', await fx.mint());
      const r = await runCli(['lead-labels', 'list'], { env: { ...fx.env, CRMCTL_CLIENT_ID: fx.sandbox.clientId, CRMCTL_CLIENT_SECRET: fx.sandbox.clientSecret } });
      expect(r.code, r.stderr).toBe(0);
      expect((await apiCalls()).map((c) => c.auth)).toEqual(['bearer']);
    });
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
