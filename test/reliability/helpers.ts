// Helpers of the reliability tests. Real processes run the repo's bin, or the build under
// RELIABILITY_ROOT (a snapshot: see scripts/reliability-lib.mjs) when that is set.
import { spawn } from 'node:child_process';
import { cleanEnv, type RunResult } from '../helpers/cli.js';
// @ts-expect-error -- plain ESM script shared with scripts/reliability-*.mjs (no type declarations)
import { BIN } from '../../scripts/reliability-lib.mjs';

export { BIN };

/** Runs crmctl as a real process with a clean environment; SIGKILL after timeoutMs. */
export function spawnCrmctl(args: string[], opts: { env?: Record<string, string | undefined>; stdin?: string | Buffer; timeoutMs?: number } = {}): Promise<RunResult & { signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN as string, ...args], { env: cleanEnv(opts.env ?? {}), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, signal, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin ?? '');
  });
}

/** A stack frame printed to the user ("    at fn (file:1:2)"): never acceptable in output. */
export const STACK_FRAME = /^\s+at .+/m;
