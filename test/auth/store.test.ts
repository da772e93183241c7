import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  configPath,
  getProfile,
  listProfiles,
  removeProfile,
  resolveProfileName,
  saveProfile,
  setDefaultProfile,
} from '../../src/config/store.js';
import { withFileLock } from '../../src/fs/lock.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';

const base = { authUrl: 'http://127.0.0.1:1', clientId: 'cid', callbackPort: 8250 };
const isRoot = process.getuid?.() === 0;

describe('profile store', () => {
  it('saves, merges, lists, sets the default and removes profiles; file mode 0600 after every write', async () => {
    const env = { CRMCTL_CONFIG_DIR: tempConfigDir(), CRMCTL_SECRET_STORE: 'file' };
    await saveProfile('work', { ...base, accessToken: 'a1', refreshToken: 'r1' }, env);
    const file = configPath(env);
    expect(file).toBe(join(env.CRMCTL_CONFIG_DIR, 'config.json'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await saveProfile('work', { accessToken: 'a2', refreshToken: undefined }, env);
    expect(await getProfile('work', env)).toEqual({ ...base, accessToken: 'a2' });
    chmodSync(file, 0o644);
    await saveProfile('other', { ...base, callbackPort: 9000 }, env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((await listProfiles(env)).map((p) => [p.name, p.isDefault])).toEqual([
      ['other', false],
      ['work', false],
    ]);
    expect(await resolveProfileName(env, undefined)).toBe('default');
    await setDefaultProfile('work', env);
    expect(await resolveProfileName(env, undefined)).toBe('work');
    expect(await resolveProfileName({ ...env, CRMCTL_PROFILE: 'other' }, undefined)).toBe('other');
    expect(await resolveProfileName({ ...env, CRMCTL_PROFILE: 'other' }, 'flagged')).toBe('flagged');
    expect(await removeProfile('work', env)).toBe(true);
    expect(await removeProfile('work', env)).toBe(false);
    expect(await resolveProfileName(env, undefined)).toBe('default');
    expect(JSON.parse(readFileSync(file, 'utf8')).profiles.other.callbackPort).toBe(9000);
  });

  it('stays valid JSON and loses no update with concurrent writers', async () => {
    const env = { CRMCTL_CONFIG_DIR: tempConfigDir(), CRMCTL_SECRET_STORE: 'file' };
    await Promise.all(Array.from({ length: 20 }, (_, i) => saveProfile(`p${i}`, { ...base, accessToken: `t${i}` }, env)));
    const data = JSON.parse(readFileSync(configPath(env), 'utf8'));
    expect(Object.keys(data.profiles)).toHaveLength(20);
  });

  it('concurrent processes writing profiles keep the file valid', async () => {
    const dir = tempConfigDir();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => spawnCli(['auth', 'profiles', 'use', `p${i}`], { env: { CRMCTL_CONFIG_DIR: dir } })),
    );
    // The profiles do not exist: each fails cleanly (exit 5) without corrupting anything.
    for (const r of results) expect(r.code).toBe(5);
    await Promise.all(Array.from({ length: 6 }, (_, i) => saveProfile(`p${i}`, base, { CRMCTL_CONFIG_DIR: dir, CRMCTL_SECRET_STORE: 'file' })));
    const uses = await Promise.all(
      Array.from({ length: 6 }, (_, i) => spawnCli(['auth', 'profiles', 'use', `p${i}`], { env: { CRMCTL_CONFIG_DIR: dir } })),
    );
    for (const r of uses) expect(r.code, r.stderr).toBe(0);
    const data = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(data.profiles)).toHaveLength(6);
    expect(data.defaultProfile).toMatch(/^p\d$/);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('a corrupt config file gives a clear error naming the file, no stack trace', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": {');
    for (const args of [['auth', 'status'], ['auth', 'profiles', 'list'], ['lead-labels', 'list']]) {
      const r = await runCli(args, { env: { CRMCTL_CONFIG_DIR: dir } });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(join(dir, 'config.json'));
      expect(r.stderr).toMatch(/not valid JSON/);
      expect(r.stderr).toMatch(/hint: Fix or delete/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    writeFileSync(join(dir, 'config.json'), '{"profiles": {"x": {"callbackPort": "nope"}}}');
    const r = await runCli(['auth', 'profiles', 'list'], { env: { CRMCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unexpected shape \(profiles\.x\.callbackPort/);
  });

  it.skipIf(isRoot)('a read-only config dir gives a clear error with the fix', async () => {
    const dir = join(tempConfigDir(), 'ro');
    mkdirSync(dir);
    chmodSync(dir, 0o500);
    try {
      const r = await runCli(['auth', 'profiles', 'use', 'x'], { env: { CRMCTL_CONFIG_DIR: dir } });
      // Reading works (empty), so the missing profile is reported first.
      expect(r.code).toBe(5);
      await expect(saveProfile('x', base, { CRMCTL_CONFIG_DIR: dir, CRMCTL_SECRET_STORE: 'file' })).rejects.toThrow(/not writable|Cannot write/);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('an unreadable config file names the file and the fix', async () => {
    const dir = tempConfigDir();
    // A directory where the file should be is unreadable as a file for everyone, root included.
    mkdirSync(join(dir, 'config.json'));
    const r = await runCli(['auth', 'status'], { env: { CRMCTL_CONFIG_DIR: dir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: The config path ${join(dir, 'config.json')} is not a regular file (EISDIR).\nhint: Remove it, or set CRMCTL_CONFIG_DIR to another directory.\n`);
  });

  it('the file lock serialises critical sections and breaks stale locks', async () => {
    const dir = tempConfigDir();
    const lock = join(dir, 'x.lock');
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withFileLock(lock, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await new Promise((r) => setTimeout(r, 10));
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    writeFileSync(lock, '99999 dead 2000-01-01');
    const old = new Date(Date.now() - 60_000);
    const { utimesSync, existsSync } = await import('node:fs');
    utimesSync(lock, old, old);
    expect(await withFileLock(lock, async () => 'ok', { staleMs: 30_000 })).toBe('ok');
    expect(existsSync(lock)).toBe(false);
  });

  it('rejects bad profile names', async () => {
    const r = await runCli(['auth', 'status', '--profile', '../etc'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid profile name/);
  });
});

describe('auth profiles commands', () => {
  it('list, use and remove (remove needs --yes off a terminal)', async () => {
    const env = { CRMCTL_CONFIG_DIR: tempConfigDir(), CRMCTL_SECRET_STORE: 'file' };
    await saveProfile('alpha', { ...base, accessToken: 'secret-access-alpha', user: { id: 1, name: 'Ada', email: 'ada@example.com' } }, env);
    await saveProfile('beta', base, env);
    const list = await runCli(['auth', 'profiles', 'list', '--json'], { env });
    expect(list.code, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout);
    expect(rows.map((r: { name: string; loggedIn: boolean }) => [r.name, r.loggedIn])).toEqual([
      ['alpha', true],
      ['beta', false],
    ]);
    expect(list.stdout).not.toContain('secret-access-alpha');
    expect((await runCli(['auth', 'profiles', 'use', 'beta'], { env })).code).toBe(0);
    expect(await resolveProfileName(env, undefined)).toBe('beta');
    expect((await runCli(['auth', 'profiles', 'use', 'nope'], { env })).code).toBe(5);
    const refused = await runCli(['auth', 'profiles', 'remove', 'alpha'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: .*Pass --yes to confirm \(no prompt: not a terminal, CI or --no-input\)\.\n$/);
    expect(await getProfile('alpha', env)).toBeDefined();
    const removed = await runCli(['auth', 'profiles', 'remove', 'alpha', '--yes'], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await getProfile('alpha', env)).toBeUndefined();
    const tsv = await runCli(['auth', 'profiles', 'list'], { env });
    expect(tsv.stdout).toMatch(/^beta\ttrue\tfalse/m);
  });
});
