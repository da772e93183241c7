import { expect } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';

/**
 * stderr of a successful read: empty, or the one notice of a v1 endpoint out of support (exact lines:
 * test/persons/deprecated-v1.test.ts).
 */
export const QUIET_OR_V1_NOTICE = /^(notice: GET \/v1\/\S+ is a v1 endpoint out of support since 2026-08-01; use crmctl [^\n]+ \(v2\)\n)?$/;

/** CLI runner and direct-HTTP helpers bound to one sandbox fixture. */
export function tools(get: () => SandboxFixture) {
  const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...get().env, ...env } });
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    expect(r.stderr).toMatch(QUIET_OR_V1_NOTICE);
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  const tsv = async (args: string[]) => {
    const r = await run([...args, '--output', 'tsv']);
    expect(r.stderr).toMatch(QUIET_OR_V1_NOTICE);
    expect(r.code).toBe(0);
    return r.stdout;
  };
  /** GET straight to the sandbox (what a client that skips the CLI's checks would send). */
  const api = async (path: string, token = get().env.CRMCTL_ACCESS_TOKEN!) => {
    const res = await fetch(`${get().sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  /** Runs a command that must be refused before anything is sent. */
  const refused = async (args: string[], message: string | RegExp) => {
    await get().clearRequests();
    const r = await run(args);
    expect(r.code).toBe(2);
    if (typeof message === 'string') expect(r.stderr).toContain(message);
    else expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(await get().requests()).toEqual([]);
  };
  const lastRequest = async (path: string) => (await get().requests()).filter((q) => q.path === path).at(-1)!;
  return { run, json, tsv, api, refused, lastRequest };
}

/** The company switches the persons area reads (contact sync, marketing app). */
export function setCompany(fx: SandboxFixture, patch: { contact_sync_enabled?: boolean; marketing_app_enabled?: boolean }) {
  Object.assign(fx.sandbox.state.company as unknown as Record<string, unknown>, patch);
}
