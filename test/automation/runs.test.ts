// The one run engine (src/runs): the same policy for import, export and bulk-update (issue 29.15), a
// journal tied to its account and input (issue 28.1), archived deals and leads in an export (issue 29.14).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, demoSandboxPerTest, inFlightSettled, journalEntries, killMidRun, lastPage, ndjson, workDir } from './helpers.js';

let fx: SandboxFixture;
let other: SandboxFixture;
demoSandboxPerTest((f) => {
  fx = f;
});
beforeAll(async () => {
  other = await startFixture();
});
afterAll(async () => other?.close());

const run = (args: string[], env: Record<string, string> = fx.env) => spawnCli(args, { env, cwd: dirOf(args) });
/** The other account, seen from the same config dir (as `--profile sandbox` would be). */
const otherEnv = () => ({ ...other.env, CRMCTL_CONFIG_DIR: fx.env.CRMCTL_CONFIG_DIR! });
const account = (f: SandboxFixture) => `company 1 (user 1) at ${new URL(f.sandbox.url).origin}`;
let cwd = '';
const dirOf = (_args: string[]) => cwd;
const file = (name: string, text: string) => {
  cwd = workDir();
  const path = join(cwd, name);
  writeFileSync(path, text);
  return path;
};
const leadRows = (n: number, tag: string) => `${Array.from({ length: n }, (_, i) => JSON.stringify({ title: `${tag} ${i + 1}`, organization_id: 1 })).join('\n')}\n`;
const writes = async (f: SandboxFixture) => (await f.requests()).filter((r) => r.method !== 'GET');

describe('one policy for --resume (import, export, bulk-update)', () => {
  it('--resume with nothing to resume: exit 2 naming where it looked, for each command; nothing sent', async () => {
    const f = file('leads.ndjson', leadRows(2, 'Nothing'));
    await fx.clearRequests();
    const imp = await run(['import', 'leads', '--file', f, '--resume']);
    expect(imp.code).toBe(2);
    expect(imp.stderr).toBe(`error: --resume: there is no import run to continue at ${f}.import-state.json\nhint: Run the command without --resume to start one (--state names another journal).\n`);
    const out = join(cwd, 'x.ndjson');
    const exp = await run(['export', 'leads', '--out', out, '--resume']);
    expect(exp.code).toBe(2);
    expect(exp.stderr).toContain(`error: --resume: there is no export run to continue at ${out}.checkpoint.json\nhint: Run the command without --resume to start one.\n`);
    const bulk = await run(['deals', 'bulk-update', '--field', 'owner_id=2', '--resume', '--yes']);
    expect(bulk.code).toBe(2);
    expect(bulk.stderr).toBe('error: --resume: there is no bulk-update run to continue at deals.bulk-update-state.ndjson\nhint: Run the command without --resume to start one (--state names another journal).\n');
    expect(await writes(fx)).toEqual([]);
  });

  it('an unfinished run without --resume: exit 2 naming --resume and --new-run (import and export killed mid-run)', async () => {
    await control(fx, 'PUT', 'faults', { latencyMs: 40, seed: 1 });
    const f = file('leads.ndjson', leadRows(200, 'Unfinished'));
    await killMidRun(['import', 'leads', '--file', f], fx.env, () => journalEntries(`${f}.import-state.json`).some((e) => e.status === 'done'));
    await control(fx, 'POST', 'bulk', { collection: 'leads', count: 1000 });
    const out = join(cwd, 'leads-out.ndjson');
    await killMidRun(['export', 'leads', '--out', out, '--page-size', '100'], fx.env, () => (lastPage(`${out}.checkpoint.json`)?.records ?? 0) >= 100);
    await control(fx, 'PUT', 'faults', {});
    await fx.clearRequests();
    for (const [args, journal] of [[['import', 'leads', '--file', f], `${f}.import-state.json`], [['export', 'leads', '--out', out, '--page-size', '100'], `${out}.checkpoint.json`]] as const) {
      const r = await run([...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: an unfinished (import|export) run \\([0-9a-f]{12}, started [^,]+, .+\\) has its journal in ${journal.replace(/[.]/g, '\\.')}\\nhint: Continue it with --resume \\(what it did is not done again\\), or start over with --new-run \\(the unfinished run's record is kept\\)\\.\\n`));
    }
    expect(await writes(fx)).toEqual([]);
  }, 60_000);

  it('a finished export or bulk update run again sends nothing (exit 0, "already done at …"); --new-run runs it again and keeps the old record', async () => {
    cwd = workDir();
    const out = join(cwd, 'labels.ndjson');
    expect((await run(['export', 'lead-labels', '--out', out])).code).toBe(0);
    const bulk = ['deals', 'bulk-update', '--ids', '1,2', '--field', 'owner_id=2', '--yes'];
    const first = await run(bulk);
    expect(first.code, first.stderr).toBe(0);
    await fx.clearRequests();
    const exp = await run(['export', 'lead-labels', '--out', out]);
    expect(exp.code).toBe(0);
    expect(exp.stderr).toMatch(new RegExp(`^Export already done at \\S+: 3 records written to ${out.replace(/[.]/g, '\\.')} \\(run [0-9a-f]{12}\\); nothing sent\\. --new-run to start again\\.\\n$`));
    const again = await run(bulk);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^Bulk update already done at \S+: \d updated, \d unchanged, 0 failed \(run [0-9a-f]{12}\); nothing sent\. --new-run to start again\.\n$/);
    expect(again.stdout).toBe('');
    expect(await fx.requests()).toEqual([]);

    const oldId = journalEntries(join(cwd, 'deals.bulk-update-state.ndjson'))[0].run_id;
    const fresh = await run([...bulk, '--new-run']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toBe('Updated 0 deals; 2 unchanged, 0 failed. Results: deals.bulk-update.results.ndjson\n');
    // The index of runs under the config dir still has the old run, pointing at its journal set aside.
    const runs = join(fx.env.CRMCTL_CONFIG_DIR!, 'runs');
    const old = JSON.parse(readFileSync(join(runs, `${oldId}.json`), 'utf8'));
    expect(old).toMatchObject({ id: oldId, kind: 'bulk-update', status: 'done', summary: expect.stringMatching(/^\d updated, \d unchanged, 0 failed$/), journal: join(runs, 'journals', `${oldId}.ndjson`) });
    expect(journalEntries(old.journal)[0]).toMatchObject({ type: 'run', run_id: oldId, kind: 'bulk-update' });
    expect(readdirSync(runs).filter((n) => n.endsWith('.json') && n !== 'accounts.json').length).toBeGreaterThanOrEqual(3);
  });
});

describe('a journal belongs to one account and one input (issue 28.1)', () => {
  it('an import done in one account is neither refused silently nor "resumed" in another: exit 2 naming both accounts, nothing created there', async () => {
    const f = file('leads.csv', `title,organization_id\n${Array.from({ length: 5 }, (_, i) => `Account ${i + 1},1`).join('\n')}\n`);
    const done = await run(['import', 'leads', '--file', f]);
    expect(done.code, done.stderr).toBe(0);
    await other.clearRequests();
    for (const extra of [[], ['--resume']]) {
      const r = await run(['import', 'leads', '--file', f, ...extra], otherEnv());
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${f}.import-state.json belongs to a import run (`);
      expect(r.stderr).toContain(`) of ${account(fx)}; this command acts on ${account(other)}. A journal is never continued against another account.`);
    }
    expect(await writes(other)).toEqual([]);
    expect((await other.collection<{ title: string }>('leads')).filter((l) => l.title.startsWith('Account '))).toEqual([]);
    // Its own journal (--state) imports it there.
    const own = await run(['import', 'leads', '--file', f, '--state', `${f}.other.json`, '--results', `${f}.other.results.ndjson`], otherEnv());
    expect(own.code, own.stderr).toBe(0);
    expect((await other.collection<{ title: string }>('leads')).filter((l) => l.title.startsWith('Account ')).length).toBe(5);
  });

  it('an export checkpoint and a bulk-update journal of another account are not continued either', async () => {
    cwd = workDir();
    const out = join(cwd, 'labels.ndjson');
    expect((await run(['export', 'lead-labels', '--out', out])).code).toBe(0);
    expect((await run(['deals', 'bulk-update', '--ids', '1', '--field', 'owner_id=2', '--yes'])).code).toBe(0);
    await other.clearRequests();
    const exp = await run(['export', 'lead-labels', '--out', out, '--resume'], otherEnv());
    expect(exp.code).toBe(2);
    expect(exp.stderr).toContain(`of ${account(fx)}; this command acts on ${account(other)}.`);
    const bulk = await run(['deals', 'bulk-update', '--resume', '--yes'], otherEnv());
    expect(bulk.code).toBe(2);
    expect(bulk.stderr).toContain(`error: --resume: deals.bulk-update-state.ndjson belongs to a bulk-update run (`);
    expect(bulk.stderr).toContain(`of ${account(fx)}; this command acts on ${account(other)}.`);
    expect((await other.requests()).filter((r) => r.method !== 'GET' || !r.path.endsWith('/users/me'))).toEqual([]);
  });

  it('a file changed since its run started is not resumed (exit 2 saying so)', async () => {
    await control(fx, 'PUT', 'faults', { latencyMs: 40, seed: 1 });
    const f = file('leads.ndjson', leadRows(200, 'Changed'));
    await killMidRun(['import', 'leads', '--file', f], fx.env, () => journalEntries(`${f}.import-state.json`).some((e) => e.status === 'done'));
    await control(fx, 'PUT', 'faults', {});
    writeFileSync(f, leadRows(200, 'Edited'));
    // The killed import's requests in flight land after the kill: only what the resume sends counts.
    await inFlightSettled(fx);
    await fx.clearRequests();
    const r = await run(['import', 'leads', '--file', f, '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: --resume: ${f}.import-state.json belongs to an unfinished import run (`);
    expect(r.stderr).toContain(`: ${f} changed since that run started (its content hash differs), so its lines are other rows now\nhint: --new-run starts a new run`);
    expect(await writes(fx)).toEqual([]);
  }, 60_000);
});

describe('archived deals and leads in an export (issue 29.14)', () => {
  it('says whether archived records are included; --include-archived exports every deal and lead once', async () => {
    cwd = workDir();
    const token = { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' };
    const deal = (await fx.collection<{ id: number; is_archived: boolean }>('deals')).find((d) => !d.is_archived)!;
    const lead = (await fx.collection<{ id: string; is_archived: boolean }>('leads')).find((l) => !l.is_archived)!;
    expect((await fetch(`${fx.sandbox.url}/api/v2/deals/${deal.id}`, { method: 'PATCH', headers: token, body: JSON.stringify({ is_archived: true }) })).status).toBe(200);
    expect((await fetch(`${fx.sandbox.url}/api/v1/leads/${lead.id}`, { method: 'PATCH', headers: token, body: JSON.stringify({ is_archived: true }) })).status).toBe(200);
    const deals = (await fx.collection<{ id: number; is_deleted?: boolean; is_archived: boolean }>('deals')).filter((d) => !d.is_deleted);
    const leads = await fx.collection<{ id: string; is_archived: boolean }>('leads');
    for (const [kind, all, path] of [['deals', deals, 'GET /api/v2/deals/archived (cost 20 a page)'], ['leads', leads, 'GET /api/v1/leads/archived (cost 40 a page)']] as const) {
      const plain = await run(['export', kind, '--out', join(cwd, `${kind}.ndjson`)]);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stderr).toBe(`note: archived ${kind} are not included (the service leaves them out of its ${kind} list); --include-archived adds them.\n`);
      const plainIds = ndjson(readFileSync(join(cwd, `${kind}.ndjson`), 'utf8')).map((r) => r.id);
      expect(plainIds.sort()).toEqual(all.filter((r) => !r.is_archived).map((r) => r.id).sort());
      const full = await run(['export', kind, '--include-archived', '--out', join(cwd, `${kind}-all.ndjson`)]);
      expect(full.code, full.stderr).toBe(0);
      expect(full.stderr).toBe(`note: archived ${kind} included: read after the others from ${path}.\n`);
      const ids = ndjson(readFileSync(join(cwd, `${kind}-all.ndjson`), 'utf8')).map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(all.map((r) => r.id).sort());
      expect(ids.length).toBeGreaterThan(plainIds.length);
    }
    const refused = await run(['export', 'persons', '--include-archived']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('error: --include-archived: only for deals and leads (the lists that leave archived records out)\n');
    expect(existsSync(join(cwd, 'persons.ndjson'))).toBe(false);
  });
});
