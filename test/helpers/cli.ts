import { PassThrough, Readable } from 'node:stream';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/main.js';
import type { IO } from '../../src/core/io.js';
import { BUNDLE_MAIN, ensureBuilt } from '../ux/built.js';

export const BIN = fileURLToPath(new URL('../../bin/crmctl.js', import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Pretend stdout/stdin/stderr are terminals. */
  tty?: boolean;
  stdin?: string;
  columns?: number;
}

/** A fresh config directory so tests never read or write the user's real config. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'crmctl-test-'));
}

/** Environment without anything from the developer's shell that changes behaviour. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  // Secrets stay in the test's config file: a developer's real keychain is never written by a test
  // (keychain tests use CRMCTL_KEYCHAIN_DOUBLE and set CRMCTL_SECRET_STORE themselves; '' = unset).
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CRMCTL_RETRY_BASE_MS: '5', CRMCTL_SECRET_STORE: 'file' };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Runs `main` of the sources in-process with captured streams (fast; for most tests). */
export async function runCli(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return runMain(main, args, opts);
}

type Main = typeof main;
let bundled: Promise<Main> | undefined;

/**
 * Runs the bundle users run (dist/cli/main.js, what bin/crmctl.js loads) in this process, with captured
 * streams: the same code, flags, output and exit code as `spawnCli` at a fraction of its cost, for tests
 * where the process boundary is not what is tested. Keep spawnCli for signals, kill -9, concurrent
 * processes, file locks between processes, real stdio (EPIPE, a full disk) and start-up. The bundle is
 * built first when the sources changed (ensureBuilt, under its lock), then loaded once per test file.
 * `cwd` changes the process's directory for the run (runs with a cwd take turns).
 */
export async function runBin(args: string[], opts: RunOptions & { cwd?: string } = {}): Promise<RunResult> {
  bundled ??= (async () => {
    ensureBuilt();
    return ((await import(pathToFileURL(BUNDLE_MAIN).href)) as { main: Main }).main;
  })();
  const bundleMain = await bundled;
  if (opts.cwd === undefined) return runMain(bundleMain, args, opts);
  const turn = cwdTurn.then(async () => {
    const before = process.cwd();
    process.chdir(opts.cwd!);
    try {
      return await runMain(bundleMain, args, opts);
    } finally {
      process.chdir(before);
    }
  });
  cwdTurn = turn.catch(() => undefined);
  return turn;
}
let cwdTurn: Promise<unknown> = Promise.resolve();

async function runMain(run: Main, args: string[], opts: RunOptions): Promise<RunResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const stdin = Readable.from(opts.stdin !== undefined ? [opts.stdin] : []);
  const io: IO = {
    stdin,
    stdout,
    stderr,
    isStdinTTY: Boolean(opts.tty),
    isStdoutTTY: Boolean(opts.tty),
    isStderrTTY: Boolean(opts.tty),
    columns: opts.tty ? (opts.columns ?? 120) : 0,
  };
  const code = await run(args, io, cleanEnv(opts.env ?? {}));
  return { code, stdout: out, stderr: err };
}

/** Runs the real bin in a child process (for start-up, signals, concurrency); `nodeArgs` go to node itself (`--stack-size=200`). */
export function spawnCli(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number; cwd?: string; nodeArgs?: string[] } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), BIN, ...args], { env: cleanEnv(opts.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'], cwd: opts.cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}
