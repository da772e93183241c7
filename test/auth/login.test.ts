import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { AUTHORIZE_URL, consent, liveCli, liveMain, startAuthFixture, type AuthFixture } from './helpers.js';

describe('auth login (loopback OAuth flow against the sandbox)', () => {
  let fx: AuthFixture;
  afterEach(async () => fx?.close());

  const loginArgs = (f: AuthFixture, extra: string[] = []) => [
    'auth', 'login', '--profile', 'work',
    '--auth-url', f.sandbox.url,
    '--client-id', f.sandbox.clientId,
    '--client-secret-stdin',
    '--callback-port', String(f.callbackPort),
    '--no-browser',
    ...extra,
  ];

  describe('with auto-approve', () => {
    beforeEach(async () => {
      fx = await startAuthFixture({ autoApprove: true });
    });

    it('logs in: tokens stored with scopes, expiry and api domain; file 0600; status shows no secrets', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      const [, url] = await cli.waitFor(AUTHORIZE_URL);
      const u = new URL(url!);
      expect(u.searchParams.get('client_id')).toBe(fx.sandbox.clientId);
      expect(u.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${fx.callbackPort}/callback`);
      expect(u.searchParams.get('state')!.length).toBeGreaterThanOrEqual(20);
      const location = await consent(url!);
      expect(location).toContain(`http://127.0.0.1:${fx.callbackPort}/callback?`);
      const page = await fetch(location);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/You can close this tab/);
      const r = await cli.done;
      expect(r.code, r.stderr).toBe(0);
      // Off a terminal too, the login ends with one line on stderr saying as whom (as gh does); stdout stays empty.
      expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^Logged in to profile work as Ada Admin\. Scopes: .*leads:full.*\.$/);
      expect(r.stdout).toBe('');

      const file = join(fx.configDir, 'config.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(readFileSync(file, 'utf8'));
      const p = stored.profiles.work;
      expect(p.accessToken).toBeTruthy();
      expect(p.refreshToken).toBeTruthy();
      expect(p.apiDomain).toBe(fx.sandbox.url);
      expect(p.callbackPort).toBe(fx.callbackPort);
      expect(p.scopes).toContain('leads:full');
      expect(p.expiresAt).toBeGreaterThan(Date.now() + 60_000);
      expect(stored.defaultProfile).toBe('work');

      // The replayed callback is not accepted (the server is gone and the code is spent).
      const replay = await fetch(location).then((x) => x.status).catch(() => 'refused');
      expect(replay).not.toBe(200);
      expect(JSON.parse(readFileSync(file, 'utf8')).profiles.work.accessToken).toBe(p.accessToken);

      const st = await runCli(['auth', 'status', '--json'], { env: fx.env });
      expect(st.code, st.stderr).toBe(0);
      const s = JSON.parse(st.stdout);
      expect(s).toMatchObject({ profile: 'work', loggedIn: true, apiDomain: fx.sandbox.url, configPath: file, envOverride: null });
      expect(s.scopes).toContain('leads:full');
      expect(Date.parse(s.expiresAt)).toBe(p.expiresAt);
      for (const secret of [p.accessToken, p.refreshToken, fx.sandbox.clientSecret]) {
        expect(st.stdout).not.toContain(secret);
        expect(st.stderr).not.toContain(secret);
        expect(r.stderr).not.toContain(secret);
      }
      const human = await runCli(['auth', 'status'], { env: fx.env });
      expect(human.stdout).toContain('leads:full');
      expect(human.stdout).not.toContain(p.accessToken);

      const list = await runCli(['lead-labels', 'list', '--json'], { env: fx.env });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout).length).toBeGreaterThan(0);
    });

    it('accepts the pasted redirect URL on stdin instead of the callback', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      const [, url] = await cli.waitFor(AUTHORIZE_URL);
      const location = await consent(url!);
      cli.write(`${location}\n`);
      const r = await cli.done;
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles.work.accessToken).toBeTruthy();
    });

    // Issue 29.6: any local process can reach the callback port; a wrong state used to end the login (exit 4).
    it('a callback with a wrong or missing state gets a 400 page and the login keeps waiting for the right one', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      const [, url] = await cli.waitFor(AUTHORIZE_URL);
      const callback = `http://127.0.0.1:${fx.callbackPort}/callback`;
      const location = new URL(await consent(url!));
      const forged = new URL(location);
      forged.searchParams.set('state', 'forged-state');
      for (const attack of [forged.toString(), `${callback}?error=access_denied`, `${callback}?error=server_error&state=old`, `${callback}?code=stolen`, callback]) {
        const page = await fetch(attack);
        expect(page.status, attack).toBe(400);
        expect(await page.text()).toContain('This callback does not belong to the login in progress (state mismatch).');
      }
      await cli.waitFor(/Refused a callback that does not belong to this login \(state mismatch\); still waiting\./);
      expect(existsSync(join(fx.configDir, 'config.json'))).toBe(false);
      // The real callback still completes the login.
      const ok = await fetch(location);
      expect(ok.status).toBe(200);
      const r = await cli.done;
      expect(r.code, r.stderr).toBe(0);
      // Said once, however many foreign callbacks came.
      expect(r.stderr.match(/Refused a callback/g)).toHaveLength(1);
      expect(JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles.work.accessToken).toBeTruthy();
    });

    it('a pasted URL with another state is not taken, and the right one still is', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      const [, url] = await cli.waitFor(AUTHORIZE_URL);
      const location = new URL(await consent(url!));
      const old = new URL(location);
      old.searchParams.set('state', 'from-an-older-attempt');
      cli.write(`${old}\n`);
      await cli.waitFor(/That URL does not carry the state of this login \(state mismatch: an older link\?\)/);
      cli.write(`${location}\n`);
      const r = await cli.done;
      expect(r.code, r.stderr).toBe(0);
    });

    it('a foreign callback does not stretch the wait: the login still times out (exit 4)', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '2']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      await cli.waitFor(AUTHORIZE_URL);
      expect((await fetch(`http://127.0.0.1:${fx.callbackPort}/callback?state=x&code=y`)).status).toBe(400);
      const r = await cli.done;
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/Timed out after 2 s/);
    });

    it('a replayed (already exchanged) code is rejected', async () => {
      const first = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      first.write(`${fx.sandbox.clientSecret}\n`);
      const [, url1] = await first.waitFor(AUTHORIZE_URL);
      const loc1 = await consent(url1!);
      await fetch(loc1);
      expect((await first.done).code).toBe(0);
      const code = new URL(loc1).searchParams.get('code')!;

      const second = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      second.write(`${fx.sandbox.clientSecret}\n`);
      await second.waitFor(AUTHORIZE_URL);
      second.write(`${code}\n`);
      const r = await second.done;
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/refused the authorization code/);
      expect(r.stderr).not.toContain(code);
    });

    it('times out (exit 4) and frees the port', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '1']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      const r = await cli.done;
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/Timed out after 1 s/);
      // The callback server was closed.
      await expect(fetch(`http://127.0.0.1:${fx.callbackPort}/callback`)).rejects.toThrow();
    });

    it('Ctrl-C while waiting exits 3 and closes the callback server (real process)', async () => {
      const cli = liveCli(loginArgs(fx, ['--timeout', '30']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      await cli.waitFor(AUTHORIZE_URL);
      cli.kill('SIGINT');
      const r = await cli.done;
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/Login cancelled/);
      await expect(fetch(`http://127.0.0.1:${fx.callbackPort}/callback`)).rejects.toThrow();
    });

    it('a busy callback port fails with exit 4 naming the port and --callback-port', async () => {
      const blocker: Server = createServer();
      await new Promise<void>((r) => blocker.listen(fx.callbackPort, '127.0.0.1', () => r()));
      try {
        const cli = liveMain(loginArgs(fx, ['--timeout', '5']), fx.env);
        cli.write(`${fx.sandbox.clientSecret}\n`);
        const r = await cli.done;
        expect(r.code).toBe(4);
        expect(r.stderr).toContain(`port ${fx.callbackPort}`);
        expect(r.stderr).toContain('--callback-port');
      } finally {
        await new Promise((r) => blocker.close(r));
      }
    });

    it('re-login reuses the saved settings (no flags, secret from the profile)', async () => {
      const first = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      first.write(`${fx.sandbox.clientSecret}\n`);
      await fetch(await consent((await first.waitFor(AUTHORIZE_URL))[1]!));
      expect((await first.done).code).toBe(0);

      const again = liveMain(['auth', 'login', '--profile', 'work', '--no-browser', '--timeout', '20'], fx.env);
      const [, url] = await again.waitFor(AUTHORIZE_URL);
      expect(url).toContain(`127.0.0.1%3A${fx.callbackPort}%2Fcallback`);
      await fetch(await consent(url!));
      const r = await again.done;
      expect(r.code, r.stderr).toBe(0);
    });

    it('without a secret and no terminal, names the ways to give it (exit 2)', async () => {
      const r = await runCli(['auth', 'login', '--auth-url', fx.sandbox.url, '--client-id', 'x', '--no-browser'], { env: fx.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--client-secret-stdin/);
      expect(r.stderr).toMatch(/CRMCTL_CLIENT_SECRET/);
    });
  });

  describe('with the consent page', () => {
    beforeEach(async () => {
      fx = await startAuthFixture({ autoApprove: false });
    });

    it('approving on the consent page logs in', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      const [, url] = await cli.waitFor(AUTHORIZE_URL);
      const res = await fetch(await consent(url!, 'allow'));
      expect(res.status).toBe(200);
      expect((await cli.done).code).toBe(0);
    });

    it('cancelling the consent exits 4 with a clear message', async () => {
      const cli = liveMain(loginArgs(fx, ['--timeout', '20']), fx.env);
      cli.write(`${fx.sandbox.clientSecret}\n`);
      const [, url] = await cli.waitFor(AUTHORIZE_URL);
      const location = await consent(url!, 'deny');
      expect(location).toContain('error=access_denied');
      const page = await fetch(location);
      expect(page.status).toBe(400);
      const r = await cli.done;
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/you cancelled the consent \(access_denied\)/);
    });
  });
});
