import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { OTHER_CLIENT } from '../../src/sandbox/index.js';
import { refreshAccepted, startAuthFixture, type AuthFixture } from './helpers.js';

describe('token refresh', () => {
  let fx: AuthFixture;
  beforeEach(async () => {
    fx = await startAuthFixture();
  });
  afterEach(async () => fx.close());

  const stored = () => JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles;
  const tokenCalls = async () => (await fx.requests()).filter((r) => r.path.startsWith('/oauth/token'));

  it('refreshes an expired access token before the call; the rotated refresh token is stored', async () => {
    const t = await fx.mint({ lifetimeSec: 1 });
    await fx.seedProfile('default', t);
    await fx.expire('default', t);
    const r = await runCli(['lead-labels', 'list', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const p = stored().default;
    expect(p.accessToken).not.toBe(t.access_token);
    expect(p.refreshToken).not.toBe(t.refresh_token);
    expect(p.expiresAt).toBeGreaterThan(Date.now() + 60_000);
    expect(await tokenCalls()).toHaveLength(1);
    // The next call uses the stored token, no refresh.
    expect((await runCli(['lead-labels', 'list'], { env: fx.env })).code).toBe(0);
    expect(await tokenCalls()).toHaveLength(1);
    expect(await refreshAccepted(fx.sandbox.url, fx.sandbox.clientId, fx.sandbox.clientSecret, p.refreshToken)).toBe(true);
  });

  it('refreshes a token that expires within 60 s', async () => {
    const t = await fx.mint({ lifetimeSec: 30 });
    await fx.seedProfile('default', t);
    const r = await runCli(['lead-labels', 'list'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(stored().default.accessToken).not.toBe(t.access_token);
  });

  it('after a 401 refreshes once and retries', async () => {
    const t = await fx.mint();
    await fx.seedProfile('default', t);
    // Revoke the access token at the service: the next call gets a 401.
    const rev = await fetch(`${fx.sandbox.url}/oauth/revoke`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${fx.sandbox.clientId}:${fx.sandbox.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ token: t.access_token, token_type_hint: 'access_token' }).toString(),
    });
    expect(rev.status).toBe(200);
    const r = await runCli(['lead-labels', 'list', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const log = await fx.requests();
    const labels = log.filter((x) => x.path === '/api/v1/leadLabels').map((x) => x.status);
    expect(labels).toEqual([401, 200]);
    expect(await tokenCalls()).toHaveLength(1);
    expect(stored().default.accessToken).not.toBe(t.access_token);
  });

  it('a second 401 after the refresh exits 4 telling to log in', async () => {
    // Tokens of another registered app are valid OAuth tokens but not accepted by this API.
    const t = await fx.ctl<{ access_token: string; refresh_token: string; expires_in: number; scope: string }>('POST', 'tokens', {
      client_id: OTHER_CLIENT.clientId,
      lifetime_sec: 3600,
    });
    await fx.seedProfile('default', t, { clientId: OTHER_CLIENT.clientId, clientSecret: OTHER_CLIENT.clientSecret });
    const r = await runCli(['lead-labels', 'list'], { env: fx.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/crmctl auth login/i);
    const labels = (await fx.requests()).filter((x) => x.path === '/api/v1/leadLabels').map((x) => x.status);
    expect(labels).toEqual([401, 401]);
    expect(await tokenCalls()).toHaveLength(1);
  });

  it('a refused refresh token exits 4 naming the profile to log in again', async () => {
    const t = await fx.mint({ lifetimeSec: 1 });
    await fx.seedProfile('work', t, { refreshToken: 'not-a-real-refresh-token' });
    await fx.expire('work', t);
    const r = await runCli(['lead-labels', 'list', '--profile', 'work'], { env: fx.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/refresh token was refused/);
    expect(r.stderr).toMatch(/crmctl auth login --profile work/);
  });

  it('8 processes with an expired token refresh once between them; the config stays valid', async () => {
    const t = await fx.mint({ lifetimeSec: 1 });
    await fx.seedProfile('default', t);
    await fx.expire('default', t);
    const results = await Promise.all(Array.from({ length: 8 }, () => spawnCli(['lead-labels', 'list', '--json'], { env: fx.env, timeoutMs: 60_000 })));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const file = join(fx.configDir, 'config.json');
    const data = JSON.parse(readFileSync(file, 'utf8'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const p = data.profiles.default;
    expect(p.refreshToken).not.toBe(t.refresh_token);
    expect(await tokenCalls()).toHaveLength(1);
    expect(await refreshAccepted(fx.sandbox.url, fx.sandbox.clientId, fx.sandbox.clientSecret, p.refreshToken)).toBe(true);
  }, 90_000);

  it('auth refresh, auth token and logout', async () => {
    const t = await fx.mint();
    await fx.seedProfile('default', t);
    const tok = await runCli(['auth', 'token'], { env: fx.env });
    expect(tok.code).toBe(0);
    expect(tok.stdout).toBe(`${t.access_token}\n`);
    const r = await runCli(['auth', 'refresh'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    // Piped: no status line (like every command); on a terminal it says what happened.
    expect(r.stderr).toBe('');
    const onTty = await runCli(['auth', 'refresh'], { env: fx.env, tty: true });
    expect(onTty.stderr).toMatch(/^Refreshed profile default; the access token expires in \d+ s \(\d{4}-\d\d-\d\dT[\d:.]+Z\)\.\n$/);
    const p = stored().default;
    expect(p.accessToken).not.toBe(t.access_token);
    const out = await runCli(['auth', 'logout'], { env: fx.env });
    expect(out.code, out.stderr).toBe(0);
    expect(stored().default.accessToken).toBeUndefined();
    expect(stored().default.clientId).toBe(fx.sandbox.clientId);
    // The revoked refresh token is no longer accepted.
    expect(await refreshAccepted(fx.sandbox.url, fx.sandbox.clientId, fx.sandbox.clientSecret, p.refreshToken)).toBe(false);
    const after = await runCli(['lead-labels', 'list'], { env: fx.env });
    expect(after.code).toBe(4);
    expect(after.stderr).toMatch(/crmctl auth login --profile default/);
  });
});

describe('short-lived tokens', () => {
  it('a service issuing 20 s tokens is not asked for a new one before every request', async () => {
    const fx = await startAuthFixture({ tokenLifetimeSec: 20 });
    try {
      const t = await fx.mint({ lifetimeSec: 20 });
      await fx.seedProfile('default', t);
      const { profileSource } = await import('../../src/auth/credentials.js');
      const src = await profileSource('default', { CRMCTL_CONFIG_DIR: fx.configDir }, () => {});
      const first = await src.get();
      const second = await src.get();
      const third = await src.get();
      expect(first.headers.authorization).not.toBe(`Bearer ${t.access_token}`);
      expect(second.headers).toEqual(first.headers);
      expect(third.headers).toEqual(first.headers);
      const calls = (await fx.requests()).filter((r) => r.path.startsWith('/oauth/token'));
      expect(calls).toHaveLength(1);
      expect(src.secrets()).toContain(t.access_token);
    } finally {
      await fx.close();
    }
  });
});
