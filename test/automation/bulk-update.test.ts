import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { DEAL_FIELD_KEYS } from '../../src/sandbox/seed/index.js';
import { control, countIn, demoSandboxPerTest, journalEntries, killMidRun, ndjson, workDir } from './helpers.js';

let fx: SandboxFixture;
type Deal = { id: number; title: string; owner_id: number; status: string; is_archived: boolean; custom_fields: Record<string, unknown> };
type Logged = Awaited<ReturnType<SandboxFixture['requests']>>[number] & { fault?: string };

const bin = (args: string[], opts: { stdin?: string; cwd?: string } = {}) => spawnCli(args, { env: fx.env, timeoutMs: 120_000, ...opts });
const patches = async () => ((await fx.requests()) as Logged[]).filter((r) => r.method === 'PATCH');
/** The deals the plain lists serve: archived ones (the demo seed has one) are only in the archived list. */
const deals = async () => (await fx.collection<Deal>('deals')).filter((d) => !d.is_archived);

demoSandboxPerTest((f) => {
  fx = f;
});

describe('bulk-update: 500 deals under faults and a kill -9, resumed', () => {
  it('changes every deal exactly once; no PATCH of a deal twice unless the log shows it refused; the results file matches the account', async () => {
    expect((await control(fx, 'POST', 'bulk', { collection: 'deals', count: 500 })).status).toBe(200);
    const bulk = (await deals()).filter((d) => d.title.startsWith('Bulk deal '));
    expect(bulk.length).toBe(500);
    const ids = bulk.map((d) => d.id);
    const dir = workDir();
    const state = join(dir, 'bulk.state.ndjson');
    const results = join(dir, 'bulk.results.ndjson');
    const args = ['deals', 'bulk-update', '--ids', '-', '--field', 'owner_id=2', '--field', 'Deal notes=moved to Reggie', '--state', state, '--results', results, '--yes'];
    // Gateway errors before the handler (refused), resets before it and after it committed its write
    // (the answer lost after the write was applied, as with a timeout), and latency so the kill lands mid-run.
    await control(fx, 'PUT', 'faults', { rate5xx: 0.05, rateReset: 0.08, resetAfterCommitShare: 0.6, latencyMs: 3, seed: 7 });
    await killMidRun(args, fx.env, () => countIn(state, '"action":"updated"') >= 150, `${ids.join('\n')}\n`);
    const changedBefore = (await deals()).filter((d) => d.title.startsWith('Bulk deal ') && d.owner_id === 2).length;
    expect(changedBefore).toBeGreaterThan(100);
    expect(changedBefore).toBeLessThan(500);

    // The same command with --resume (ids on stdin again: the journal's selection is what counts).
    const r = await bin([...args, '--resume'], { stdin: `${ids.join('\n')}\n` });
    await control(fx, 'PUT', 'faults', {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`Updated 500 deals; 0 unchanged, 0 failed. Results: ${results}\n`);

    const after = (await deals()).filter((d) => d.title.startsWith('Bulk deal '));
    expect(after.every((d) => d.owner_id === 2 && d.custom_fields[DEAL_FIELD_KEYS.notes] === 'moved to Reggie')).toBe(true);

    const log = await patches();
    const faults = new Set(log.map((p) => p.fault).filter(Boolean));
    expect(faults).toContain('reset-after');
    expect(faults).toContain('5xx');
    // A PATCH that reached the handler: answered 2xx, or reset after the write committed.
    const applied = log.filter((p) => (p.status >= 200 && p.status < 300 && !p.fault) || p.fault === 'reset-after');
    const refused = log.filter((p) => !applied.includes(p));
    expect(refused.every((p) => p.fault === '5xx' || p.fault === 'reset-before' || p.status === 429)).toBe(true);
    const perDeal = new Map<string, number>();
    for (const p of applied) perDeal.set(p.path, (perDeal.get(p.path) ?? 0) + 1);
    expect(perDeal.size).toBe(500);
    expect([...perDeal.values()].every((n) => n === 1)).toBe(true);
    expect([...perDeal.keys()].sort()).toEqual(ids.map((id) => `/api/v2/deals/${id}`).sort());

    const rows = ndjson(readFileSync(results, 'utf8'));
    expect(rows).toEqual(ids.map((id) => ({ id, status: 'updated' })));
    // Every record settled: the run is finished, its journal kept (each record's values before the update are in it).
    const entries = journalEntries(state);
    expect(entries.pop()).toMatchObject({ type: 'end', summary: '500 updated, 0 unchanged, 0 failed' });
    const sending = entries.filter((e) => e.status === 'sending');
    expect(new Set(sending.map((e) => e.key)).size).toBe(500);
    expect(sending.every((e) => e.op === 'update' && e.sent.owner_id === 2 && e.prior.owner_id !== 2)).toBe(true);
  }, 240_000);
});

/**
 * A loopback proxy in front of the sandbox that answers `fault(n)` for the n-th PATCH: 'after' sends it on
 * and answers 502 once the write is applied (a gateway that lost the answer), 'before' answers 502 without
 * sending it on (refused), otherwise it passes through.
 */
async function faultyProxy(target: string, fault: (n: number) => 'after' | 'before' | undefined): Promise<{ url: string; server: Server }> {
  let patches = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const kind = req.method === 'PATCH' ? fault(++patches) : undefined;
      const gateway = () => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: 'Bad gateway' }));
      };
      if (kind === 'before') return gateway();
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)).map(([k, v]) => [k, String(v)]));
      const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      const text = await upstream.text();
      if (kind === 'after') return gateway();
      res.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([k]) => !['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k))));
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, server };
}

describe('bulk-update: a 5xx after the write was applied', () => {
  it('is settled by reading the record back: no deal is written twice; a 502 that was refused is resent', async () => {
    expect((await control(fx, 'POST', 'bulk', { collection: 'deals', count: 60 })).status).toBe(200);
    const ids = (await deals()).filter((d) => d.title.startsWith('Bulk deal ')).map((d) => d.id);
    const proxy = await faultyProxy(fx.sandbox.url, (n) => (n % 3 === 0 ? 'after' : n % 7 === 0 ? 'before' : undefined));
    try {
      const dir = workDir();
      const r = await spawnCli(['deals', 'bulk-update', '--ids', ids.join(','), '--field', 'owner_id=3', '--concurrency', '1', '--yes'], { env: { ...fx.env, CRMCTL_API_DOMAIN: proxy.url }, cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      // Every PATCH that reached the sandbox was applied: one per deal, none twice.
      const reached = (await patches()).map((p) => p.path);
      expect(reached.sort()).toEqual(ids.map((id) => `/api/v2/deals/${id}`).sort());
      // The deals whose answer was lost were read back (a GET of that deal after its PATCH).
      const gets = ((await fx.requests()) as Logged[]).filter((q) => q.method === 'GET' && /^\/api\/v2\/deals\/\d+$/.test(q.path));
      expect(gets.length).toBeGreaterThanOrEqual(Math.floor(ids.length / 3));
      expect((await deals()).filter((d) => ids.includes(d.id)).every((d) => d.owner_id === 3)).toBe(true);
      expect(ndjson(readFileSync(join(dir, 'deals.bulk-update.results.ndjson'), 'utf8'))).toEqual(ids.map((id) => ({ id, status: 'updated' })));
    } finally {
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });
});

describe('bulk-update: plan, confirmation and selection', () => {
  it('--dry-run prints the plan (changes from → to, unchanged, cost) and sends no write', async () => {
    const r = await bin(['deals', 'bulk-update', '--status', 'open', '--field', 'owner_id=2', '--dry-run', '--json'], { cwd: workDir() });
    expect(r.code, r.stderr).toBe(0);
    const open = (await deals()).filter((d) => d.status === 'open');
    const at2 = open.filter((d) => d.owner_id === 2).length;
    expect(r.stderr).toContain(`Bulk update of deals selected by --status open: ${open.length} records\n`);
    expect(r.stderr).toContain(`  owner_id → 2: ${open.length - at2} change${open.length - at2 === 1 ? '' : 's'} (from `);
    expect(r.stderr).toContain(`, ${at2} already at the value\n`);
    expect(r.stderr).toContain(`  ${open.length - at2} to update, ${at2} unchanged (not written)\n`);
    expect(r.stderr).toMatch(new RegExp(`^  cost: about ${(open.length - at2) * 5} tokens of [\\d,]+ left today\n    ${open.length - at2} × 5 \\(PATCH /api/v2/deals/\\{id\\}\\), plus 10 already spent on reads\n`, 'm'));
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ dry_run: true, area: 'deals', selected: open.length, to_update: open.length - at2, unchanged: at2, update_cost: (open.length - at2) * 5 });
    expect(await patches()).toEqual([]);
  });

  it('off a terminal without --yes: exit 2 naming --yes, nothing written', async () => {
    const r = await bin(['deals', 'bulk-update', '--ids', '1,2', '--field', 'owner_id=3'], { cwd: workDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Update 2 deals? Pass --yes to confirm');
    expect(await patches()).toEqual([]);
  });

  it('ids on stdin as NDJSON records (from a list): records already at the value are unchanged and not written', async () => {
    const listed = await bin(['deals', 'list', '--owner-id', '1', '--output', 'ndjson']);
    expect(listed.code).toBe(0);
    const ownedBy1 = ndjson(listed.stdout).map((d) => d.id as number);
    expect(ownedBy1.length).toBeGreaterThan(2);
    const dir = workDir();
    await fx.clearRequests();
    const r = await bin(['deals', 'bulk-update', '--ids', '-', '--field', 'status=won', '--yes'], { stdin: listed.stdout, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const byId = new Map((await deals()).map((d) => [d.id, d]));
    const wonBefore = ndjson(listed.stdout).filter((d) => d.status === 'won').map((d) => d.id as number);
    expect(r.stdout).toBe(`Updated ${ownedBy1.length - wonBefore.length} deals; ${wonBefore.length} unchanged, 0 failed. Results: deals.bulk-update.results.ndjson\n`);
    expect(ownedBy1.every((id) => byId.get(id)!.status === 'won')).toBe(true);
    expect((await patches()).map((p) => p.path).sort()).toEqual(ownedBy1.filter((id) => !wonBefore.includes(id)).map((id) => `/api/v2/deals/${id}`).sort());
    expect(ndjson(readFileSync(join(dir, 'deals.bulk-update.results.ndjson'), 'utf8'))).toEqual(ownedBy1.map((id) => ({ id, status: wonBefore.includes(id) ? 'unchanged' : 'updated' })));
  });

  it('selects by a saved filter, and sets a custom field by name', async () => {
    const f = await bin(['filters', 'create', '--name', 'Reggie deals', '--type', 'deals', '--where', 'Owner = Reggie Regular', '--json']);
    expect(f.code, f.stderr).toBe(0);
    const filterId = JSON.parse(f.stdout).id as number;
    const reggie = (await deals()).filter((d) => d.owner_id === 2).map((d) => d.id);
    expect(reggie.length).toBeGreaterThan(0);
    await fx.clearRequests();
    const r = await bin(['deals', 'bulk-update', '--filter-id', String(filterId), '--field', 'Segment=Enterprise', '--yes'], { cwd: workDir() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Bulk update of deals selected by --filter-id ${filterId}: ${reggie.length} records\n`);
    expect((await patches()).map((p) => p.path).sort()).toEqual(reggie.map((id) => `/api/v2/deals/${id}`).sort());
    const enterprise = (await deals()).filter((d) => d.custom_fields[DEAL_FIELD_KEYS.segment] !== undefined && d.custom_fields[DEAL_FIELD_KEYS.segment] !== null).map((d) => d.id);
    expect(enterprise.sort()).toEqual([...reggie].sort());
  });

  it('an unknown field name: exit 2 with the nearest names, nothing written', async () => {
    const custom = await bin(['deals', 'bulk-update', '--ids', '1', '--field', 'Segmnt=Enterprise', '--yes'], { cwd: workDir() });
    expect(custom.code).toBe(2);
    expect(custom.stderr).toBe('error: --field Segmnt: unknown field "Segmnt" (did you mean "Segment"?)\n');
    const own = await bin(['deals', 'bulk-update', '--ids', '1', '--field', 'onwer_id=2', '--yes'], { cwd: workDir() });
    expect(own.code).toBe(2);
    expect(own.stderr).toBe('error: --field onwer_id: unknown field "onwer_id" (did you mean "owner_id"?)\n');
    const value = await bin(['deals', 'bulk-update', '--ids', '1', '--field', 'Segment=Huge', '--yes'], { cwd: workDir() });
    expect(value.code).toBe(2);
    expect(value.stderr).toContain('--field Segment: Segment (enum) unknown option "Huge"; allowed: SMB, Mid-market, Enterprise');
    expect(await patches()).toEqual([]);
  });

  it('needs exactly one selection, naming the flags (exit 2, nothing sent)', async () => {
    const none = await bin(['deals', 'bulk-update', '--field', 'owner_id=2', '--yes'], { cwd: workDir() });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('error: select the deals to update with exactly one of: --ids, --filter-id, --where, --owner-id,');
    const two = await bin(['deals', 'bulk-update', '--ids', '1', '--owner-id', '1', '--field', 'owner_id=2', '--yes'], { cwd: workDir() });
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('got --ids and --owner-id');
    expect(await fx.requests()).toEqual([]);
  });

  it('a record that does not exist is failed in the results (exit 7); the others are updated', async () => {
    const dir = workDir();
    const r = await bin(['deals', 'bulk-update', '--ids', '1,999999', '--field', 'owner_id=3', '--yes'], { cwd: dir });
    expect(r.code).toBe(7);
    expect(ndjson(readFileSync(join(dir, 'deals.bulk-update.results.ndjson'), 'utf8'))).toEqual([
      { id: 1, status: 'updated' },
      { id: 999999, status: 'failed', error: 'not found (deal 999999 does not exist or is not visible to this user)' },
    ]);
    expect((await patches()).map((p) => p.path)).toEqual(['/api/v2/deals/1']);
  });

  it('leads (uuid ids, no ids filter on the list): ids as a JSON array on stdin, one get each, a custom field by name at the top level', async () => {
    const leads = await fx.collection<{ id: string; owner_id: number; is_archived: boolean }>('leads');
    const pick = leads.filter((l) => !l.is_archived).slice(0, 3).map((l) => l.id);
    const r = await bin(['leads', 'bulk-update', '--ids', '-', '--field', 'owner_id=3', '--field', 'Segment=SMB', '--yes'], { stdin: JSON.stringify(pick), cwd: workDir() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Updated 3 leads; 0 unchanged, 0 failed. Results: leads.bulk-update.results.ndjson\n');
    const reqs = await fx.requests();
    expect(reqs.filter((q) => q.path.startsWith('/api/v1/leads/')).map((q) => `${q.method} ${q.path}`).sort()).toEqual([...pick.map((id) => `GET /api/v1/leads/${id}`), ...pick.map((id) => `PATCH /api/v1/leads/${id}`)].sort());
    const after = (await fx.collection<Record<string, unknown>>('leads')).filter((l) => pick.includes(String(l.id)));
    expect(after.every((l) => l.owner_id === 3 && typeof l[DEAL_FIELD_KEYS.segment] === 'number')).toBe(true);
  });

  it('records that failed on a passing error (exit 7) are updated by --resume, once; another run refuses while the journal is there', async () => {
    const dir = workDir();
    const ids = (await deals()).map((d) => d.id);
    const args = ['deals', 'bulk-update', '--ids', ids.join(','), '--field', 'Deal notes=retried', '--concurrency', '1', '--yes'];
    // Every other request refused with 429 and no retries: some updates fail on the rate limit.
    await control(fx, 'PUT', 'faults', { rate429: 0.5, seed: 11 });
    const first = await spawnCli(args, { env: { ...fx.env, CRMCTL_MAX_RETRIES: '0' }, cwd: dir });
    await control(fx, 'PUT', 'faults', {});
    expect(first.code, first.stderr).toBe(7);
    expect(first.stderr).toContain('--resume');
    const failed = ndjson(readFileSync(join(dir, 'deals.bulk-update.results.ndjson'), 'utf8')).filter((x) => x.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(ids.length);

    const again = await bin(args, { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('error: an unfinished bulk-update run (');
    expect(again.stderr).toContain('has its journal in deals.bulk-update-state.ndjson\nhint: Continue it with --resume (what it did is not done again), or start over with --new-run');
    const other = await bin([...args.slice(0, 4), '--field', 'Deal notes=something else', '--yes', '--resume'], { cwd: dir });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--resume: the journal in deals.bulk-update-state.ndjson sets');

    await fx.clearRequests();
    const resumed = await bin([...args, '--resume'], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await patches()).map((p) => p.path).sort()).toEqual(failed.map((x) => `/api/v2/deals/${x.id}`).sort());
    expect((await deals()).every((d) => d.custom_fields[DEAL_FIELD_KEYS.notes] === 'retried')).toBe(true);
    expect(ndjson(readFileSync(join(dir, 'deals.bulk-update.results.ndjson'), 'utf8'))).toEqual(ids.map((id) => ({ id, status: 'updated' })));
  });
});
