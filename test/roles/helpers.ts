// Shared by the roles / permission sets / teams tests: CLI runs against one fixture and raw calls
// that bypass the CLI to check the sandbox's own enforcement.
import { expect } from 'vitest';
import { runCli, type RunResult } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';

export function cliFor(fx: () => SandboxFixture) {
  const run = (args: string[], opts: { env?: Record<string, string>; tty?: boolean } = {}): Promise<RunResult> =>
    runCli(args, { tty: opts.tty, env: { ...fx().env, ...(opts.env ?? {}) } });
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  const tsv = async (args: string[]) => {
    const r = await run([...args, '--output', 'tsv']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };
  /** Exit 2 naming the flag and rule, and nothing at all reached the service. */
  const refused = async (args: string[], message: string | RegExp) => {
    await fx().clearRequests();
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    if (typeof message === 'string') expect(r.stderr).toContain(message);
    else expect(r.stderr).toMatch(message);
    expect(await fx().requests()).toEqual([]);
  };
  /** A token for another user or with other scopes, as CLI env. */
  const envAs = (o: { userId?: number; scopes?: string[] }) => ({ CRMCTL_ACCESS_TOKEN: fx().sandbox.issueToken(o).access_token });
  return { run, json, tsv, refused, envAs };
}

/** A request straight to the sandbox (the CLI would refuse to send it). */
export async function api(fx: SandboxFixture, method: string, path: string, body?: unknown, token = fx.env.CRMCTL_ACCESS_TOKEN!) {
  const res = await fetch(`${fx.sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The service's validation failure: 400 with "<field>: <rule>". */
export function expect400(res: { status: number; body: Record<string, unknown> }, error: string | RegExp): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, data: null });
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(String(res.body.error)).toMatch(error);
}
