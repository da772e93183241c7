import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

/** A fresh folder for output, checkpoint, journal and results files. */
export function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'crmctl-automation-'));
}

/** Calls a control endpoint of the fixture's sandbox. */
export async function control(fx: SandboxFixture, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${fx.sandbox.url}/__sandbox/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * One sandbox for the test file, reset to the demo seed with no faults and an empty request log before
 * each test; `use` receives it once started (the file keeps it in its own `fx`).
 */
export function demoSandboxPerTest(use: (fx: SandboxFixture) => void): void {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await startFixture();
    use(fx);
  });
  afterAll(async () => fx.close());
  beforeEach(async () => {
    await fx.reset('demo');
    await control(fx, 'PUT', 'faults', {});
    await fx.clearRequests();
  });
}

/** Runs crmctl with its stdout closed after the first chunk (as `| head -c1` does): exit code and stderr. */
export function runWithStdoutClosedEarly(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Inserts N synthetic leads through the bulk control endpoint. */
export async function bulkLeads(fx: SandboxFixture, count: number): Promise<void> {
  const r = await control(fx, 'POST', 'bulk', { collection: 'leads', count });
  if (r.status !== 200) throw new Error(`bulk insert failed: ${JSON.stringify(r.body)}`);
}

export const ndjson = (text: string): any[] => text.split('\n').filter(Boolean).map((l) => JSON.parse(l));

/**
 * Runs the bundle and kills it with SIGKILL once `progressed()` (read every few ms: a journal or
 * checkpoint on disk) says the run is under way; fails if the run ends on its own first.
 */
export function killMidRun(args: string[], env: Record<string, string | undefined>, progressed: () => boolean, stdin?: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: [stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'] });
    if (stdin !== undefined) child.stdin?.end(stdin);
    const timer = setInterval(() => {
      if (progressed()) {
        clearInterval(timer);
        child.kill('SIGKILL');
      }
    }, 3);
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`crmctl ${args.slice(0, 2).join(' ')} finished before the kill (code ${code})`));
    });
  });
}

/**
 * Waits until the sandbox's request log stops growing for `quietMs`: requests a killed client left in
 * flight (slowed by injected latency) are answered, and logged, after the kill.
 */
export async function inFlightSettled(fx: SandboxFixture, quietMs = 150): Promise<void> {
  let seen = -1;
  for (;;) {
    const n = (await fx.requests()).length;
    if (n === seen) return;
    seen = n;
    await new Promise((r) => setTimeout(r, quietMs));
  }
}

/**
 * Runs the bundle and kills it with SIGKILL from inside `arm`'s callback. A test arms it on the
 * in-process sandbox's events (`fx.sandbox.state.events`): the kill then lands after a write committed
 * and before its answer left, so the write landed and the client never learnt it, on any machine speed.
 */
export function killWhen(args: string[], env: Record<string, string | undefined>, arm: (kill: () => void) => () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'ignore', 'ignore'] });
    const disarm = arm(() => child.kill('SIGKILL'));
    child.on('exit', (code, signal) => {
      disarm();
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`crmctl ${args.slice(0, 2).join(' ')} finished before the kill (code ${code})`));
    });
  });
}

/** How many times `marker` stands in a file now (0 while it does not exist). */
export function countIn(file: string, marker: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split(marker).length - 1 : 0;
}

/**
 * The first line of a run's journal as crmctl writes it for this sandbox's admin (src/runs/run.ts), for
 * tests that lay out a journal a killed run would have left.
 */
export async function journalHeader(fx: SandboxFixture, kind: string, input: { fingerprint: string; describe: string }, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const me = (await (await fetch(`${fx.sandbox.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}` } })).json()) as { data: { id: number; company_id: number } };
  return {
    type: 'run', v: 2, run_id: extra.run_id ?? 'abc123abc123', kind, command: [], input, started_at: new Date().toISOString(),
    account: { origin: new URL(fx.sandbox.url).origin, company_id: me.data.company_id, user_id: me.data.id }, ...extra,
  };
}

/** The entries of a run's journal (ndjson; a torn last line is left out, as crmctl reads it). */
export function journalEntries(path: string): any[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').flatMap((l) => {
    try {
      return l.trim() ? [JSON.parse(l)] : [];
    } catch {
      return [];
    }
  });
}

/** The last page an export's journal (`<out>.checkpoint.json`) records: records, bytes and where the next page starts. */
export function lastPage(checkpoint: string): { records: number; bytes: number; next: string | number | null; phase: number } | undefined {
  return journalEntries(checkpoint).filter((e) => typeof e.key === 'string' && e.key.startsWith('page:')).pop();
}

/**
 * Runs the bundle and sends it `signal` once `progressed()` says the run is under way; resolves with how
 * it ended (a process that handles the signal exits with a code; one that does not dies by it).
 */
export function signalMidRun(args: string[], env: Record<string, string | undefined>, progressed: () => boolean, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setInterval(() => {
      if (progressed()) {
        clearInterval(timer);
        child.kill(signal);
      }
    }, 3);
    child.on('close', (code, sig) => {
      clearInterval(timer);
      resolve({ code, signal: sig, stderr });
    });
  });
}
