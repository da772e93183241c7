// The audit of 50,000 deals reads every page of the deal list once, in order, and nothing twice: the
// request log of the sandbox holds every request that reached it. (How fast, against `crmctl export
// deals` of the same account: `npm run bench`, scripts/bench-health.mjs.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control } from '../automation/helpers.js';

const BULK = 50_000;
let fx: SandboxFixture;

beforeAll(async () => {
  fx = await startFixture({ seed: 'demo', budget: { limit: 100_000_000, windowSec: 2 } });
  const r = await control(fx, 'POST', 'bulk', { collection: 'deals', count: BULK });
  expect(r.status).toBe(200);
  await fx.clearRequests();
}, 120_000);
afterAll(async () => fx.close());

describe('audit of 50,000 deals', () => {
  it('reads each page of deals once (cursor after cursor), each other list once', async () => {
    const r = await runCli(['audit', '--checks', 'no-next-activity,stale-deals,close-date-past,missing-currency', '--output', 'ndjson'], { env: fx.env });
    expect(r.code, r.stderr.slice(-500)).toBe(0);
    const reqs = (await fx.requests()).filter((q) => q.path.startsWith('/api/'));
    const deals = reqs.filter((q) => q.path === '/api/v2/deals');
    // The plain list leaves the demo's archived deal out (issue 29.14): the audit reads the live ones.
    const total = (await fx.collection<{ is_archived: boolean }>('deals')).filter((d) => !d.is_archived).length;
    expect(total).toBe(BULK + 17);
    expect(deals).toHaveLength(Math.ceil(total / 500));
    expect(deals.every((q) => q.query.limit === '500' && q.status === 200)).toBe(true);
    const cursors = deals.map((q) => q.query.cursor ?? '(first)');
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(cursors[0]).toBe('(first)');
    expect(reqs.filter((q) => q.path !== '/api/v2/deals').map((q) => q.path).sort()).toEqual(['/api/v2/activities', '/api/v2/persons', '/api/v2/organizations', '/api/v2/stages'].sort());
    // Every bulk deal that is open has no activity: each is one finding, in the output once.
    const findings = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { check: string; ids: number[] });
    const openBulk = (await fx.collection<{ status: string; title: string }>('deals')).filter((d) => d.status === 'open' && d.title.startsWith('Bulk deal')).length;
    expect(findings.filter((f) => f.check === 'no-next-activity' && f.ids[0]! > 19)).toHaveLength(openBulk);
  }, 600_000);
});
