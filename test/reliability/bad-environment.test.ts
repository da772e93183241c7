// Bad environment: a corrupt, unreadable or unwritable config; a full disk on export; a service that
// vanishes mid-list. Each: a message naming the cause and the fix, the right exit code, no stack
// trace, and nothing half-written (the output or config file is complete, or absent/unchanged).
// See also test/auth/store.test.ts (corrupt / unreadable config) and test/automation/export.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { startAuthFixture } from '../auth/helpers.js';
// @ts-expect-error -- plain ESM script shared with scripts/reliability-*.mjs (no type declarations)
import { startSandboxProcess } from '../../scripts/reliability-lib.mjs';
import { BIN, STACK_FRAME } from './helpers.js';
import { lastPage } from '../automation/helpers.js';

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/**
 * The bin the unprivileged user runs. A clone may sit where that user cannot enter (a `mktemp -d`
 * directory is mode 0700, so is many a home directory), so as root the files the bin loads (bin/,
 * dist/cli/, package.json) are copied to a world-readable temporary directory first. When even that
 * copy cannot run as the user (node itself out of its reach), the tests that need it skip, saying why.
 */
async function unprivilegedBin(): Promise<{ bin: string; dir?: string } | { skip: string }> {
  if (!isRoot) return { bin: BIN };
  const root = join(dirname(BIN), '..');
  const dir = mkdtempSync(join(tmpdir(), 'crmctl-rel-bin-'));
  chmodSync(dir, 0o755);
  for (const part of ['bin', 'dist/cli', 'package.json']) cpSync(join(root, part), join(dir, part), { recursive: true });
  const bin = join(dir, 'bin', 'crmctl.js');
  const probe = spawnSync(process.execPath, [bin, '--version'], { uid: NOBODY, gid: NOBODY, cwd: dir, encoding: 'utf8' });
  if (probe.status === 0) return { bin, dir };
  rmSync(dir, { recursive: true, force: true });
  return { skip: `user ${NOBODY} cannot run ${process.execPath} ${bin} (${probe.error?.message ?? (probe.stderr.trim().split('\n')[0] || `exit ${probe.status}`)})` };
}

const unprivileged = await unprivilegedBin();
const noUnprivileged = 'skip' in unprivileged ? unprivileged.skip : undefined;
if (noUnprivileged) console.warn(`bad-environment: the tests that run as an unprivileged user are skipped: ${noUnprivileged}`);
afterAll(() => {
  if ('dir' in unprivileged && unprivileged.dir) rmSync(unprivileged.dir, { recursive: true, force: true });
});

/** Runs the real bin; as root, as user nobody so that file modes apply. */
function runUnprivileged(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  if (!('bin' in unprivileged)) throw new Error(unprivileged.skip);
  const bin = unprivileged.bin;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], ...(isRoot ? { uid: NOBODY, gid: NOBODY, cwd: dirname(dirname(bin)) } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** A config dir the unprivileged user can enter, holding `config.json` with `text`. */
function configDirFor(text: string, owner: 'user' | 'root'): string {
  const base = mkdtempSync(join(tmpdir(), 'crmctl-rel-env-'));
  chmodSync(base, 0o755);
  const dir = join(base, 'crmctl');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), text, { mode: 0o600 });
  if (isRoot && owner === 'user') {
    chownSync(dir, NOBODY, NOBODY);
    chownSync(join(dir, 'config.json'), NOBODY, NOBODY);
  }
  return dir;
}

const clean = (r: { stderr: string }) => {
  // The error comes first; only an export's notes (what the list leaves out: archived records) precede it.
  expect(r.stderr).toMatch(/^(?:note: [^\n]*\n)*error: /);
  expect(r.stderr).toMatch(/\nhint: /);
  expect(r.stderr).not.toMatch(STACK_FRAME);
};

describe('config file problems', () => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx.close());
  const profileJson = (token: string) => `${JSON.stringify({ defaultProfile: 'default', profiles: { default: { authUrl: fx.sandbox.url, clientId: fx.sandbox.clientId, clientSecret: fx.sandbox.clientSecret, callbackPort: 8250, apiDomain: fx.sandbox.url, accessToken: token, refreshToken: 'r', expiresAt: Date.now() + 3_600_000, scopes: ['base'], kind: 'oauth' } } }, null, 2)}\n`;

  it('corrupt: reads and writes name the file and the fix (exit 1); the file is left as it was', async () => {
    const dir = configDirFor('{"profiles": {"default": {', 'user');
    for (const argv of [['lead-labels', 'list'], ['auth', 'status'], ['auth', 'profiles', 'use', 'default']]) {
      const r = await runCli(argv, { env: { CRMCTL_CONFIG_DIR: dir } });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr).toContain(`The config file ${join(dir, 'config.json')} is not valid JSON`);
      expect(r.stderr).toMatch(/hint: Fix or delete/);
      clean(r);
    }
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"profiles": {"default": {');
  });

  it.skipIf(noUnprivileged !== undefined)('unreadable (mode 000): names the file, EACCES and chmod as the fix (exit 1)', async () => {
    const dir = configDirFor(profileJson(fx.env.CRMCTL_ACCESS_TOKEN!), 'user');
    chmodSync(join(dir, 'config.json'), 0o000);
    const r = await runUnprivileged(['lead-labels', 'list'], { CRMCTL_CONFIG_DIR: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Cannot read the config file ${join(dir, 'config.json')} (EACCES)`);
    expect(r.stderr).toMatch(/chmod u\+rw|CRMCTL_CONFIG_DIR/);
    clean(r);
  });

  it.skipIf(noUnprivileged !== undefined)('unwritable directory (owned by someone else): a profile change names EACCES and the fix; the file is unchanged', async () => {
    const dir = configDirFor(profileJson(fx.env.CRMCTL_ACCESS_TOKEN!), 'root');
    chmodSync(join(dir, 'config.json'), 0o644); // readable, not writable, by the unprivileged user
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const read = await runUnprivileged(['lead-labels', 'list', '--json'], { CRMCTL_CONFIG_DIR: dir });
    expect(read.code, read.stderr).toBe(0); // reading still works
    const r = await runUnprivileged(['auth', 'logout'], { CRMCTL_CONFIG_DIR: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/EACCES/);
    expect(r.stderr).toContain(dir);
    clean(r);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('config directory below a regular file (ENOTDIR): names the path and the cause, nothing created', async () => {
    const base = mkdtempSync(join(tmpdir(), 'crmctl-rel-env-'));
    writeFileSync(join(base, 'file'), 'not a directory');
    const dir = join(base, 'file', 'crmctl');
    for (const argv of [['auth', 'profiles', 'list'], ['auth', 'status']]) {
      const r = await runCli(argv, { env: { CRMCTL_CONFIG_DIR: dir } });
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr).toContain(join(dir, 'config.json'));
      expect(r.stderr).toContain('ENOTDIR');
      expect(r.stderr).toContain('CRMCTL_CONFIG_DIR');
      clean(r);
    }
    expect(readFileSync(join(base, 'file'), 'utf8')).toBe('not a directory');
  });

  it.skipIf(noUnprivileged !== undefined)('a refresh that cannot be saved (unwritable config) fails clearly instead of losing the rotated refresh token silently', async () => {
    const auth = await startAuthFixture();
    try {
      const t = await auth.mint({ lifetimeSec: 1 });
      await auth.seedProfile('default', t);
      const src = join(auth.configDir, 'config.json');
      const dir = configDirFor(readFileSync(src, 'utf8'), 'root');
      chmodSync(join(dir, 'config.json'), 0o644);
      // Expired (the stored expiry lies in the past): the next command must refresh and save.
      const expired = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
      expired.profiles.default.expiresAt = Date.now() - 1000;
      writeFileSync(join(dir, 'config.json'), JSON.stringify(expired));
      const before = readFileSync(join(dir, 'config.json'), 'utf8');
      const r = await runUnprivileged(['lead-labels', 'list'], { CRMCTL_CONFIG_DIR: dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/EACCES/);
      clean(r);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
    } finally {
      await auth.close();
    }
  });
});

describe('full disk on export', () => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx.close());

  it.runIf(existsSync('/dev/full'))('--out /dev/full: ENOSPC named with the fix, exit 1, no stack trace', async () => {
    // /dev/full through a link of our own: the run's journal (`<out>.checkpoint.json`) goes beside the link,
    // not into /dev where another run of this test (another checkout) would find it.
    const out = join(mkdtempSync(join(tmpdir(), 'crmctl-full-')), 'leads.ndjson');
    symlinkSync('/dev/full', out);
    const r = await runCli(['export', 'leads', '--out', out], { env: fx.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`No space left on the device while writing ${out} (ENOSPC)`);
    clean(r);
  });

  // bin/crmctl.js names a stdout write error (other than EPIPE) and exits 1.
  it.runIf(existsSync('/dev/full'))('leads list --output ndjson > /dev/full (stdout on a full disk): ENOSPC named, exit 1, no stack', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(`exec "${process.execPath}" "${BIN}" leads list --output ndjson > /dev/full`, { shell: true, env: cleanEnv(fx.env), stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ENOSPC/);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('a reader that goes away (crmctl leads list --all | head -1)', () => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await startFixture();
    await fetch(`${fx.sandbox.url}/__sandbox/bulk`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ collection: 'leads', count: 3000 }) });
  });
  afterAll(async () => fx.close());

  // bin/crmctl.js ignores EPIPE on stdout (the reader is gone); before that, Node printed its stack.
  it('stops quietly: exit 0, no stack trace on stderr', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(`"${process.execPath}" "${BIN}" leads list --all --output ndjson | head -1 > /dev/null`, { shell: '/bin/bash', env: cleanEnv(fx.env), stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr).not.toMatch(/Unhandled 'error' event/);
  });
});

describe('the service vanishes mid-list (sandbox process killed with SIGKILL between pages)', () => {
  /** Starts a sandbox process with `leads` bulk leads and per-request latency; returns it and a CLI env. */
  async function slowSandbox(dataFile: string, leads: number) {
    const sb = await startSandboxProcess(['--seed', 'demo', '--data', dataFile]);
    await sb.control('POST', 'bulk', { collection: 'leads', count: leads });
    const token = await sb.token();
    await sb.control('PUT', 'faults', { latencyMs: 250 });
    return { sb, env: { CRMCTL_ACCESS_TOKEN: token, CRMCTL_API_DOMAIN: sb.url, CRMCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'crmctl-rel-cfg-')), CRMCTL_RETRY_BASE_MS: '20', CRMCTL_MAX_RETRIES: '2' } };
  }
  /** SIGKILLs the sandbox once the log shows `pages` answered list pages. */
  async function killAfterPages(sb: any, path: string, pages: number) {
    for (;;) {
      let log: Array<{ path: string; status: number }>;
      try {
        log = await sb.control('GET', 'requests');
      } catch {
        return;
      }
      if (log.filter((e) => e.path === path && e.status === 200).length >= pages) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await sb.kill9();
  }
  function runBin(args: string[], env: Record<string, string>) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
  }

  it('leads list --all: exit 1 naming the unreachable service and the fix; stdout holds whole records only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-rel-vanish-'));
    const { sb, env } = await slowSandbox(join(dir, 'state.json'), 1500);
    try {
      const run = runBin(['leads', 'list', '--all', '--output', 'ndjson'], env);
      await killAfterPages(sb, '/api/v1/leads', 1);
      const r = await run;
      expect(r.code).toBe(1);
      // ndjson output: the failure is one JSON line on stderr (docs/agents.md), naming the fix as the text form does.
      const failure = JSON.parse(r.stderr.trimEnd().split('\n').pop()!) as { error: { code: string; exit_code: number; message: string; hint: string } };
      expect(failure.error).toMatchObject({ code: 'network', exit_code: 1 });
      expect(failure.error.message).toMatch(/Could not reach the service|connection/i);
      expect(failure.error.hint).toMatch(/crmctl sandbox start|network/);
      expect(r.stderr).not.toMatch(STACK_FRAME);
      const lines = r.stdout.split('\n').filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThan(1505);
      for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
      expect(r.stdout.endsWith('\n')).toBe(true);
    } finally {
      await sb.kill9();
    }
  }, 60_000);

  it('export leads --out: exit 1, the file matches its checkpoint, and --resume against the restarted service completes it exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-rel-vanish-'));
    const data = join(dir, 'state.json');
    const { sb, env } = await slowSandbox(data, 1500);
    const out = join(dir, 'leads.ndjson');
    const first = runBin(['export', 'leads', '--out', out, '--page-size', '200'], env);
    // An export asks for the next page while it writes this one: page 3 is asked for once page 1 is journaled.
    await killAfterPages(sb, '/api/v1/leads', 3);
    const r = await first;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Could not reach the service|connection/i);
    clean(r);
    const cp = lastPage(`${out}.checkpoint.json`)!;
    expect(statSync(out).size).toBe(cp.bytes);
    const partial = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    expect(partial.length).toBe(cp.records);
    for (const l of partial) expect(() => JSON.parse(l)).not.toThrow();

    // The service comes back (same data file, same address: a journal belongs to one API origin): --resume finishes without a duplicate.
    const again = await startSandboxProcess(['--data', data, '--port', new URL(env.CRMCTL_API_DOMAIN!).port]);
    try {
      const resumed = await runBin(['export', 'leads', '--out', out, '--resume'], { ...env, CRMCTL_API_DOMAIN: again.url });
      expect(resumed.code, resumed.stderr).toBe(0);
      const ids = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).id);
      const live = ((await again.control('GET', 'state/leads')).data as Array<{ id: string; is_archived: boolean }>).filter((l) => !l.is_archived);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(live.length);
      expect(lastPage(`${out}.checkpoint.json`)!.records).toBe(live.length);
    } finally {
      await again.kill9();
    }
  }, 60_000);
});
