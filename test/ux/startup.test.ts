import { beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../../src/commands/areas.js';
import { DIST_MAIN, ensureBuilt } from './built.js';
import { loadedBy as loadedByBuild } from './loaded-modules.js';

/**
 * `crmctl --help` and `crmctl AREA --help` must stay cheap: no HTTP client, auth, or sandbox code.
 * Each command line runs in a child node that reports every module it resolves (./loaded-modules.ts),
 * here against tsc's per-file output, so each source module shows as its own URL.
 */
const loadedBy = (args: string[], extraEnv: Record<string, string> = {}) => loadedByBuild(DIST_MAIN, args, extraEnv);

/** What help must never load: the HTTP stack, OAuth/credentials, the emulator. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['undici', /\/node_modules\/undici\//],
  ['src/auth', /\/dist\/auth\//],
  ['src/http', /\/dist\/http\//],
  ['src/sandbox', /\/dist\/sandbox\//],
];
const forbiddenIn = (urls: string[]) => FORBIDDEN.filter(([, re]) => urls.some((u) => re.test(u))).map(([name]) => name);

async function inBatches<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}

describe('start-up: help loads no HTTP, auth or sandbox code', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('the hook sees what a real command loads (control: auth status loads src/auth, a list loads the HTTP client)', async () => {
    const r = await loadedBy(['auth', 'status', '--json']);
    expect(r.urls.some((u) => u.endsWith('/dist/main.js'))).toBe(true);
    expect(forbiddenIn(r.urls)).toContain('src/auth');
    // Nothing listens on port 9 of loopback: the call fails, but only after the HTTP client was loaded.
    const list = await loadedBy(['lead-labels', 'list'], { CRMCTL_ACCESS_TOKEN: 't', CRMCTL_API_DOMAIN: 'http://127.0.0.1:9', CRMCTL_MAX_RETRIES: '0' });
    expect(list.code).toBe(1);
    expect(forbiddenIn(list.urls)).toEqual(expect.arrayContaining(['src/auth', 'src/http']));
  });

  it('an API command loads the table of its own area only (token handling does not load the users table)', async () => {
    const r = await loadedBy(['deals', 'list', '--json'], { CRMCTL_ACCESS_TOKEN: 't', CRMCTL_API_DOMAIN: 'http://127.0.0.1:9', CRMCTL_MAX_RETRIES: '0' });
    expect(r.code).toBe(1);
    expect(r.urls.filter((u) => /\/dist\/api\/operations\/[^/]+\.js$/.test(u) && !/\/(deals|rows|record-fields|follower-rows|item-history-rows)\.js$/.test(u))).toEqual([]);
    expect(r.urls.some((u) => u.endsWith('/dist/api/operations/deals.js'))).toBe(true);
  });

  it('crmctl --help', async () => {
    const r = await loadedBy(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: crmctl');
    expect(forbiddenIn(r.urls)).toEqual([]);
    // Root help imports no area module either: only names and summaries.
    expect(r.urls.filter((u) => /\/dist\/commands\/[^/]+\/index\.js$/.test(u))).toEqual([]);
  });

  it('crmctl AREA --help, for every area', async () => {
    const results = await inBatches(AREAS, 4, async (a) => ({ area: a.name, r: await loadedBy([a.name, '--help']) }));
    const problems = results.flatMap(({ area, r }) => {
      const bad = forbiddenIn(r.urls);
      const issues: string[] = [];
      if (r.code !== 0) issues.push(`${area}: exit ${r.code}`);
      if (!r.out.includes(`Usage: crmctl ${area}`)) issues.push(`${area}: no usage line`);
      if (bad.length) issues.push(`${area} --help loaded ${bad.join(', ')}: ${r.urls.filter((u) => FORBIDDEN.some(([, re]) => re.test(u))).slice(0, 3).join(' ')}`);
      return issues;
    });
    expect(results.length).toBe(AREAS.length);
    expect(problems).toEqual([]);
  }, 180_000);

  it('MCP code loads only for crmctl mcp: not for a list, nor for mcp --help; --list-tools loads the tools, not the SDK', async () => {
    const mcpCode = (urls: string[]) => urls.filter((u) => /\/dist\/mcp\/|@modelcontextprotocol/.test(u));
    const list = await loadedBy(['deals', 'list'], { CRMCTL_ACCESS_TOKEN: 't', CRMCTL_API_DOMAIN: 'http://127.0.0.1:9', CRMCTL_MAX_RETRIES: '0' });
    expect(list.code).toBe(1);
    expect(mcpCode(list.urls)).toEqual([]);
    const help = await loadedBy(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(mcpCode(help.urls)).toEqual([]);
    const tools = await loadedBy(['mcp', '--list-tools', '--areas', 'deals']);
    expect(tools.code).toBe(0);
    expect(mcpCode(tools.urls).some((u) => u.endsWith('/dist/mcp/tools.js'))).toBe(true);
    expect(tools.urls.filter((u) => /@modelcontextprotocol/.test(u))).toEqual([]);
  });

  it('the --query library (jmespath) loads only when the flag is given; a bad expression is refused before the HTTP client loads', async () => {
    const env = { CRMCTL_ACCESS_TOKEN: 't', CRMCTL_API_DOMAIN: 'http://127.0.0.1:9', CRMCTL_MAX_RETRIES: '0' };
    const jmespath = (urls: string[]) => urls.filter((u) => /\/node_modules\/jmespath\/|\/dist\/output\/query\.js$/.test(u));
    const plain = await loadedBy(['deals', 'list', '--json'], env);
    expect(plain.code).toBe(1);
    expect(jmespath(plain.urls)).toEqual([]);
    const queried = await loadedBy(['deals', 'list', '--query', '[].id'], env);
    expect(queried.code).toBe(1);
    expect(jmespath(queried.urls).some((u) => /\/node_modules\/jmespath\//.test(u))).toBe(true);
    const bad = await loadedBy(['deals', 'list', '--query', '[?'], env);
    expect(bad.code).toBe(2);
    expect(forbiddenIn(bad.urls)).not.toContain('src/http');
  });

  it('api --help does not load every operation table (completion names the path list, it does not build it)', async () => {
    const r = await loadedBy(['api', '--help']);
    expect(r.code).toBe(0);
    expect(r.urls.filter((u) => /\/dist\/api\/operations\/index\.js$/.test(u))).toEqual([]);
  });

  it('a create command\'s --help (prompts machinery stays unloaded too)', async () => {
    const r = await loadedBy(['leads', 'create', '--help']);
    expect(r.code).toBe(0);
    expect(forbiddenIn(r.urls)).toEqual([]);
    expect(r.urls.filter((u) => /\/dist\/prompts\/|@inquirer/.test(u))).toEqual([]);
  });
});
