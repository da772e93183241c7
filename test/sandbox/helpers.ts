// Test helpers: start a sandbox on a free port and talk to it over real HTTP.
import { afterEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

const running: RunningSandbox[] = [];
afterEach(async () => { await Promise.all(running.splice(0).map((s) => s.close())); });

export interface Res { status: number; body: any; headers: Headers }

export async function boot(opts: SandboxOptions = {}) {
  const sb = await startSandbox({ conversionDelayMs: 40, ...opts });
  running.push(sb);
  const admin = sb.issueToken({ userId: 1 }).access_token;
  const call = async (method: string, path: string, o: { body?: unknown; token?: string | null; headers?: Record<string, string>; form?: boolean } = {}): Promise<Res> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const token = o.token === undefined ? admin : o.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      if (o.form) { headers['content-type'] = 'application/x-www-form-urlencoded'; body = new URLSearchParams(o.body as Record<string, string>).toString(); }
      else { headers['content-type'] = 'application/json'; body = JSON.stringify(o.body); }
    }
    const r = await fetch(sb.url + path, { method, headers, body, redirect: 'manual' });
    const text = await r.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* html or empty */ }
    return { status: r.status, body: parsed, headers: r.headers };
  };
  const control = (method: string, path: string, body?: unknown) => call(method, `/__sandbox/${path}`, { body, token: null });
  return { sb, admin, call, control };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Moves the sandbox's clock forward (POST /__sandbox/clock) instead of waiting for real. */
export async function advanceClock(url: string, seconds: number): Promise<void> {
  const res = await fetch(`${url}/__sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_sec: seconds }) });
  if (res.status !== 200) throw new Error(`clock: ${res.status} ${await res.text()}`);
}

/** Poll until fn returns a truthy value (or time out). */
export async function until<T>(fn: () => Promise<T | undefined | false>, ms = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(10);
  }
}
