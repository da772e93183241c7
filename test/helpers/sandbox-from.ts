import { spawn, type ChildProcess } from 'node:child_process';
import { BIN, cleanEnv, tempConfigDir } from './cli.js';

/** A `crmctl sandbox start` process running in the background, with the JSON line it printed. */
export interface StartedSandbox {
  child: ChildProcess;
  info: { url: string; loaded?: { records: Record<string, number>; sample: Record<string, number> } };
  stderr: () => string;
  closed: Promise<number>;
}

const running: ChildProcess[] = [];

/** `crmctl sandbox start --port 0 --no-profile ...` in the background; resolves with its JSON line. */
export async function startSandboxFrom(args: string[]): Promise<StartedSandbox> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--no-profile', ...args], { env: cleanEnv({ CRMCTL_CONFIG_DIR: tempConfigDir() }), stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.on('close', (code) => reject(new Error(`exited ${code} before a line: ${err}`)));
  });
  return { child, info: JSON.parse(line) as StartedSandbox['info'], stderr: () => err, closed };
}

/** Stops every sandbox startSandboxFrom started that still runs (for afterAll). */
export function stopStartedSandboxes(): void {
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
}

/** A collection as a running sandbox holds it. */
export async function sandboxState<T = Record<string, unknown>>(url: string, name: string): Promise<T[]> {
  const r = (await (await fetch(`${url}/__sandbox/state/${name}`)).json()) as { data: T[] } | T[];
  return Array.isArray(r) ? r : r.data;
}
