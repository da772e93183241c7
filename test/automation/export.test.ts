import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { bulkLeads, control, journalEntries, lastPage, ndjson, runWithStdoutClosedEarly, workDir } from './helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean } = {}) => runCli(args, { ...opts, env: fx.env });
type Lead = { id: string; title: string; [k: string]: unknown };

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('export formats', () => {
  it('writes every lead as ndjson by default, in the service order, one page per request', async () => {
    await bulkLeads(fx, 1203);
    const r = await run(['export', 'leads', '--page-size', '500']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('note: archived leads are not included (the service leaves them out of its leads list); --include-archived adds them.\n');
    const live = (await fx.collection<Lead>('leads')).filter((l) => !l.is_archived);
    const out = ndjson(r.stdout);
    expect(out.map((l) => l.id)).toEqual(live.map((l) => l.id));
    const reqs = await fx.requests();
    const pages = reqs.filter((q) => q.path === '/api/v1/leads');
    expect(pages.map((q) => [q.method, q.path, q.query.start ?? '0', q.query.limit])).toEqual([
      ['GET', '/api/v1/leads', '0', '500'],
      ['GET', '/api/v1/leads', '500', '500'],
      ['GET', '/api/v1/leads', '1000', '500'],
    ]);
    // The names beside the link ids (so the file imports into another account): each linked list
    // read once, however many pages the export writes.
    expect(reqs.filter((q) => q.path !== '/api/v1/leads').map((q) => q.path)).toEqual(['/api/v2/dealFields', '/api/v2/organizations', '/api/v2/persons', '/api/v1/users', '/api/v1/leadLabels']);
  });

  it('an amount the service keeps without a currency is written with the account\'s (users/me read once, only then), so the file imports elsewhere', async () => {
    const csv = await run(['export', 'organizations', '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...rows] = parse(csv.stdout) as string[][];
    const at = header!.indexOf('Annual revenue');
    expect(header!.slice(at, at + 2)).toEqual(['Annual revenue', 'Annual revenue currency']);
    // The demo's dirt: Acme Corp. keeps 250000 with no currency; the account's users show amounts in EUR.
    expect(rows.filter((l) => l.includes('Acme Corp.')).map((l) => l.slice(at, at + 2))).toEqual([['250000', 'EUR']]);
    expect((await fx.requests()).filter((q) => q.path === '/api/v1/users/me')).toHaveLength(1);
    await fx.clearRequests();
    const nd = ndjson((await run(['export', 'organizations'])).stdout);
    expect(nd.find((o) => o.name === 'Acme Corp.')?.fields).toMatchObject({ 'Annual revenue': { value: 250000, currency: 'EUR' } });
    // Read once per token: the second export asks users/me no more.
    expect((await fx.requests()).filter((q) => q.path === '/api/v1/users/me')).toHaveLength(0);
  });

  it('export --raw writes the service\'s records as they are: one read per page, nothing else', async () => {
    await bulkLeads(fx, 600);
    const r = await run(['export', 'leads', '--page-size', '500', '--raw']);
    expect(r.code).toBe(0);
    const out = ndjson(r.stdout);
    expect(Object.keys(out[0]!).filter((k) => ['organization_name', 'person_name', 'owner_email', 'label_names', 'fields'].includes(k))).toEqual([]);
    expect((await fx.requests()).map((q) => [q.path, q.query.start ?? '0'])).toEqual([['/api/v1/leads', '0'], ['/api/v1/leads', '500']]);
  });

  it('a link whose name two records share cannot be carried by name: the name is left empty and one warning says which and why', async () => {
    expect((await run(['organizations', 'create', '--name', 'Acme Corporation'])).code).toBe(0);
    const deals = (await fx.collection<{ org_id: number | null; is_deleted: boolean; is_archived: boolean }>('deals')).filter((d) => !d.is_deleted && !d.is_archived);
    const r = await run(['export', 'deals']);
    expect(r.code, r.stderr).toBe(0);
    const acme = deals.filter((d) => d.org_id === 1).length;
    expect(acme).toBeGreaterThan(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning: '))).toEqual([
      `warning: links not carried by name (an import into another account leaves them out): org_id of ${acme} deals (2 organizations are called "Acme Corporation")`,
    ]);
    const out = ndjson(r.stdout);
    expect(out.filter((d) => d.org_id === 1).map((d) => d.org_name)).toEqual(Array(acme).fill(null));
    expect(out.filter((d) => d.org_id === 2).map((d) => d.org_name)).toContain('Globex Industries');
  });

  it('writes a json array (streamed, valid JSON) to --out, format taken from the extension', async () => {
    const dir = workDir();
    const out = join(dir, 'labels.json');
    const r = await run(['export', 'lead-labels', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const labels = await fx.collection<{ id: string; name: string }>('leadLabels');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(labels);
    // The run's journal stays, finished: the same command again sends nothing.
    expect(journalEntries(`${out}.checkpoint.json`).pop()).toMatchObject({ type: 'end', summary: `${labels.length} records written to ${out}` });
  });

  it('writes an empty json array and a header-only csv when there are no records', async () => {
    await fx.reset('empty');
    const r = await run(['export', 'leads', '--format', 'json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[]\n');
    const csv = await run(['export', 'leads', '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toMatch(/^id,title,owner_id,.*,cc_email\r\n$/);
  });

  it('writes csv with a header and neutralises formula cells (CSV injection)', async () => {
    await run(['leads', 'create', '--title', '=HYPERLINK("http://evil.example","x")', '--organization-id', '1']);
    await run(['leads', 'create', '--title', '@SUM(A1:A9)', '--organization-id', '2']);
    const r = await run(['export', 'leads', '--format', 'csv', '--columns', 'id,title,value.amount']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('id,title,value.amount');
    const live = (await fx.collection<Lead & { value: { amount: number } | null }>('leads')).filter((l) => !l.is_archived);
    expect(lines.length).toBe(live.length + 1);
    const evil = live.find((l) => l.title.startsWith('=HYPERLINK'))!;
    expect(lines).toContain(`${evil.id},"'=HYPERLINK(""http://evil.example"",""x"")",`);
    const sum = live.find((l) => l.title.startsWith('@SUM'))!;
    expect(lines).toContain(`${sum.id},'@SUM(A1:A9),`);
  });

  it('takes required list parameters with --param and refuses a missing one before sending', async () => {
    const missing = await run(['export', 'installments']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--param deal_ids: is required');
    const unknown = await run(['export', 'leads', '--param', 'colour=red']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--param colour: unknown key "colour"; known: ');
    const badType = await run(['export', 'leads', '--param', 'owner_id=abc']);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('--param owner_id: must be an integer');
    expect(await fx.requests()).toEqual([]);

    const threads = await run(['export', 'mail-threads', '--param', 'folder=sent']);
    expect(threads.code).toBe(0);
    const reqs = await fx.requests();
    expect(reqs[0]).toMatchObject({ path: '/api/v1/mailbox/mailThreads', query: { folder: 'sent' } });
  });

  it('refuses an unknown resource and lists the exportable ones', async () => {
    const r = await run(['export', 'unicorns']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown resource "unicorns"');
    expect(r.stderr).toContain('archived-leads');
    const list = await run(['export', '--list', '--json']);
    const names = JSON.parse(list.stdout).map((x: { resource: string }) => x.resource);
    expect(names).toEqual(expect.arrayContaining(['leads', 'archived-leads', 'lead-labels', 'persons', 'notes', 'projects', 'roles', 'permission-sets', 'legacy-teams', 'activity-types', 'activity-fields', 'organization-fields', 'webhooks', 'goals', 'mailbox-threads', 'deal-installments']));
  });
});

describe('export --resume', () => {
  it('continues a killed export (kill -9 mid-way) with every record exactly once', async () => {
    await bulkLeads(fx, 6000);
    // Slow pages so the kill lands mid-way.
    await control(fx, 'PUT', 'faults', { latencyMs: 40, seed: 1 });
    const dir = workDir();
    const out = join(dir, 'leads.ndjson');
    const env = cleanEnv(fx.env);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'export', 'leads', '--out', out, '--page-size', '100'], { env, stdio: 'ignore' });
      const timer = setInterval(() => {
        if (existsSync(`${out}.checkpoint.json`)) {
          const cp = lastPage(`${out}.checkpoint.json`);
          if (cp && cp.records >= 1500) {
            clearInterval(timer);
            child.kill('SIGKILL');
          }
        }
      }, 5);
      child.on('exit', (code, signal) => {
        clearInterval(timer);
        if (signal === 'SIGKILL') resolve();
        else reject(new Error(`export finished before the kill (code ${code})`));
      });
    });
    expect(journalEntries(`${out}.checkpoint.json`)[0]).toMatchObject({ type: 'run', kind: 'export', resource: 'leads', format: 'ndjson' });
    const cp = lastPage(`${out}.checkpoint.json`)!;
    expect(cp.records).toBeGreaterThan(0);
    // Simulate a torn page after the checkpoint: resume must drop it.
    writeFileSync(out, '{"id":"torn', { flag: 'a' });
    await control(fx, 'PUT', 'faults', {});
    await fx.clearRequests();
    const r = await run(['export', 'leads', '--out', out, '--page-size', '100', '--resume']);
    expect(r.code).toBe(0);
    const ids = ndjson(readFileSync(out, 'utf8')).map((l) => l.id);
    const live = (await fx.collection<Lead>('leads')).filter((l) => !l.is_archived).map((l) => l.id);
    expect(ids.length).toBe(live.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(live);
    // The resumed run started at the checkpointed offset, not at 0.
    expect((await fx.requests())[0]!.query.start).toBe(String(cp.next));
    expect(journalEntries(`${out}.checkpoint.json`).pop()).toMatchObject({ type: 'end' });
  });

  it('resumes a json export into one valid array', async () => {
    await bulkLeads(fx, 250);
    const dir = workDir();
    const out = join(dir, 'leads.json');
    const full = await run(['export', 'leads', '--out', out, '--page-size', '100']);
    expect(full.code).toBe(0);
    const expected = readFileSync(out, 'utf8');
    // A checkpoint as a run killed after two pages leaves it (bytes of exactly 200 records).
    const lines = expected.split('\n');
    const partial = lines.slice(0, 201).join('\n').replace(/,$/, '');
    writeFileSync(out, `${partial},\n{"id":"half-writ`);
    // The finished run's header, and the page entries of a run killed after two pages.
    const header = journalEntries(`${out}.checkpoint.json`)[0];
    const page = (n: number, records: number, bytes: number) => ({ key: `page:${n}`, op: 'read', status: 'done', phase: 0, next: records, records, bytes });
    writeFileSync(`${out}.checkpoint.json`, `${[header, page(0, 100, 1), page(1, 200, Buffer.byteLength(partial))].map((e) => JSON.stringify(e)).join('\n')}\n`);
    const r = await run(['export', 'leads', '--out', out, '--page-size', '100', '--resume']);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(expected);
  });

  it('refuses --resume with a checkpoint of another export, and --resume without --out', async () => {
    const dir = workDir();
    const out = join(dir, 'x.ndjson');
    expect((await run(['export', 'notes', '--out', out])).code).toBe(0);
    await fx.clearRequests();
    const r = await run(['export', 'leads', '--out', out, '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--resume: ${out}.checkpoint.json belongs to a finished export run (`);
    expect(r.stderr).toContain(`it holds \`export notes --format ndjson\` to ${out}; this command is \`export leads --format ndjson\` to ${out}`);
    expect(r.stderr).toContain('hint: --new-run starts a new run');
    const noOut = await run(['export', 'leads', '--resume']);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--resume needs --out FILE');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('export write failures', () => {
  it('names a full disk (ENOSPC) and the fix, exit 1', async () => {
    if (!existsSync('/dev/full')) return;
    // The run's journal goes beside the output (/dev/full.checkpoint.json): none before, none left after.
    rmSync('/dev/full.checkpoint.json', { force: true });
    try {
      const r = await run(['export', 'leads', '--out', '/dev/full']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('No space left on the device while writing /dev/full (ENOSPC)');
      expect(r.stderr).toContain('--resume');
    } finally {
      rmSync('/dev/full.checkpoint.json', { force: true });
    }
  });

  it('names a closed pipe (EPIPE) when the reader goes away, exit 1', async () => {
    await bulkLeads(fx, 3000);
    const env = cleanEnv(fx.env);
    const result = await runWithStdoutClosedEarly(['export', 'leads', '--page-size', '100'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Output closed early while writing stdout (EPIPE)');
    expect(result.stderr).toContain('--out FILE');
  });
});
