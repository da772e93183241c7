// Runs one shell block of the docs as a user would: bash in a fresh directory, `crmctl` on PATH (the
// repo's bin, so the bundle users run), a private HOME and config directory, and the account the
// case names (a sandbox the test started). Records which commands failed and with what exit code.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';

export interface BlockResult {
  /** bash's exit code (the last command's, or the `exit` the block ran). */
  code: number;
  stdout: string;
  stderr: string;
  /** Commands that exited non-zero: the command's text (continuation lines joined) and its code. */
  failed: Array<{ command: string; code: number }>;
}

export interface BlockEnv {
  /** The directory the block runs in (a fresh temp dir; set-up writes files here). */
  cwd: string;
  /** Environment of the block: PATH with crmctl first, HOME and CRMCTL_CONFIG_DIR private. */
  env: Record<string, string>;
  configDir: string;
}

/** A fresh directory, home and config directory, and a `crmctl` on PATH that runs this checkout's bin. */
export function blockEnv(extra: Record<string, string> = {}): BlockEnv {
  const base = mkdtempSync(join(tmpdir(), 'crmctl-doc-'));
  const cwd = join(base, 'work');
  const bin = join(base, 'bin');
  const home = join(base, 'home');
  const configDir = join(base, 'config');
  for (const d of [cwd, bin, home, configDir]) mkdirSync(d);
  writeFileSync(join(bin, 'crmctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'crmctl'), 0o755);
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    CRMCTL_CONFIG_DIR: configDir,
    // Secrets stay in the test's config file (never the developer's keychain); retries wait 5 ms.
    CRMCTL_SECRET_STORE: 'file',
    CRMCTL_RETRY_BASE_MS: '5',
    ...extra,
  };
  return { cwd, env, configDir };
}

/** The tools of `names` that are not on PATH. */
export function missingTools(names: readonly string[]): string[] {
  return names.filter((n) => spawnSync('sh', ['-c', `command -v ${n}`]).status !== 0);
}

export interface RunBlockOptions {
  /** Stop the block (SIGINT to every process it started) once its output matches: a server in the foreground. */
  until?: RegExp;
  timeoutMs?: number;
}

/**
 * Runs `text` with bash. An ERR trap notes each failing command's line and exit code; `pipefail` makes
 * a failing command inside a pipe count. Processes the block leaves in the background are stopped at
 * the end (the block runs in its own process group).
 */
export async function runBlock(text: string, where: BlockEnv, opts: RunBlockOptions = {}): Promise<BlockResult> {
  const exits = join(where.cwd, '..', 'exits.txt');
  rmSync(exits, { force: true });
  // Line 1 is the trap, so the block's line n is bash's line n + 1.
  const script = `set -o pipefail; trap '__s=$?; printf "%s %s\\n" "$LINENO" "$__s" >> "${exits}"' ERR\n${text}\n`;
  const child = spawn('bash', ['-c', script], { cwd: where.cwd, env: where.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  let stopped = false;
  const stopGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* the group is gone already */
    }
  };
  const watch = () => {
    if (opts.until && !stopped && opts.until.test(stdout + stderr)) {
      stopped = true;
      stopGroup('SIGINT');
    }
  };
  child.stdout.on('data', (d) => {
    stdout += d;
    watch();
  });
  child.stderr.on('data', (d) => {
    stderr += d;
    watch();
  });
  const timeoutMs = opts.timeoutMs ?? 90_000;
  const timer = setTimeout(() => stopGroup('SIGKILL'), timeoutMs);
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, signal) => resolve(c ?? (signal === 'SIGKILL' ? -9 : -1)));
  });
  clearTimeout(timer);
  // What the block started in the background (a listener, a sandbox) goes with it.
  stopGroup('SIGTERM');
  if (code === -9) throw new Error(`the block did not finish within ${timeoutMs} ms\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  if (opts.until && !stopped) throw new Error(`the block ended before its output matched ${opts.until}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
  return { code, stdout, stderr, failed: failedCommands(text, exits) };
}

/** The ERR trap's lines mapped back to the block's commands (a command continued with `\` is one). */
function failedCommands(text: string, exitsFile: string): BlockResult['failed'] {
  let noted = '';
  try {
    noted = readFileSync(exitsFile, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  const commandAt = (n: number) => {
    let start = Math.min(Math.max(n, 0), lines.length - 1);
    while (start > 0 && lines[start - 1]!.endsWith('\\')) start--;
    let end = start;
    while (end < lines.length - 1 && lines[end]!.endsWith('\\')) end++;
    return lines.slice(start, end + 1).map((l) => l.replace(/\\$/, '').trim()).join(' ');
  };
  return noted
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [lineNo, code] = l.split(' ').map(Number) as [number, number];
      return { command: commandAt(lineNo - 2), code };
    });
}
