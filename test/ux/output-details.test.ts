// Output details of issue 18 point 6: what people see on stdout/stderr for formulas in TSV, a bad
// date, plain --emails, derived --fields, user admins, options given to a group, auth status in a
// pipe, a deal's value after its products change, and a progress line followed by an error.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { bulkLeads, control, lastPage, workDir } from '../automation/helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean; env?: Record<string, string> } = {}) => runCli(args, { tty: opts.tty, env: { ...fx.env, NO_COLOR: '1', ...opts.env } });

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('TSV', () => {
  it('neutralises cells a spreadsheet would run as formulas, as CSV does', async () => {
    const c = await run(['deals', 'create', '--title', '=HYPERLINK("http://x")', '--json']);
    expect(c.code, c.stderr).toBe(0);
    const id = JSON.parse(c.stdout).id;
    const tsv = await run(['deals', 'get', String(id), '--fields', 'id,title', '--output', 'tsv']);
    expect(tsv.stdout).toBe(`${id}\t'=HYPERLINK("http://x")\n`);
    const csv = await run(['deals', 'get', String(id), '--fields', 'id,title', '--output', 'csv']);
    expect(csv.stdout).toBe(`id,title\r\n${id},"'=HYPERLINK(""http://x"")"\r\n`);
  });
});

describe('input', () => {
  it('a malformed --due-date gives its reason once (exit 2, nothing sent)', async () => {
    const r = await run(['activities', 'create', '--subject', 'Call', '--due-date', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --due-date: must be a date YYYY-MM-DD\n');
    const r2 = await run(['activities', 'create', '--subject', 'Call', '--due-date', '2026-02-30']);
    expect(r2.stderr).toBe('error: --due-date: must be a real calendar date YYYY-MM-DD\n');
    expect(await fx.requests()).toEqual([]);
  });

  it('persons create --emails takes plain values, repeated, the first primary; JSON still works', async () => {
    const r = await run(['persons', 'create', '--name', 'Ann', '--emails', 'a@b.c', '--emails', 'c@d.e', '--phones', '+372 5555', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const sent = (await fx.requests()).find((q) => q.method === 'POST' && q.path === '/api/v2/persons')!;
    expect(sent.body).toEqual({ name: 'Ann', emails: [{ value: 'a@b.c', primary: true }, { value: 'c@d.e' }], phones: [{ value: '+372 5555', primary: true }] });
    await fx.clearRequests();
    const j = await run(['persons', 'create', '--name', 'Bo', '--emails', '[{"value":"w@x.y","label":"work","primary":true}]', '--json']);
    expect(j.code, j.stderr).toBe(0);
    expect((await fx.requests()).find((q) => q.method === 'POST')!.body).toEqual({ name: 'Bo', emails: [{ value: 'w@x.y', label: 'work', primary: true }] });
  });
});

describe('derived table columns', () => {
  it('--fields stage,owner names the table columns in TSV and CSV; JSON refuses them by name', async () => {
    const deals = await fx.collection<{ id: number; stage_id: number; user_id?: number; owner_id?: number }>('deals');
    const stages = await fx.collection<{ id: number; name: string }>('stages');
    const users = await fx.collection<{ id: number; name: string }>('users');
    const first = deals.filter((d) => !(d as { is_deleted?: boolean }).is_deleted).sort((a, b) => a.id - b.id)[0]!;
    const tsv = await run(['deals', 'list', '--fields', 'id,stage,owner']);
    expect(tsv.code, tsv.stderr).toBe(0);
    const owner = users.find((u) => u.id === (first.owner_id ?? first.user_id))!.name;
    expect(tsv.stdout.split('\n')[0]).toBe(`${first.id}\t${stages.find((s) => s.id === first.stage_id)!.name}\t${owner}`);
    const csv = await run(['deals', 'list', '--fields', 'id,owner', '--output', 'csv']);
    expect(csv.stdout.split('\r\n').slice(0, 2)).toEqual(['id,owner', `${first.id},${owner}`]);
    await fx.clearRequests();
    const json = await run(['deals', 'list', '--fields', 'id,stage', '--json']);
    expect(json.code).toBe(2);
    // --json: the refusal is one JSON line on stderr (docs/agents.md).
    expect(JSON.parse(json.stderr)).toEqual({
      error: { code: 'usage', exit_code: 2, message: "--fields: stage is a table column (--output table, tsv or csv); --output json shows the service's fields", issues: [], hint: null, status: null, request_id: null },
    });
    expect(await fx.requests()).toEqual([]);
  });

  it('users list shows who administers what (from access), Ada Admin included', async () => {
    const r = await run(['users', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '1\tAda Admin\tada.admin@example.com\tglobal,sales\ttrue\n2\tReggie Regular\treggie.regular@example.com\t\ttrue\n3\tSam Seller\tsam.seller@example.com\t\ttrue\n',
    );
  });
});

describe('messages', () => {
  it('an option given to a group names the command lines that take it', async () => {
    const r = await run(['search', '--term', 'acme corp']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown option '--term'\nhint: did you mean one of:\n  crmctl search items --term 'acme corp'\n  crmctl search field --term 'acme corp'\n");
    const one = await run(['deals', 'products', '--product-id', '1']);
    expect(one.stderr).toBe("error: unknown option '--product-id'\nhint: did you mean one of:\n  crmctl deals products add --product-id 1\n  crmctl deals products update --product-id 1\n");
    const none = await run(['search', '--nope']);
    expect(none.stderr).toBe("error: unknown option '--nope'\n");
  });

  it('auth status in a pipe prints field<TAB>value lines', async () => {
    const r = await runCli(['auth', 'status', '--fields', 'profile,loggedIn,envOverride'], { env: fx.env });
    expect(r.stdout).toBe('profile\tdefault\nloggedIn\tfalse\nenvOverride\tCRMCTL_ACCESS_TOKEN\n');
  });

  it('deals products add says the deal value that follows (on a terminal; one GET of the deal)', async () => {
    const r = await run(['deals', 'products', 'add', '1', '--product-id', '1', '--item-price', '100', '--quantity', '2', '--json'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    const deal = (await fx.collection<{ id: number; value: number; currency: string }>('deals')).find((d) => d.id === 1)!;
    expect(r.stderr).toContain(`Deal 1 value is now ${deal.value.toLocaleString('en-US')} ${deal.currency}.\n`);
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['POST /api/v2/deals/1/products', 'GET /api/v2/deals/1']);
  });

  it('an export that fails mid-way ends its progress line before the error and names --resume', async () => {
    await bulkLeads(fx, 400);
    await control(fx, 'PUT', 'faults', { latencyMs: 30, seed: 1 });
    const out = join(workDir(), 'leads.ndjson');
    const running = run(['export', 'leads', '--out', out, '--page-size', '20'], { tty: true, env: { CRMCTL_MAX_RETRIES: '0' } });
    // Once a page is checkpointed (and its progress shown, in the same turn), every later page fails.
    while (!lastPage(`${out}.checkpoint.json`)) await new Promise((r) => setTimeout(r, 2));
    await control(fx, 'PUT', 'faults', { rate5xx: 1, seed: 1 });
    const r = await running;
    await control(fx, 'PUT', 'faults', {});
    expect(r.code).not.toBe(0);
    const lines = r.stderr.split('\n');
    const err = lines.findIndex((l) => l.startsWith('error: '));
    expect(err).toBeGreaterThan(0);
    // The self-rewriting line (its updates) ends with a newline: the error starts a line of its own.
    expect(lines[err - 1]).toMatch(/^(\r\x1b\[Kexport leads: [\d,]+ \([\d,]+\/s\))+$/);
    expect(lines.slice(err + 1)).toContain(`hint: its progress is saved; continue with: crmctl export leads --out ${out} --page-size 20 --resume`);
  });

  it('an import whose failed rows were refused says how to send them (a file of their own), not --resume: the run is finished', async () => {
    const file = join(workDir(), 'leads.csv');
    writeFileSync(file, 'title,person_id\nGood lead,1\nBad lead,99999\n');
    const r = await run(['import', 'leads', '--file', file]);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('hint: The service refused them: correct those rows in a file of their own (the results file lists them by line) and import that; this run is finished, so its rows are never sent twice.\n');
    expect(r.stderr).not.toContain('hint: its progress is saved');
  });
});
