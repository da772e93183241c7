// Shared by the fields tests: run the CLI against the file's fixture, and call the sandbox directly
// (to check that the service side enforces a rule the CLI refuses to send).
import { expect } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';

export function clientFor(fx: () => SandboxFixture) {
  const run = (args: string[], opts: { env?: Record<string, string>; tty?: boolean } = {}) =>
    runCli(args, { ...opts, env: { ...fx().env, ...(opts.env ?? {}) } });
  const json = async (args: string[]) => {
    const r = await run([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  /** Sends a request straight to the sandbox as the admin (or with `token`). */
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
  return { run, json, api, refused };
}

/** The service's 400 body for a rule: success false, "<field>: <rule>", data null. */
export function expect400(res: { status: number; body: any }, error: string | RegExp): void {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, data: null });
  if (typeof error === 'string') expect(res.body.error).toBe(error);
  else expect(res.body.error).toMatch(error);
}
