import { PassThrough, Readable } from 'node:stream';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/main.js';
import type { IO } from '../../src/core/io.js';

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

/** Runs `main` in-process with captured streams (fast; for most tests). */
export async function runCli(args: string[], opts: RunOptions = {}): Promise<RunResult> {
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
  const code = await main(args, io, cleanEnv(opts.env ?? {}));
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
