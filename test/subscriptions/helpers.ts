// Shared by the subscription and installment tests: one sandbox per file, the CLI against it,
// and direct calls for what the CLI refuses to send.
import { expect } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';

export function cli(fx: () => SandboxFixture) {
  const run = (args: string[], opts: { tty?: boolean; stdin?: string; env?: Record<string, string> } = {}) =>
    runCli(args, { ...opts, env: { ...fx().env, ...(opts.env ?? {}) } });
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  /** A request straight to the sandbox (as a client that skips the CLI's checks would send it). */
  const api = async (method: string, path: string, body?: unknown, token = fx().env.CRMCTL_ACCESS_TOKEN) => {
    const res = await fetch(`${fx().sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** Records of a collection marked deleted (kept by the sandbox, invisible to the API). */
  const deleted = async (name: string) => {
    const res = await fetch(`${fx().sandbox.url}/__sandbox/state/${name}`);
    return ((await res.json()) as { deleted: any[] }).deleted;
  };
  return { run, json, api, deleted };
}

/** The state dump leaves the id where the store put it; compare records by content. */
export const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);
