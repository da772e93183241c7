import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox, SandboxOptions } from '../../src/sandbox/types.js';
import { tempConfigDir } from './cli.js';

export interface SandboxFixture {
  sandbox: RunningSandbox;
  /** Env for runCli: a token of the admin user, the sandbox as API domain, a private config dir. */
  env: Record<string, string>;
  /** Requests that reached the sandbox's API since the last clear. */
  requests(): Promise<Array<{ method: string; path: string; query: Record<string, unknown>; body: unknown; status: number; cost: number }>>;
  clearRequests(): Promise<void>;
  /** A collection as the sandbox holds it (the state left behind). */
  collection<T = Record<string, unknown>>(name: string): Promise<T[]>;
  reset(seed?: 'demo' | 'empty'): Promise<void>;
  close(): Promise<void>;
}

export async function startFixture(opts: SandboxOptions = {}, token: { scopes?: string[]; userId?: number } = {}): Promise<SandboxFixture> {
  const sandbox = await startSandbox({ port: 0, conversionDelayMs: 50, ...opts });
  const t = sandbox.issueToken(token);
  const env = { CRMCTL_ACCESS_TOKEN: t.access_token, CRMCTL_API_DOMAIN: sandbox.url, CRMCTL_CONFIG_DIR: tempConfigDir() };
  const ctl = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}/__sandbox/${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };
  return {
    sandbox,
    env,
    async requests() {
      const r = await ctl('GET', 'requests');
      return Array.isArray(r) ? r : r.data;
    },
    async clearRequests() {
      await ctl('DELETE', 'requests');
    },
    async collection(name) {
      const r = await ctl('GET', `state/${name}`);
      return Array.isArray(r) ? r : r.data;
    },
    async reset(seed = 'demo') {
      await ctl('POST', 'reset', { seed });
    },
    close: () => sandbox.close(),
  };
}
