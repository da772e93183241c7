// "--limit over the maximum": --limit is how many records to show, so a value above the service's
// page maximum is not an error; it must be fetched in pages that never exceed the maximum (the
// service answers 400 above it, checked here directly against the sandbox).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { bulkLeads } from '../automation/helpers.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
  await bulkLeads(fx, 700);
});
afterAll(async () => fx.close());

const sentLimits = async (path: string) => (await fx.requests()).filter((r) => r.path === path).map((r) => Number(r.query.limit));

describe('--limit above the page maximum is paged, never sent above it', () => {
  it.each([
    ['leads list --limit 600 (max 500 per page)', ['leads', 'list', '--limit', '600', '--json'], '/api/v1/leads', 500, 600],
    ['leads search --limit 150 (max 100 per page)', ['leads', 'search', '--term', 'Bulk', '--limit', '150', '--json'], '/api/v2/leads/search', 100, 150],
  ])('%s', async (_name, argv, path, max, want) => {
    await fx.clearRequests();
    const r = await runCli(argv as string[], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(want as number);
    const limits = await sentLimits(path as string);
    expect(limits.length).toBeGreaterThan(1);
    for (const l of limits) expect(l).toBeLessThanOrEqual(max as number);
  });
});

describe('the sandbox refuses a page above the maximum (service-shaped 400)', () => {
  it.each([
    ['/api/v1/leads?limit=501', 'limit'],
    ['/api/v2/leads/search?term=Bulk&limit=101', 'limit'],
    ['/api/v2/persons?limit=501', 'limit'],
  ])('GET %s', async (path, field) => {
    const res = await fetch(`${fx.sandbox.url}${path}`, { headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}` } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { success: boolean; error: string };
    expect(body.success).toBe(false);
    expect(body.error.startsWith(`${field}: `)).toBe(true);
  });
});
