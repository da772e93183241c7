// Secrets in the OS keychain, through its test double (CRMCTL_KEYCHAIN_DOUBLE: the same Entry
// get/set/delete the real binding has, backed by files) since no keychain daemon runs here; and the
// config file where no keychain works, as CI runs it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startAuthFixture, type AuthFixture } from './helpers.js';

let fx: AuthFixture;
let keychain: string;
beforeEach(async () => {
  fx = await startAuthFixture();
  keychain = mkdtempSync(join(tmpdir(), 'crmctl-keychain-'));
});
afterEach(async () => fx.close());

/** A machine with a working keychain: nothing forces a store ('' unsets the tests' default of file). */
const withKeychain = () => ({ ...fx.env, CRMCTL_KEYCHAIN_DOUBLE: keychain, CRMCTL_SECRET_STORE: '', CRMCTL_PROFILE: 'work' });
const inFile = () => ({ ...fx.env, CRMCTL_SECRET_STORE: 'file', CRMCTL_PROFILE: 'work' });
const stored = () => JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles.work;
const entry = (field: string) => {
  const f = join(keychain, encodeURIComponent(`crmctl:work/${field}`));
  return existsSync(f) ? readFileSync(f, 'utf8') : undefined;
};
const status = async (env: Record<string, string>) => JSON.parse((await runCli(['auth', 'status', '--json'], { env })).stdout);

describe('secret stores', () => {
  it('with a keychain: the tokens and client secret go there, the config file keeps none; commands and auth status use it', async () => {
    const t = await fx.mint();
    await fx.seedProfile('work', t);
    // seedProfile writes with the fixture's env (the file store): the first use moves them.
    const env = withKeychain();
    const r = await runCli(['lead-labels', 'list', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('warning: moved the secrets of profile work (tokens, client secret) from the config file to the OS keychain\n');
    const p = stored();
    expect(p).toMatchObject({ secretStore: 'keychain', clientId: fx.sandbox.clientId, apiDomain: fx.sandbox.url });
    for (const f of ['accessToken', 'refreshToken', 'clientSecret']) expect(p[f]).toBeUndefined();
    expect(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).not.toContain(t.access_token);
    expect([entry('accessToken'), entry('refreshToken'), entry('clientSecret')]).toEqual([t.access_token, t.refresh_token, fx.sandbox.clientSecret]);
    // Said once: the next run finds them in the keychain.
    const again = await runCli(['lead-labels', 'list', '--json'], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(await status(env)).toMatchObject({ loggedIn: true, secretStore: 'keychain', refreshable: true });
  });

  it('refresh under the lock writes the rotated tokens to the keychain, not the file', async () => {
    const env = withKeychain();
    const t = await fx.mint();
    await fx.seedProfile('work', t);
    expect((await runCli(['lead-labels', 'list'], { env })).code).toBe(0); // migrates
    await fx.ctl('DELETE', 'requests');
    await fx.ctl('POST', 'clock', { advance_sec: t.expires_in + 1 });
    // The stored expiry in the past: crmctl refreshes before calling.
    const cfg = JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8'));
    cfg.profiles.work.expiresAt = Date.now() - 1000;
    writeFileSync(join(fx.configDir, 'config.json'), JSON.stringify(cfg));
    const r = await runCli(['lead-labels', 'list', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const access = entry('accessToken');
    expect(access).toBeDefined();
    expect(access).not.toBe(t.access_token);
    expect(entry('refreshToken')).not.toBe(t.refresh_token);
    expect(stored().accessToken).toBeUndefined();
    expect(stored().expiresAt).toBeGreaterThan(Date.now() + 60_000);
    expect((await fx.requests()).filter((q) => q.path.startsWith('/oauth/token'))).toHaveLength(1);
    const tok = await runCli(['auth', 'token'], { env });
    expect(tok.stdout).toBe(`${access}\n`);
  });

  it('logout and profile removal remove the keychain entries', async () => {
    const env = withKeychain();
    await fx.seedProfile('work', await fx.mint());
    expect((await runCli(['lead-labels', 'list'], { env })).code).toBe(0);
    expect((await runCli(['auth', 'logout'], { env })).code).toBe(0);
    expect([entry('accessToken'), entry('refreshToken')]).toEqual([undefined, undefined]);
    expect(entry('clientSecret')).toBe(fx.sandbox.clientSecret); // kept for the next login, like the file
    expect((await runCli(['auth', 'profiles', 'remove', 'work', '--yes'], { env })).code).toBe(0);
    expect(readdirSync(keychain)).toEqual([]);
  });

  it('without a working keychain (locked) the secrets stay in the 0600 file; auth status says file', async () => {
    mkdirSync(keychain, { recursive: true });
    writeFileSync(join(keychain, 'locked'), '');
    const env = withKeychain();
    await fx.seedProfile('work', await fx.mint());
    const r = await runCli(['lead-labels', 'list'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(stored().accessToken).toEqual(expect.any(String));
    expect(stored().secretStore).toBeUndefined();
    expect(await status(env)).toMatchObject({ loggedIn: true, secretStore: 'file' });
    // Forcing the keychain where none works is an error that says what to do.
    const forced = await runCli(['lead-labels', 'list'], { env: { ...env, CRMCTL_SECRET_STORE: 'keychain' } });
    expect(forced.code).toBe(1);
    expect(forced.stderr).toMatch(/^error: CRMCTL_SECRET_STORE=keychain, but no keychain answers \(Couldn't access platform storage: AccessDenied\)\.\nhint: Unset CRMCTL_SECRET_STORE/);
  });

  it('CRMCTL_SECRET_STORE=file (as CI runs it) keeps the secrets in the file even with a keychain; a bad value is exit 2', async () => {
    await fx.seedProfile('work', await fx.mint());
    const env = { ...inFile(), CRMCTL_KEYCHAIN_DOUBLE: keychain };
    expect((await runCli(['lead-labels', 'list'], { env })).code).toBe(0);
    expect(stored().accessToken).toEqual(expect.any(String));
    expect(readdirSync(keychain)).toEqual([]);
    expect(await status(env)).toMatchObject({ secretStore: 'file' });
    const bad = await runCli(['lead-labels', 'list'], { env: { ...env, CRMCTL_SECRET_STORE: 'vault' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/CRMCTL_SECRET_STORE: must be file or keychain \(got "vault"\)/);
  });

  it('a keychain profile on a machine whose keychain is locked exits 4 and says how to go on', async () => {
    const env = withKeychain();
    await fx.seedProfile('work', await fx.mint());
    expect((await runCli(['lead-labels', 'list'], { env })).code).toBe(0);
    const locked = mkdtempSync(join(tmpdir(), 'crmctl-keychain-locked-'));
    writeFileSync(join(locked, 'locked'), '');
    const r = await runCli(['lead-labels', 'list'], { env: { ...env, CRMCTL_KEYCHAIN_DOUBLE: locked } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: The secrets of profile "work" are in the OS keychain, but no keychain answers/);
  });
});
