// bulk-update --where: conditions by field name select through a temporary saved filter (the service
// evaluates its own condition tree), created and deleted before the plan; the plan says so; bad
// clauses are exit 2 with nothing written; leads (no saved filters) refuse it.
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, journalEntries, killMidRun, signalMidRun, workDir } from './helpers.js';

let fx: SandboxFixture;
type Deal = { id: number; owner_id: number; status: string };
const run = (args: string[]) => runCli(args, { env: fx.env });
const requests = async () => (await fx.requests()).map((q) => `${q.method} ${q.path}${q.query.filter_id !== undefined ? `?filter_id=${String(q.query.filter_id)}` : ''} ${q.status}`);
const filters = async () => (await fx.collection<{ id: number; name: string }>('filters')).map((f) => f.name);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await control(fx, 'POST', 'budget', { daily_limit: 100_000, daily_used: 0 });
  await fx.clearRequests();
});

describe('bulk-update --where', () => {
  it('selects the records the service matches, through a filter created and deleted before the plan; updates them', async () => {
    const before = await filters();
    const dir = workDir();
    const results = join(dir, 'results.ndjson');
    const r = await run(['deals', 'bulk-update', '--where', 'Owner = Ada Admin', '--where', 'Status = open', '--field', 'owner_id=2', '--state', join(dir, 'state.ndjson'), '--results', results, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const all = await fx.collection<Deal & { user_id?: number }>('deals');
    const log = await requests();
    const created = Number(/^DELETE \/api\/v1\/filters\/(\d+) 200$/m.exec(log.join('\n'))?.[1]);
    // The matched deals: open deals of Ada (user 1), now owned by Reggie (2).
    const selected = (await fx.requests()).filter((q) => q.method === 'PATCH').map((q) => Number(q.path.split('/').pop()));
    expect(selected.length).toBeGreaterThan(0);
    expect(all.filter((d) => selected.includes(d.id)).every((d) => d.owner_id === 2 && d.status === 'open')).toBe(true);
    expect(r.stderr).toContain(`Bulk update of deals selected by --where "Owner = Ada Admin" --where "Status = open": ${selected.length} records\n`);
    expect(r.stderr).toContain(`  selected through temporary filter ${created} (created for the selection and deleted before this plan)\n`);
    expect(r.stderr).toMatch(/^ {4}\d+ × 5 \(PATCH \/api\/v2\/deals\/\{id\}\), plus \d+ already spent on reads and the temporary filter$/m);
    // Field names and users read to build the tree; the filter lives from its create to its delete, before any update.
    // The run's account (users/me) is read as its journal begins, before the filter's create is journaled.
    expect(log.slice(0, 6)).toEqual(['GET /api/v1/users/me 200', 'GET /api/v1/dealFields 200', 'GET /api/v1/users 200', 'POST /api/v1/filters 200', `GET /api/v2/deals?filter_id=${created} 200`, `DELETE /api/v1/filters/${created} 200`]);
    expect(log.slice(6).every((l) => l.startsWith('PATCH /api/v2/deals/'))).toBe(true);
    expect(await filters()).toEqual(before);
    expect(r.stdout).toBe(`Updated ${selected.length} deals; 0 unchanged, 0 failed. Results: ${results}\n`);

    // A dry run writes nothing, and --where would write its filter: refused before any request.
    await fx.clearRequests();
    const dry = await run(['deals', 'bulk-update', '--where', 'Owner = Ada Admin', '--field', 'owner_id=2', '--state', join(dir, 'state2.ndjson'), '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stderr.split('\n')[0]).toBe('error: --dry-run cannot be combined with --where: --where selects through a temporary saved filter (a write), and a dry run writes nothing');
    expect(await fx.requests()).toEqual([]);
    expect(await filters()).toEqual(before);
  });

  it('an unknown field name is exit 2 naming the nearest; nothing is written', async () => {
    const r = await run(['deals', 'bulk-update', '--where', 'Ownr = Ada Admin', '--field', 'owner_id=2', '--state', join(workDir(), 's.ndjson'), '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --where "Ownr = Ada Admin": unknown field "Ownr" (did you mean "Owner"?); see crmctl deal-fields list\n');
    expect(await requests()).toEqual(['GET /api/v1/dealFields 200']);
  });

  it('leads have no saved filters: exit 2, nothing sent; --where with --ids is exit 2 naming both', async () => {
    const leads = await run(['leads', 'bulk-update', '--where', 'Title = x', '--field', 'owner_id=2', '--yes']);
    expect(leads.code).toBe(2);
    expect(leads.stderr).toBe("error: --where: is not available for leads: the service's saved filters do not cover them; select by --ids or the list's filters\n");
    const both = await run(['deals', 'bulk-update', '--where', 'Status = open', '--ids', '1', '--field', 'owner_id=2', '--yes']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^error: select the deals with exactly one of --ids, --filter-id, --where, .*; got --ids and --where$/m);
    expect(await requests()).toEqual([]);
  });

  it('a budget spent between the create and the read: exit 6, and the filter that could not be deleted is named with the command that deletes it', async () => {
    // A run learns its account once per token (users/me): learnt here by a run that changes nothing.
    expect((await run(['deals', 'bulk-update', '--ids', '99999', '--field', 'owner_id=1', '--state', join(workDir(), 'warm.ndjson'), '--yes'])).code).toBe(7);
    await fx.clearRequests();
    // The field names (20) and the create (10) fit; its answer says 0 left.
    await control(fx, 'POST', 'budget', { daily_used: 100_000 - 30 });
    const r = await run(['deals', 'bulk-update', '--where', 'Status = open', '--field', 'owner_id=2', '--state', join(workDir(), 's.ndjson'), '--yes']);
    expect(r.code).toBe(6);
    const left = (await fx.collection<{ id: number; name: string }>('filters')).filter((f) => f.name.startsWith('crmctl bulk-update '));
    expect(left.length).toBe(1);
    expect(left[0]!.name).toMatch(/^crmctl bulk-update [0-9a-f]{12} \(temporary: safe to delete\)$/);
    expect(r.stderr).toContain(`warning: the temporary filter ${left[0]!.id} could not be deleted (`);
    expect(r.stderr).toContain(`delete it with: crmctl filters delete ${left[0]!.id} --yes\n`);
    expect(r.stderr).toMatch(/^error: The daily budget is spent/m);
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v1/dealFields', 'POST /api/v1/filters']);
  });

  // Issue 28.10: `timeout`, a CI cancel and `docker stop` send SIGTERM.
  it('SIGTERM while the temporary filter exists: it is deleted before the process ends (exit 3); nothing is updated', async () => {
    const before = await filters();
    const state = join(workDir(), 'state.ndjson');
    await control(fx, 'PUT', 'faults', { latencyMs: 300, seed: 1 });
    const r = await signalMidRun(['deals', 'bulk-update', '--where', 'Status = open', '--field', 'owner_id=2', '--state', state, '--yes'], fx.env, () => journalEntries(state).some((e) => e.key === 'filter:temporary' && e.op === 'create' && e.status === 'done'), 'SIGTERM');
    await control(fx, 'PUT', 'faults', {});
    expect(r.signal).toBe(null);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('error: Bulk update stopped before its plan: nothing was updated (the temporary filter is deleted).');
    expect(await filters()).toEqual(before);
    expect((await fx.requests()).filter((q) => q.method === 'PATCH')).toEqual([]);
  }, 60_000);

  it('kill -9 while the temporary filter exists: the next run deletes it first and says so; --resume selects again and completes', async () => {
    const before = await filters();
    const dir = workDir();
    const state = join(dir, 'state.ndjson');
    const args = ['deals', 'bulk-update', '--where', 'Status = open', '--field', 'owner_id=2', '--state', state, '--results', join(dir, 'r.ndjson'), '--yes'];
    await control(fx, 'PUT', 'faults', { latencyMs: 300, seed: 1 });
    await killMidRun(args, fx.env, () => journalEntries(state).some((e) => e.key === 'filter:temporary' && e.op === 'create' && e.status === 'done'));
    await control(fx, 'PUT', 'faults', {});
    const left = (await fx.collection<{ id: number; name: string }>('filters')).filter((f) => f.name.startsWith('crmctl bulk-update '));
    expect(left.length).toBe(1);

    const again = await run(args);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`was stopped while its temporary filter ${left[0]!.id} existed; deleting it now.\n`);
    expect(again.stderr).toContain('Continue it with --resume');
    expect(await filters()).toEqual(before);

    const resumed = await run([...args, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await filters()).toEqual(before);
    expect((await fx.collection<Deal>('deals')).filter((d) => d.status === 'open').every((d) => d.owner_id === 2)).toBe(true);
  }, 60_000);
});
