// Secrets in the OS keychain, through its test double (CRMCTL_KEYCHAIN_DOUBLE: the same Entry
// get/set/delete the real binding has, backed by files) since no keychain daemon runs here; and the
// config file where no keychain works, as CI runs it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { AUTHORIZE_URL, consent, liveMain, startAuthFixture, type AuthFixture } from './helpers.js';

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
/** The double's file of an entry: account "<profile>/<field>@<config dir>", or "<profile>/<field>" as earlier versions named it. */
const entryFile = (field: string, dir: string | null = fx.configDir, profile = 'work') =>
  join(keychain, encodeURIComponent(`crmctl:${profile}/${field}${dir === null ? '' : `@${realpathSync(dir)}`}`));
const entry = (field: string, dir: string | null = fx.configDir) => {
  const f = entryFile(field, dir);
  return existsSync(f) ? readFileSync(f, 'utf8') : undefined;
};
const lock = () => writeFileSync(join(keychain, 'locked'), '');
const unlock = () => rmSync(join(keychain, 'locked'));
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

// Issue 28.11: entries were keyed by the profile name alone, so every config directory with a profile
// "work" shared them, and logging in with one sent its tokens to the other's API and auth addresses.
describe('keychain entries belong to one config directory', () => {
  let other: AuthFixture;
  beforeEach(async () => {
    other = await startAuthFixture();
  });
  afterEach(async () => other.close());

  it('two config directories with a profile "work" keep their own entries: B\'s login does not change what A sends', async () => {
    const envA = withKeychain();
    const envB = { ...other.env, CRMCTL_KEYCHAIN_DOUBLE: keychain, CRMCTL_SECRET_STORE: '', CRMCTL_PROFILE: 'work' };
    const a = await fx.mint();
    await fx.seedProfile('work', a);
    expect((await runCli(['lead-labels', 'list'], { env: envA })).code).toBe(0); // A's secrets to the keychain
    const b = await other.mint();
    await other.seedProfile('work', b);
    expect((await runCli(['lead-labels', 'list'], { env: envB })).code).toBe(0); // B's too
    await fx.ctl('DELETE', 'requests');
    await other.ctl('DELETE', 'requests');

    const r = await runCli(['lead-labels', 'list', '--json'], { env: envA });
    expect(r.code, r.stderr).toBe(0);
    expect((await fx.requests()).map((q) => [q.path, q.status])).toEqual([['/api/v1/leadLabels', 200]]);
    expect(await other.requests()).toEqual([]);
    expect([entry('accessToken', fx.configDir), entry('accessToken', other.configDir)]).toEqual([a.access_token, b.access_token]);
    expect([entry('refreshToken', fx.configDir), entry('refreshToken', other.configDir)]).toEqual([a.refresh_token, b.refresh_token]);
    expect(JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles.work).toMatchObject({ secretStore: 'keychain', keychainEntries: 'by-config-dir' });
  });

  it('entries of earlier versions (keyed by the profile alone) are read once, moved to this directory\'s entries, and said so', async () => {
    const t = await fx.mint();
    await fx.seedProfile('work', t);
    // What an earlier version left: the secrets in entries "work/<field>", the file marked keychain.
    const cfg = JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8'));
    const p = cfg.profiles.work;
    for (const f of ['accessToken', 'refreshToken', 'clientSecret']) {
      writeFileSync(entryFile(f, null), p[f]);
      delete p[f];
    }
    p.secretStore = 'keychain';
    writeFileSync(join(fx.configDir, 'config.json'), JSON.stringify(cfg));
    const env = withKeychain();
    const r = await runCli(['lead-labels', 'list', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`warning: moved the OS keychain entries of profile work to entries of its config directory ${realpathSync(fx.configDir)} (before, every config directory with a profile "work" shared one set); another config directory with a profile "work" must log in again\n`);
    expect([entry('accessToken'), entry('refreshToken'), entry('clientSecret')]).toEqual([t.access_token, t.refresh_token, fx.sandbox.clientSecret]);
    expect(['accessToken', 'refreshToken', 'clientSecret'].map((f) => existsSync(entryFile(f, null)))).toEqual([false, false, false]);
    expect(stored()).toMatchObject({ secretStore: 'keychain', keychainEntries: 'by-config-dir' });
    const again = await runCli(['lead-labels', 'list'], { env });
    expect(again.stderr).toBe('');

    // Another directory whose profile "work" relied on the shared entries no longer gets this one's tokens.
    const dirB = mkdtempSync(join(tmpdir(), 'crmctl-test-'));
    writeFileSync(join(dirB, 'config.json'), JSON.stringify({ profiles: { work: { ...p, apiDomain: 'http://127.0.0.1:9', secretStore: 'keychain' } } }));
    const b = await runCli(['lead-labels', 'list'], { env: { ...env, CRMCTL_CONFIG_DIR: dirB } });
    expect(b.code).toBe(4);
    expect(b.stderr).toMatch(/^error: Profile "work" is not logged in\./m);
  });
});

describe('a keychain profile whose keychain is gone can be logged out, removed and logged in again', () => {
  const gone = 'The secrets of profile "work" are in the OS keychain, but no keychain answers (Couldn\'t access platform storage: AccessDenied)';
  /**
   * The same entries under another name of the double's directory: a run as a new process sees it,
   * probing the keychain afresh (this process keeps what it learnt about the first name).
   */
  const freshRun = () => {
    const again = `${keychain}-again`;
    if (!existsSync(again)) symlinkSync(keychain, again);
    return { ...withKeychain(), CRMCTL_KEYCHAIN_DOUBLE: again };
  };
  beforeEach(async () => {
    await fx.seedProfile('work', await fx.mint());
    expect((await runCli(['lead-labels', 'list'], { env: withKeychain() })).code).toBe(0);
    expect(stored().secretStore).toBe('keychain');
    lock();
  });

  it('auth logout: exit 0, the profile forgets its secrets and says the keychain keeps them', async () => {
    const r = await runCli(['auth', 'logout'], { env: freshRun() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`warning: ${gone}: its tokens were not revoked and stay in the keychain; the profile forgot them and its client secret (give it again at the next \`crmctl auth login\`)\n`);
    const p = stored();
    expect(p.secretStore).toBeUndefined();
    for (const f of ['accessToken', 'refreshToken', 'clientSecret', 'expiresAt']) expect(p[f]).toBeUndefined();
    expect(p).toMatchObject({ clientId: fx.sandbox.clientId, authUrl: fx.sandbox.url });
    const st = await runCli(['auth', 'status', '--json'], { env: freshRun() });
    expect(st.code).toBe(4);
    expect(JSON.parse(st.stdout)).toMatchObject({ loggedIn: false });
    unlock();
    expect(entry('accessToken')).toEqual(expect.any(String)); // the keychain kept them, as said
  });

  it('auth profiles remove: exit 0, the profile is gone, the entries left behind are named', async () => {
    const r = await runCli(['auth', 'profiles', 'remove', 'work', '--yes'], { env: freshRun() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`warning: could not remove the OS keychain entries of profile work (${gone}); they stay in the keychain, where nothing reads them\n`);
    expect(JSON.parse(readFileSync(join(fx.configDir, 'config.json'), 'utf8')).profiles).toEqual({});
    // A keychain that answers the probe but refuses the entries (locked after this process opened it) too.
    await fx.seedProfile('work', await fx.mint());
    unlock();
    expect((await runCli(['lead-labels', 'list'], { env: withKeychain() })).code).toBe(0);
    lock();
    const late = await runCli(['auth', 'profiles', 'remove', 'work', '--yes'], { env: withKeychain() });
    expect(late.code, late.stderr).toBe(0);
    expect(late.stderr).toBe('warning: could not remove the OS keychain entries of profile work (Could not remove the accessToken of profile "work" in the OS keychain: Couldn\'t access platform storage: AccessDenied); they stay in the keychain, where nothing reads them\n');
  });

  it('auth login with CRMCTL_SECRET_STORE=file: the new secrets go to the config file and the profile works', async () => {
    const env = { ...freshRun(), CRMCTL_SECRET_STORE: 'file' };
    const cli = liveMain(['auth', 'login', '--client-secret-stdin', '--no-browser', '--timeout', '20'], env);
    cli.write(`${fx.sandbox.clientSecret}\n`);
    const [, url] = await cli.waitFor(AUTHORIZE_URL);
    expect((await fetch(await consent(url!))).status).toBe(200);
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${gone}: this login keeps the new secrets in the config file (mode 0600)\n`);
    const p = stored();
    expect(p.secretStore).toBeUndefined();
    expect(p.accessToken).toEqual(expect.any(String));
    expect(p.clientSecret).toBe(fx.sandbox.clientSecret);
    const list = await runCli(['lead-labels', 'list'], { env });
    expect(list.code, list.stderr).toBe(0);
  });
});
