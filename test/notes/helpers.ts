// Helpers shared by the notes tests: one CLI runner bound to a fixture, the API requests
// that reached the sandbox (control and preflight reads included), and deleted records.
import { runCli, type RunOptions } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';

export function cliFor(fx: SandboxFixture) {
  return (args: string[], opts: RunOptions = {}) => runCli(args, { ...opts, env: { ...fx.env, ...(opts.env ?? {}) } });
}

/** METHOD path of every request that reached the service since the last clear. */
export async function sent(fx: SandboxFixture): Promise<string[]> {
  return (await fx.requests()).map((r) => `${r.method} ${r.path}`);
}

export async function lastRequest(fx: SandboxFixture) {
  const all = await fx.requests();
  return all[all.length - 1]!;
}

/** Records of a collection the sandbox has marked deleted. */
export async function deletedOf(fx: SandboxFixture, name: string): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${fx.sandbox.url}/__sandbox/state/${name}`);
  return ((await res.json()) as { deleted: Array<Record<string, unknown>> }).deleted;
}

/** A direct API call with the fixture's admin token (or another token). */
export async function api(fx: SandboxFixture, method: string, path: string, o: { json?: unknown; form?: Record<string, string>; token?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${o.token ?? fx.env.CRMCTL_ACCESS_TOKEN}` };
  let body: string | undefined;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(o.form).toString();
  }
  const res = await fetch(`${fx.sandbox.url}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}
