import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, inFlightSettled, journalEntries, killMidRun, lastPage, ndjson, workDir } from './helpers.js';

let fx: SandboxFixture;
let env: Record<string, string>;
const run = (args: string[]) => runCli(args, { env });
type Deal = { id: number; title: string; update_time: string };
const idsAndTimes = (file: string) => (ndjson(readFileSync(file, 'utf8')) as Deal[]).map((d) => [d.id, d.update_time]);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
  env = { ...fx.env, CRMCTL_CONFIG_DIR: tempConfigDir() };
});

async function fullExport(): Promise<Array<Array<unknown>>> {
  const full = join(workDir(), 'full.ndjson');
  expect((await run(['export', 'deals', '--out', full])).code).toBe(0);
  return idsAndTimes(full);
}

describe('export --incremental', () => {
  it('keeps a local copy equal to a full export, reading only what changed on later runs', async () => {
    const out = join(workDir(), 'deals.ndjson');
    const first = await run(['export', 'deals', '--incremental', '--out', out]);
    expect(first).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(idsAndTimes(out)).toEqual(await fullExport());
    const state = JSON.parse(readFileSync(`${out}.state.json`, 'utf8'));
    expect(state).toMatchObject({ version: 1, resource: 'deals', records: idsAndTimes(out).length });

    // One of each: updated, added, deleted.
    const [a, b] = ndjson(readFileSync(out, 'utf8')) as Deal[];
    expect((await run(['deals', 'update', String(a!.id), '--title', 'Changed since the copy'])).code).toBe(0);
    const made = await run(['deals', 'create', '--title', 'New since the copy', '--json']);
    const added = JSON.parse(made.stdout).id as number;
    expect((await run(['deals', 'delete', String(b!.id), '--yes'])).code).toBe(0);

    await fx.clearRequests();
    const second = await run(['export', 'deals', '--incremental', '--out', out]);
    expect(second).toEqual({ code: 0, stdout: '', stderr: '' });
    const reqs = await fx.requests();
    expect(reqs.map((q) => [q.method, q.path, q.query.since_timestamp, q.query.items, q.query.ids])).toEqual([
      ['GET', '/api/v1/recents', state.time, 'deal', undefined],
      ['GET', '/api/v2/deals', undefined, undefined, `${a!.id},${added}`],
    ]);
    const copy = idsAndTimes(out);
    expect(copy).toEqual(await fullExport());
    expect(copy.map(([id]) => id)).toContain(added);
    expect(copy.map(([id]) => id)).not.toContain(b!.id);
    expect((ndjson(readFileSync(out, 'utf8')) as Deal[]).find((d) => d.id === a!.id)!.title).toBe('Changed since the copy');
    expect(JSON.parse(readFileSync(`${out}.state.json`, 'utf8')).records).toBe(copy.length);

    // Nothing changed: one recents read, the file as it was.
    const before = readFileSync(out, 'utf8');
    await fx.clearRequests();
    expect(await run(['export', 'deals', '--incremental', '--out', out])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v1/recents']);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('export --since writes only the records updated since then, through the list\'s updated_since', async () => {
    const { body } = await fetch(`${fx.sandbox.url}/__sandbox/clock`).then(async (r) => ({ body: await r.json() }));
    const now = (body.data?.now ?? body.now) as string;
    const deal = (await fx.collection<Deal>('deals'))[0]!;
    expect((await run(['deals', 'update', String(deal.id), '--title', 'Recently changed'])).code).toBe(0);
    await fx.clearRequests();
    const r = await run(['export', 'deals', '--since', now]);
    expect(r.code).toBe(0);
    expect((ndjson(r.stdout) as Deal[]).map((d) => [d.id, d.title])).toEqual([[deal.id, 'Recently changed']]);
    const reqs = await fx.requests();
    // The other reads are the linked lists whose names travel beside the ids (once each, no window).
    expect(reqs.filter((q) => q.path === '/api/v2/deals').map((q) => [q.path, q.query.updated_since])).toEqual([['/api/v2/deals', now.replace(/\.\d+Z$/, 'Z')]]);
  });

  it('export --since 2h --resume continues the same window after a kill -9 (the span does not move)', async () => {
    await control(fx, 'POST', 'bulk', { collection: 'deals', count: 1500 });
    await control(fx, 'PUT', 'faults', { latencyMs: 40, seed: 1 });
    const out = join(workDir(), 'recent.ndjson');
    const args = ['export', 'deals', '--since', '2h', '--out', out, '--page-size', '100'];
    const checkpoint = `${out}.checkpoint.json`;
    await killMidRun(args, env, () => (lastPage(checkpoint)?.records ?? 0) >= 300);
    await control(fx, 'PUT', 'faults', {});
    const cp = { records: lastPage(checkpoint)!.records, query: journalEntries(checkpoint)[0].query };
    // Let the clock pass a whole second, so that "2h" read again would name another time.
    const second = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) === second) await new Promise((r) => setTimeout(r, 50));
    // The killed export's page in flight lands after the kill: only what the resume reads counts.
    await inFlightSettled(fx);
    await fx.clearRequests();
    const r = await run([...args, '--resume']);
    expect(r.code).toBe(0);
    expect((await fx.requests()).filter((q) => q.path === '/api/v2/deals').map((q) => q.query.updated_since)).toEqual(Array(15 - cp.records / 100).fill(cp.query.updated_since));
    const ids = (ndjson(readFileSync(out, 'utf8')) as Deal[]).map((d) => d.id);
    const bulk = (await fx.collection<Deal>('deals')).filter((d) => d.title.startsWith('Bulk deal')).map((d) => d.id);
    expect(ids).toEqual(bulk);
  });

  it('refuses what it cannot keep in step with exit 2, naming the flag, and sends nothing', async () => {
    const out = join(workDir(), 'x.ndjson');
    const cases: Array<[string[], string]> = [
      [['export', 'deals', '--incremental'], '--incremental needs --out FILE'],
      [['export', 'deals', '--incremental', '--out', join(workDir(), 'x.csv')], '--incremental: keeps an ndjson file (got --format csv)'],
      [['export', 'deals', '--incremental', '--out', out, '--param', 'status=open'], '--incremental cannot be combined with --param'],
      [['export', 'leads', '--incremental', '--out', out], '--incremental: leads cannot be kept in step'],
      [['export', 'deal-fields', '--since', '1h'], '--since: the deal-fields list has no updated_since filter'],
      [['export', 'deals', '--since', 'last week'], '--since: must be an RFC 3339 time with a zone'],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await fx.requests()).toEqual([]);
    expect(existsSync(`${out}.state.json`)).toBe(false);
  });
});
