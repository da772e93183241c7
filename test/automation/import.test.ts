import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { DEAL_FIELD_KEYS } from '../../src/sandbox/seed/index.js';
import { importInput } from '../../src/automation/import.js';
import { hashFile } from '../../src/runs/fingerprint.js';
import { control, countIn, demoSandboxPerTest, journalHeader, killMidRun, ndjson, workDir } from './helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean } = {}) => runCli(args, { ...opts, env: fx.env });
type Lead = { id: string; title: string; origin_id: string | null; [k: string]: unknown };

const posts = async () => (await fx.requests()).filter((r) => r.method === 'POST');
const leadsByTitle = async (prefix: string) => (await fx.collection<Lead>('leads')).filter((l) => l.title.startsWith(prefix));
const file = (name: string, text: string) => {
  const path = join(workDir(), name);
  writeFileSync(path, text);
  return path;
};
const rows = (n: number, f: (i: number) => Record<string, unknown>) => `${Array.from({ length: n }, (_, i) => JSON.stringify(f(i + 1))).join('\n')}\n`;

demoSandboxPerTest((f) => {
  fx = f;
});

describe('import validation', () => {
  it('reports every bad row with its line, field and rule, and sends nothing', async () => {
    const f = file('leads.ndjson', [
      JSON.stringify({ title: 'Good one', organization_id: 1 }),
      JSON.stringify({ title: 'No link' }),
      '',
      JSON.stringify({ title: 'Bad money', person_id: 1, value: { amount: 'lots', currency: 'EUR' } }),
      '{"title": broken',
      JSON.stringify({ title: 'Typo', organisation_id: 1 }),
    ].join('\n'));
    const r = await run(['import', 'leads', '--file', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 2: person_id: a lead needs a person or an organization');
    expect(r.stderr).toContain('line 4: value.amount: must be a number');
    expect(r.stderr).toContain('line 5: row: is not valid JSON');
    expect(r.stderr).toContain('line 6: row: unknown key "organisation_id" (did you mean "organization_id"?)');
    expect(r.stderr).not.toContain('line 1:');
    expect(r.stderr).toContain('4 rows of');
    expect(await posts()).toEqual([]);
    expect(existsSync(`${f}.import-state.json`)).toBe(false);
  });

  it('--skip-invalid imports the valid rows and lists the skipped ones in the results file', async () => {
    const f = file('leads.ndjson', rows(4, (i) => (i === 3 ? { title: `Skip ${i}` } : { title: `Skip ${i}`, organization_id: i })));
    const r = await run(['import', 'leads', '--file', f, '--skip-invalid']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Imported 3 leads; 0 failed, 1 skipped');
    const created = await leadsByTitle('Skip ');
    expect(created.map((l) => l.title).sort()).toEqual(['Skip 1', 'Skip 2', 'Skip 4']);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.map((x) => x.line)).toEqual([1, 2, 3, 4]);
    expect(results[2]).toEqual({ line: 3, error: 'person_id: a lead needs a person or an organization: give --person-id or --organization-id (or both)', skipped: true });
    for (const x of [results[0], results[1], results[3]]) expect(created.some((l) => l.id === x.id)).toBe(true);
  });

  it('CSV rows are named by the line they start on: quoted cells spanning lines, mixed line endings, blank lines', async () => {
    const f = file('leads.csv', 'title,organization_id\r\n"Two\nline title",1\n\nBad row,abc\rThird,2\n');
    const r = await run(['import', 'leads', '--file', f, '--skip-invalid']);
    expect(r.code, r.stderr).toBe(0);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.map((x) => x.line)).toEqual([2, 5, 6]);
    expect(results[1]).toMatchObject({ line: 5, skipped: true, error: expect.stringContaining('organization_id') });
    const created = (await posts()).map((q) => (q.body as { title: string }).title);
    expect(created).toEqual(['Two\nline title', 'Third']);
  });

  it('a CRLF file with CRLF inside quoted cells names each row by its physical first line', async () => {
    // Lines: 1 header; 2-3 first row; 4-6 second row (two breaks inside); 7 a bad row; 8-9 last row.
    const f = file('leads-crlf.csv', 'title,organization_id\r\n"One\r\ntwo",1\r\n"Three\r\nfour\r\nfive",2\r\nBad row,abc\r\n"Six\r\nseven",3\r\n');
    const r = await run(['import', 'leads', '--file', f, '--skip-invalid']);
    expect(r.code, r.stderr).toBe(0);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.map((x) => x.line)).toEqual([2, 4, 7, 8]);
    expect(results[2]).toMatchObject({ line: 7, skipped: true, error: expect.stringContaining('organization_id') });
    const created = (await posts()).map((q) => (q.body as { title: string }).title);
    expect(created).toEqual(['One\r\ntwo', 'Three\r\nfour\r\nfive', 'Six\r\nseven']);
  });

  it('a CSV that cannot be parsed is named with its line (exit 2, nothing sent)', async () => {
    const f = file('leads.csv', 'title,organization_id\n"unclosed,1\n');
    const r = await run(['import', 'leads', '--file', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`--file: ${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid CSV at line \\d+: Quote Not Closed`));
    expect(await posts()).toEqual([]);
  });

  it('refuses an unknown CSV column before reading the rows', async () => {
    const f = file('leads.csv', 'title,organization_id,Colour\nA,1,red\n');
    const r = await run(['import', 'leads', '--file', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown column "Colour"');
    expect(await posts()).toEqual([]);
  });
});

describe('import leads', () => {
  it('maps CSV headers (nested, aliases, custom field names) and creates each row with its origin marker', async () => {
    const f = file('leads.csv', [
      'Title,organization,value_amount,value.currency,Budget,Budget currency,Segment,expected_close_date',
      '"Acme, renewal",1,5000,EUR,12000,EUR,Enterprise,2026-03-31',
      'Globex pilot,2,,,,,101,',
    ].join('\r\n'));
    const r = await run(['import', 'leads', '--file', f]);
    expect(r.code, r.stderr).toBe(0);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.map((x) => x.line)).toEqual([2, 3]);
    const stored = await fx.collection<Lead>('leads');
    const acme = stored.find((l) => l.id === results[0].id)!;
    expect(acme).toMatchObject({
      title: 'Acme, renewal', organization_id: 1, value: { amount: 5000, currency: 'EUR' }, expected_close_date: '2026-03-31',
      [DEAL_FIELD_KEYS.budget]: 12000, [`${DEAL_FIELD_KEYS.budget}_currency`]: 'EUR', [DEAL_FIELD_KEYS.segment]: 103,
    });
    expect(acme.origin_id).toMatch(/^crmctl-import:[0-9a-f]+:2$/);
    const globex = stored.find((l) => l.id === results[1].id)!;
    expect(globex).toMatchObject({ title: 'Globex pilot', organization_id: 2, value: null, [DEAL_FIELD_KEYS.segment]: 101 });
    expect(globex.origin_id).toMatch(/^crmctl-import:[0-9a-f]+:3$/);
    const sent = await posts();
    expect(sent.length).toBe(2);
    expect(sent[0]!.path).toBe('/api/v1/leads');
  });

  it('keeps a row\'s own origin_id', async () => {
    const f = file('leads.ndjson', rows(1, () => ({ title: 'Own origin', person_id: 1, origin_id: 'legacy-crm:77' })));
    expect((await run(['import', 'leads', '--file', f])).code).toBe(0);
    expect((await leadsByTitle('Own origin'))[0]!.origin_id).toBe('legacy-crm:77');
  });

  it('exits 7 when the service rejects some rows and says why per line', async () => {
    const f = file('leads.json', JSON.stringify([
      { title: 'Fine', organization_id: 1 },
      { title: 'Ghost org', organization_id: 999 },
      { title: 'Fine too', person_id: 2 },
    ], null, 2));
    const r = await run(['import', 'leads', '--file', f]);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('1 of 3 rows failed');
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    // Lines are where each array element starts in the file.
    expect(results.map((x) => x.line)).toEqual([2, 6, 10]);
    expect(results[1].error).toContain('organization 999 does not exist');
    expect(results[0].id).toBeDefined();
    expect(results[2].id).toBeDefined();
  });

  it('--dry-run prints rows, cost and time at the current budget, and sends no write', async () => {
    await control(fx, 'PUT', 'config', { budget: { limit: 400, windowSec: 2 } });
    const f = file('leads.ndjson', rows(100, (i) => ({ title: `Dry ${i}`, organization_id: 1 })));
    const r = await run(['import', 'leads', '--file', f, '--dry-run', '--json']);
    await control(fx, 'PUT', 'config', { budget: { limit: 100000, windowSec: 2 } });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ operation: 'POST /api/v1/leads', rows: 100, valid: 100, to_send: 100, cost_per_row: 10, total_cost: 1000, budget_per_window: 400, window_sec: 2, estimated_seconds: 5 });
    expect(await posts()).toEqual([]);
    expect(existsSync(`${f}.import-state.json`)).toBe(false);
  });
});

describe('import resume and reconcile', () => {
  it('a row left "sending" by a crash whose POST landed is found by its marker, not sent again', async () => {
    const f = file('leads.ndjson', rows(3, (i) => ({ title: `Crash ${i}`, organization_id: 1 })));
    const runId = 'abc123abc123';
    // Line 2's create reached the service before the crash; line 3 never left.
    const landed = await run(['leads', 'create', '--title', 'Crash 2', '--organization-id', '1', '--origin-id', `crmctl-import:${runId}:2`, '--json']);
    const landedId = JSON.parse(landed.stdout).id;
    const first = await run(['leads', 'create', '--title', 'Crash 1', '--organization-id', '1', '--origin-id', `crmctl-import:${runId}:1`, '--json']);
    const firstId = JSON.parse(first.stdout).id;
    const now = Date.now();
    const sent = (i: number) => ({ title: `Crash ${i}`, organization_id: 1, origin_id: `crmctl-import:${runId}:${i}` });
    const input = importInput('leads', 'ndjson', null, f, await hashFile(f));
    writeFileSync(`${f}.import-state.json`, `${[
      await journalHeader(fx, 'import', input, { run_id: runId, resource: 'leads', file: f, format: 'ndjson' }),
      { key: '1', op: 'create', status: 'sending', at: now, sent: sent(1) }, { key: '1', status: 'done', id: firstId },
      { key: '2', op: 'create', status: 'sending', at: now, sent: sent(2) },
      { key: '3', op: 'create', status: 'sending', at: now, sent: sent(3) },
    ].map((e) => JSON.stringify(e)).join('\n')}\n{"key":"3","status":"done","id":"torn`);
    await fx.clearRequests();
    const r = await run(['import', 'leads', '--file', f, '--resume']);
    expect(r.code, r.stderr).toBe(0);
    expect((await posts()).map((p) => (p.body as { title: string }).title)).toEqual(['Crash 3']);
    const crash = await leadsByTitle('Crash ');
    expect(crash.map((l) => l.title).sort()).toEqual(['Crash 1', 'Crash 2', 'Crash 3']);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results[0]).toEqual({ line: 1, id: firstId });
    expect(results[1]).toEqual({ line: 2, id: landedId });
    expect(results[2].id).toBe(crash.find((l) => l.title === 'Crash 3')!.id);
  });

  it('continues after kill -9 mid-run: every row exactly once, checked against the sandbox', async () => {
    const n = 240;
    const f = file('leads.ndjson', rows(n, (i) => ({ title: `Killed ${i}`, organization_id: (i % 6) + 1 })));
    await control(fx, 'PUT', 'faults', { latencyMs: 15, seed: 1 });
    const journal = `${f}.import-state.json`;
    await killMidRun(['import', 'leads', '--file', f, '--concurrency', '4'], fx.env, () => countIn(journal, '"id"') >= 60);
    await control(fx, 'PUT', 'faults', {});
    const before = (await leadsByTitle('Killed ')).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(n);
    const r = await run(['import', 'leads', '--file', f, '--resume']);
    expect(r.code, r.stderr).toBe(0);
    const created = await leadsByTitle('Killed ');
    const lines = created.map((l) => Number(String(l.origin_id).split(':')[2])).sort((a, b) => a - b);
    expect(lines).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.length).toBe(n);
    expect(new Set(results.map((x) => x.id)).size).toBe(n);
    expect(results.every((x) => created.some((l) => l.id === x.id))).toBe(true);
  });

  it('a finished import run again sends nothing (exit 0, "already done"); --resume likewise; --new-run imports again and keeps the old record', async () => {
    const f = file('leads.ndjson', rows(2, (i) => ({ title: `Twice ${i}`, organization_id: 1 })));
    expect((await run(['import', 'leads', '--file', f])).code).toBe(0);
    await fx.clearRequests();
    for (const extra of [[], ['--resume']]) {
      const again = await run(['import', 'leads', '--file', f, ...extra]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/^Import already done at \d{4}-\d\d-\d\dT[\d:.]+Z: 2 created, 0 failed \(run [0-9a-f]{12}\); nothing sent\. --new-run to start again\.\n$/);
      expect(await posts()).toEqual([]);
    }
    const fresh = await run(['import', 'leads', '--file', f, '--new-run']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toMatch(/The earlier run [0-9a-f]{12} is kept: its journal is now .*runs\/journals\/[0-9a-f]{12}\.ndjson/);
    expect((await leadsByTitle('Twice ')).length).toBe(4);
  });

  it('creates every row exactly once through connection resets after commit (reconciled in-run)', async () => {
    const f = file('leads.ndjson', rows(60, (i) => ({ title: `Reset ${i}`, organization_id: (i % 6) + 1 })));
    await control(fx, 'PUT', 'faults', { rateReset: 0.3, resetAfterCommitShare: 1, seed: 1 });
    // One worker: the seeded fault sequence then meets the requests in the same order on every run
    // (with 4 workers the order, and so which request a reset hits, varied between runs).
    const r = await run(['import', 'leads', '--file', f, '--concurrency', '1']);
    await control(fx, 'PUT', 'faults', {});
    expect(r.code, r.stderr).toBe(0);
    const reqs = await fx.requests();
    const resetPosts = reqs.filter((q) => q.method === 'POST' && (q as { fault?: string }).fault === 'reset-after');
    expect(resetPosts.length).toBeGreaterThan(5);
    const created = await leadsByTitle('Reset ');
    expect(created.length).toBe(60);
    const lines = created.map((l) => Number(String(l.origin_id).split(':')[2])).sort((a, b) => a - b);
    expect(lines).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.every((x) => created.some((l) => l.id === x.id))).toBe(true);
  });
});

describe('import natural-key resources', () => {
  it('lead labels: refuses names repeated in the file; a name that exists is a row error, not a duplicate', async () => {
    const dup = file('labels.ndjson', rows(3, (i) => ({ name: i === 3 ? 'Partner' : `Label ${i}`, color: 'green' })).replace('Label 1', 'Partner'));
    const r = await run(['import', 'lead-labels', '--file', dup]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 3: name: repeats line 1 ("Partner")');

    const f = file('labels.csv', 'name,color\nPartner,green\nHot,red\n');
    const ok = await run(['import', 'labels', '--file', f]);
    expect(ok.code).toBe(7);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results[0].id).toBeDefined();
    expect(results[1].error).toMatch(/^name: "Hot" already exists \(id [0-9a-f-]+\)/);
    const labels = await fx.collection<{ name: string }>('leadLabels');
    expect(labels.filter((l) => l.name === 'Hot').length).toBe(1);
    expect(labels.filter((l) => l.name === 'Partner').length).toBe(1);
  });

  it('a row whose answer is lost and whose look-up fails stays unsettled; --resume settles it without a duplicate', async () => {
    const f = file('orgs-unsettled.ndjson', rows(4, (i) => ({ name: `Unsettled ${i}` })));
    // Every request faults: a create is cut after commit or refused with a 5xx, and so is every
    // look-up (no retries), so no row's outcome can be known during the run.
    await control(fx, 'PUT', 'faults', { rateReset: 0.5, resetAfterCommitShare: 1, rate5xx: 0.5, seed: 3 });
    const env = { ...fx.env, CRMCTL_MAX_RETRIES: '0' };
    const first = await runCli(['import', 'organizations', '--file', f, '--concurrency', '1'], { env });
    await control(fx, 'PUT', 'faults', {});
    expect(first.code, first.stderr).toBe(7);
    const before = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(before.map((x) => x.line)).toEqual([1, 2, 3, 4]);
    for (const x of before) expect(x.error).toMatch(/^outcome unknown: the create may have landed and looking it up failed \(.+\); --resume looks it up again/);
    const landed = (await fx.collection<{ name: string }>('organizations')).filter((o) => o.name.startsWith('Unsettled ')).length;
    expect(landed).toBeGreaterThan(0); // some creates were committed before their answer was cut

    await fx.clearRequests();
    const resumed = await runCli(['import', 'organizations', '--file', f, '--resume'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const orgs = (await fx.collection<{ id: number; name: string }>('organizations')).filter((o) => o.name.startsWith('Unsettled '));
    expect(orgs.map((o) => o.name).sort()).toEqual(['Unsettled 1', 'Unsettled 2', 'Unsettled 3', 'Unsettled 4']);
    // Only the rows that had not landed were sent again.
    expect((await posts()).length).toBe(4 - landed);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.map((x) => [x.line, orgs.find((o) => o.id === x.id)?.name])).toEqual([[1, 'Unsettled 1'], [2, 'Unsettled 2'], [3, 'Unsettled 3'], [4, 'Unsettled 4']]);
  });

  it('notes: a create whose answer is lost is found by its content, never resent, and the results name it', async () => {
    const f = file('notes.ndjson', rows(3, (i) => ({ content: `<p>Note ${i}</p>`, person_id: 1 })));
    // About every other request (the first one included, seed 9) is cut after the service committed it.
    await control(fx, 'PUT', 'faults', { rateReset: 0.5, resetAfterCommitShare: 1, seed: 9 });
    const r = await runCli(['import', 'notes', '--file', f, '--concurrency', '1'], { env: { ...fx.env, CRMCTL_MAX_RETRIES: '10', CRMCTL_RETRY_BASE_MS: '5' } });
    await control(fx, 'PUT', 'faults', {});
    expect(r.code, r.stderr).toBe(0);
    const requests = await fx.requests();
    const notePosts = requests.filter((q) => q.method === 'POST' && /\/notes$/.test(q.path));
    const lookups = requests.filter((q) => q.method === 'GET' && /\/notes$/.test(q.path) && (q.query as Record<string, unknown>)?.updated_since !== undefined);
    expect(lookups.length).toBeGreaterThan(0);
    const notes = (await fx.collection<{ id: number; content: string }>('notes')).filter((n) => /^<p>Note \d<\/p>$/.test(n.content));
    // One note per row, each sent exactly once (every one landed, so none was resent).
    expect(notes.map((n) => n.content).sort()).toEqual(['<p>Note 1</p>', '<p>Note 2</p>', '<p>Note 3</p>']);
    expect(notePosts.length).toBe(3);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.map((x) => [x.line, notes.find((n) => n.id === x.id)?.content])).toEqual([[1, '<p>Note 1</p>'], [2, '<p>Note 2</p>'], [3, '<p>Note 3</p>']]);
  });
});
