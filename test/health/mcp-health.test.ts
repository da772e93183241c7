// The account-health MCP tools, driven by the SDK's client over stdio against the bundle: listed with
// the default tools in every policy (read-only hints), they answer what the commands answer, refuse
// bad arguments before anything is sent, and only read.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
const open: Client[] = [];
beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture({ seed: 'demo' });
}, 180_000);
afterAll(async () => fx.close());
beforeEach(async () => fx.clearRequests());
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(flags: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...flags], env: cleanEnv(fx.env) as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'crmctl-health-test', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
  return { isError: r.isError === true, text: r.content.map((c) => c.text).join('\n') };
}

describe('account health over MCP', () => {
  it('three read tools in the default list, read-only or not', { timeout: 90_000 }, async () => {
    for (const flags of [[], ['--allow-writes', '--allow-destructive']]) {
      const { tools } = await (await connect(flags)).listTools();
      const health = tools.filter((t) => ['account_audit', 'pipeline_analytics', 'dedupe_plan'].includes(t.name));
      expect(health.map((t) => t.name)).toEqual(['account_audit', 'pipeline_analytics', 'dedupe_plan']);
      for (const t of health) expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tools.length).toBeLessThanOrEqual(40);
    }
  });

  it('account_audit: the findings the command finds, filtered by severity and limited', async () => {
    const client = await connect();
    const r = await call(client, 'account_audit', { as_of: '2025-02-01', region: 'EE', min_severity: 'error', limit: 2 });
    expect(r.isError, r.text).toBe(false);
    const out = JSON.parse(r.text);
    expect(out.as_of).toBe('2025-02-01');
    expect(out.summary).toBe('25 findings (4 error, 13 warning, 8 info)');
    expect(out.findings.map((f: { check: string; ids: number[] }) => `${f.check} ${f.ids.join(',')}`)).toEqual(['missing-currency 7', 'missing-currency 14']);
    expect(out.more).toBe(2);
    expect((await fx.requests()).every((q) => q.method === 'GET')).toBe(true);
  });

  it('pipeline_analytics: a metric of a pipeline by name', async () => {
    const r = await call(await connect(), 'pipeline_analytics', { metric: 'forecast', pipeline: 'Sales', as_of: '2025-02-01' });
    expect(r.isError, r.text).toBe(false);
    const out = JSON.parse(r.text);
    expect(out).toMatchObject({ metric: 'forecast', pipeline: { id: 1, name: 'Sales' }, from: '2024-11-04', to: '2025-02-01', converted_to: null });
    expect(out.rows[0]).toEqual({ month: '2025-01', currency: 'EUR', deals: 1, value: 2500, weighted: 2500 });
  });

  it('dedupe_plan: the groups and the merges that would run; nothing is merged', async () => {
    const r = await call(await connect(['--allow-writes', '--allow-destructive']), 'dedupe_plan', { kind: 'organizations' });
    expect(r.isError, r.text).toBe(false);
    const plan = JSON.parse(r.text);
    expect(plan.dry_run).toBe(true);
    // An assistant is told too: a merge cannot be taken back.
    expect(plan.undo).toMatch(/^an undo re-creates each merged record /);
    expect(plan.groups.map((g: { ids: number[]; keep: number }) => [g.ids, g.keep])).toEqual([[[1, 7], 1], [[4, 8], 4]]);
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/organizations']);
  });

  it('bad arguments are refused before anything is sent, naming the argument', async () => {
    const client = await connect();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['account_audit', { checks: ['stale'] }, 'checks: must be a list of duplicate-persons'],
      ['account_audit', { as_of: '2025-13-01' }, 'as_of: must be a date YYYY-MM-DD (got "2025-13-01")'],
      ['account_audit', { limt: 3 }, 'arguments: unknown key "limt" (did you mean "limit"?)'],
      ['pipeline_analytics', {}, 'metric: is required'],
      ['pipeline_analytics', { metric: 'churn' }, 'metric: must be one of funnel, forecast, velocity, aging, slippage, coverage, scorecard'],
      ['dedupe_plan', { kind: 'deals' }, 'kind: must be one of persons, organizations'],
    ];
    for (const [tool, args, message] of cases) {
      const r = await call(client, tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text).toContain('Invalid arguments, nothing was sent:');
      expect(r.text).toContain(message);
    }
    expect(await fx.requests()).toEqual([]);
  });
});
