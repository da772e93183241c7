// Shared by the area tests: the CLI run against one sandbox fixture, and direct calls to the sandbox
// (to check that the service side enforces a rule the CLI refuses to send).
import { expect } from 'vitest';
import { runCli } from './cli.js';
import type { SandboxFixture } from './sandbox.js';

export function areaClient(fx: () => SandboxFixture) {
  const run = (args: string[], opts: { env?: Record<string, string>; tty?: boolean; stdin?: string } = {}) =>
    runCli(args, { ...opts, env: { ...fx().env, ...(opts.env ?? {}) } });
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  /** A request straight to the sandbox as the admin (or with `token`), as a client that skips the CLI's checks would send it. */
  const api = async (method: string, path: string, body?: unknown, token = fx().env.CRMCTL_ACCESS_TOKEN) => {
    const res = await fetch(`${fx().sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** Asserts a refusal before sending: exit 2, the message, nothing on stdout, and no request at all. */
  const refused = async (args: string[], message: string | RegExp) => {
    await fx().clearRequests();
    const r = await run(args);
    expect(r.stdout).toBe('');
    if (typeof message === 'string') expect(r.stderr).toContain(message);
    else expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(await fx().requests()).toEqual([]);
  };
  /** Records of a collection marked deleted (kept by the sandbox, invisible to the API). */
  const deleted = async (name: string) => {
    const res = await fetch(`${fx().sandbox.url}/__sandbox/state/${name}`);
    return ((await res.json()) as { deleted: any[] }).deleted;
  };
  return { run, json, api, refused, deleted };
}
