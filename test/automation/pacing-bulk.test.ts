import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, ndjson, workDir } from './helpers.js';

let fx: SandboxFixture;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

describe('import pacing', () => {
  // How busy the pacer keeps the budget is a speed figure: `npm run bench` measures it (cost per window / budget).
  it('stays within a small budget: not a single 429 from the service, every row created once', async () => {
    await fx.reset('demo');
    const limit = 300;
    const windowSec = 1;
    await control(fx, 'PUT', 'config', { budget: { limit, windowSec } });
    const n = 120; // 1200 cost units = 4 full windows
    const f = join(workDir(), 'leads.ndjson');
    writeFileSync(f, Array.from({ length: n }, (_, i) => JSON.stringify({ title: `Paced ${i + 1}`, organization_id: 1 })).join('\n'));
    await fx.clearRequests();
    const r = await runCli(['import', 'leads', '--file', f, '--concurrency', '8'], { env: fx.env });
    await control(fx, 'PUT', 'config', { budget: { limit: 100000, windowSec: 2 } });
    expect(r.code, r.stderr).toBe(0);
    const reqs = await fx.requests();
    expect(reqs.filter((q) => q.status === 429)).toEqual([]);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results).toHaveLength(n);
    expect(results.every((x) => x.id)).toBe(true);
    const created = reqs.filter((q) => q.method === 'POST' && q.status === 201);
    expect(created).toHaveLength(n);
    expect(new Set(created.map((q) => (q.body as { title: string }).title)).size).toBe(n);
  });
});

describe('sandbox bulk control endpoint', () => {
  it('inserts N leads shaped like API-created ones, oldest first after the existing ones', async () => {
    await fx.reset('demo');
    const before = await fx.collection<{ id: string }>('leads');
    const r = await control(fx, 'POST', 'bulk', { collection: 'leads', count: 25 });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ inserted: 25, total: before.length + 25 });
    const after = await fx.collection<{ id: string; title: string; source_name: string; person_id: number | null; organization_id: number | null }>('leads');
    const added = after.slice(before.length);
    expect(added.length).toBe(25);
    expect(added.every((l) => l.source_name === 'API' && (l.person_id !== null || l.organization_id !== null))).toBe(true);
    const listed = await runCli(['leads', 'list', '--all', '--output', 'ndjson'], { env: fx.env });
    const ids = ndjson(listed.stdout).map((l) => l.id);
    expect(ids.slice(-25)).toEqual(added.map((l) => l.id));
  });

  it.each([
    [{ collection: 'persons', count: 5 }, 'collection: only leads and deals can be bulk-inserted'],
    [{ collection: 'leads', count: 0 }, 'count: must be an integer from 1 to 1000000'],
    [{ collection: 'leads', count: 2.5 }, 'count: must be an integer from 1 to 1000000'],
    [{ collection: 'leads' }, 'count: must be an integer from 1 to 1000000'],
  ])('refuses %j with a 400 naming the field', async (body, error) => {
    const r = await control(fx, 'POST', 'bulk', body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error });
  });
});
