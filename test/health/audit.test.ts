// crmctl audit against the demo sandbox: the findings it reports are exactly the dirt of the demo
// seed (src/sandbox/seed/dirt.ts, plus the demo's own: three deals that never had an activity and
// organizations without the VAT number the account requires), each list is read once, the settings
// file is checked key by key before anything is read, and --strict gates a CI job.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

const AS_OF = ['--as-of', '2025-02-01'];

/** Every finding of the demo account on 1 Feb 2025 with phones read as Estonian, worst first. */
const DEMO_FINDINGS = [
  'error missing-currency organization 7', // Acme Corp.: Annual revenue without currency (dirt)
  'error missing-currency person 14', // Dana Doyle: Lifetime value without currency (dirt)
  'error missing-currency deal 17', // Wayne loyalty programme: value without currency (dirt)
  'error invalid-emails person 14', // dana.doyle@example (dirt)
  'warning duplicate-persons person 1,11', // Alice Anderson: same e-mail in other case, name typo (dirt)
  'warning duplicate-persons person 2,12', // Bob Bērziņš: same phone written without spaces (dirt)
  'warning duplicate-persons person 3,13', // Carla Korhonnen: names alike only (dirt)
  'warning duplicate-organizations organization 1,7', // Acme Corp.: legal form, same website (dirt)
  'warning duplicate-organizations organization 4,8', // Umbrela Logistics: a letter missing (dirt)
  'warning no-next-activity deal 1', // the demo's own: never had an activity
  'warning no-next-activity deal 5', // the demo's own
  'warning no-next-activity deal 7', // the demo's own (persons seed)
  'warning no-next-activity deal 18', // Globex renewal 2025 (dirt)
  'warning stale-deals deal 15', // Initech expansion, unchanged since 15 Nov 2024 (dirt)
  'warning close-date-past deal 16', // Stark spare parts, due 15 Jan 2025 (dirt)
  'warning overdue-activities activity 14', // Send revised quote, due 20 Jan 2025 (dirt)
  'warning invalid-phones person 14', // 12345 (dirt)
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((id) => `info empty-fields organization ${id}`), // VAT number is required by the account
];

const line = (f: { severity: string; check: string; kind: string; ids: number[] }) => `${f.severity} ${f.check} ${f.kind} ${f.ids.join(',')}`;

async function apiRequests() {
  return (await fx.requests()).filter((r) => r.path.startsWith('/api/'));
}

describe('crmctl audit: the findings', () => {
  it('finds exactly the demo dirt, worst first, each with a message naming the problem', async () => {
    const r = await runCli(['audit', ...AS_OF, '--region', 'EE', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const findings = JSON.parse(r.stdout) as Array<{ severity: string; check: string; kind: string; ids: number[]; name: string; message: string; key: string }>;
    expect(findings.map(line)).toEqual(DEMO_FINDINGS);
    const msg = (check: string, id: number) => findings.find((f) => f.check === check && f.ids[0] === id)?.message;
    expect(msg('stale-deals', 15)).toBe('not changed for 78 days in Contact Made (limit 30)');
    expect(msg('close-date-past', 16)).toBe('still open; expected to close on 2025-01-15 (17 days ago)');
    expect(msg('overdue-activities', 14)).toBe('task due 2025-01-20, 12 days overdue');
    expect(msg('invalid-emails', 14)).toBe('e-mail "dana.doyle@example": the domain "example" is not a host name');
    expect(msg('invalid-phones', 14)).toBe('phone "12345": not a valid number in EE');
    expect(msg('missing-currency', 7)).toBe('Annual revenue 250000 has no currency');
    expect(msg('duplicate-persons', 1)).toBe('2 records: same e-mail alice.andersson@example.org; names 0.93 alike: "Alice Andersson" ~ "Alice Anderson"');
    expect(msg('duplicate-persons', 2)).toBe('2 records: same phone +37255501037; same name "Bob Berzins" ~ "Bob Bērziņš"');
    expect(msg('duplicate-organizations', 1)).toBe('2 records: same website acme.example.com; same name "Acme Corporation" ~ "Acme Corp."');
    expect(msg('empty-fields', 3)).toBe('empty: VAT number');
  });

  it('without a region, a national number cannot be told valid and says why', async () => {
    const r = await runCli(['audit', ...AS_OF, '--checks', 'invalid-phones', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((f: { ids: number[]; message: string }) => `${f.ids[0]} ${f.message}`)).toEqual([
      '13 phone "5550 2000": no country code, and no phone_region to read a national number in',
      '14 phone "12345": no country code, and no phone_region to read a national number in',
    ]);
  });

  it('reads each list once, every page, and the stage and field lists once each', async () => {
    const r = await runCli(['audit', ...AS_OF, '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const reqs = await apiRequests();
    expect(reqs.map((q) => `${q.method} ${q.path}`).sort()).toEqual([
      'GET /api/v2/activities',
      'GET /api/v2/dealFields',
      'GET /api/v2/deals',
      'GET /api/v2/organizationFields',
      'GET /api/v2/organizations',
      'GET /api/v2/personFields',
      'GET /api/v2/persons',
      'GET /api/v2/stages',
    ]);
    // Only activities not done (the next step of a deal, and the overdue ones), 500 a page.
    expect(reqs.find((q) => q.path === '/api/v2/activities')!.query).toMatchObject({ done: 'false', limit: '500' });
    expect(reqs.every((q) => q.method === 'GET' && q.status === 200)).toBe(true);
  });

  it('reads only what the chosen checks need', async () => {
    const r = await runCli(['audit', ...AS_OF, '--checks', 'invalid-emails,duplicate-persons', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect((await apiRequests()).map((q) => q.path)).toEqual(['/api/v2/persons']);
  });
});

describe('crmctl audit: output and cost', () => {
  it('piped: TSV of severity, check, kind, ids, name, message', async () => {
    const r = await runCli(['audit', ...AS_OF, '--checks', 'stale-deals'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('warning\tstale-deals\tdeal\t15\tInitech expansion\tnot changed for 78 days in Contact Made (limit 30)\n');
    expect(r.stderr).toBe('');
  });

  it('--output ndjson: one finding per line with its key', async () => {
    const r = await runCli(['audit', ...AS_OF, '--checks', 'close-date-past', '--output', 'ndjson'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { check: 'close-date-past', kind: 'deal', ids: [16], name: 'Stark spare parts', message: 'still open; expected to close on 2025-01-15 (17 days ago)', key: 'close-date-past|deal|16|2025-01-15', severity: 'warning' },
    ]);
  });

  it('on a terminal: what it reads and its least cost against the daily budget, then the table and a summary', async () => {
    const r = await runCli(['audit', ...AS_OF, '--checks', 'stale-deals,overdue-activities'], { env: fx.env, tty: true, columns: 160 });
    expect(r.code, r.stderr).toBe(0);
    const err = r.stderr.split('\n');
    expect(err[0]).toBe('audit reads: activities not done, deals (10 tokens a page of 500 records each); stages (5)');
    expect(err[1]).toMatch(/^cost: at least 25 tokens of [\d,]+ left today$/);
    expect(r.stderr).toContain('audit as of 2025-02-01: 2 findings (2 warning) in 17 deals, 10 activities not done; 25 tokens spent.');
    expect(r.stdout).toContain('│ warning  │ stale-deals        │ deal     │ 15  │');
    expect(r.stdout).toContain('│ warning  │ overdue-activities │ activity │ 14  │');
  });

  it('--list-checks: every check with its severity and thresholds, reading nothing', async () => {
    const r = await runCli(['audit', '--list-checks', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Array<{ check: string; severity: string; thresholds: string }>;
    expect(rows.map((c) => c.check)).toEqual(['duplicate-persons', 'duplicate-organizations', 'no-next-activity', 'stale-deals', 'close-date-past', 'empty-fields', 'overdue-activities', 'missing-currency', 'invalid-emails', 'invalid-phones']);
    expect(rows.find((c) => c.check === 'stale-deals')).toMatchObject({ severity: 'warning', thresholds: 'days 30' });
    expect(await apiRequests()).toEqual([]);
  });
});

describe('crmctl audit --strict: a CI gate', () => {
  it('exit 8 when a finding is at or above warning (the bare flag), with one line on stderr', async () => {
    const r = await runCli(['audit', ...AS_OF, '--checks', 'stale-deals,empty-fields', '--strict'], { env: fx.env });
    expect(r.code).toBe(8);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(9);
    expect(r.stderr).toBe('audit --strict warning: 1 finding (1 warning) at or above warning; exit 8.\n');
  });

  it('exit 0 when every finding is below the gate', async () => {
    const r = await runCli(['audit', ...AS_OF, '--checks', 'stale-deals,empty-fields', '--strict', 'error'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('an unknown severity is exit 2 naming the flag, nothing read', async () => {
    const r = await runCli(['audit', '--strict', 'fatal'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --strict: must be one of info, warning, error (got "fatal")');
    expect(await apiRequests()).toEqual([]);
  });
});

describe('crmctl audit: the settings file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'crmctl-audit-'));
  });
  const write = (text: string) => {
    const file = join(dir, 'audit.yaml');
    writeFileSync(file, text);
    return file;
  };

  it('an unknown key is exit 2 naming it (and the nearest known one); nothing is read', async () => {
    const file = write('checks:\n  stale-deals:\n    dayz: 10\n');
    const r = await runCli(['audit', '--config', file], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${file}: unknown key "checks.stale-deals.dayz" (did you mean "days"?)`);
    expect(await apiRequests()).toEqual([]);
  });

  it('an unknown check is refused the same way', async () => {
    const file = write('checks:\n  stale-deal:\n    days: 10\n');
    const r = await runCli(['audit', '--config', file], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${file}: unknown key "checks.stale-deal" (did you mean "stale-deals"?)`);
  });

  it('a value that breaks its rule is exit 2 naming the key and the rule', async () => {
    const file = write('checks:\n  stale-deals:\n    days: 0\n  invalid-phones:\n    severity: fatal\n');
    const r = await runCli(['audit', '--config', file], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: checks.stale-deals.days: must be at least 1`);
    expect(r.stderr).toContain(`${file}: checks.invalid-phones.severity: must be one of info, warning, error`);
    expect(await apiRequests()).toEqual([]);
  });

  it('.crmctl/audit.yaml of the current directory is read by default', async () => {
    const { loadAuditConfig } = await import('../../src/health/audit/config.js');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, '.crmctl'));
    writeFileSync(join(dir, '.crmctl', 'audit.yaml'), 'phone_region: ee\nchecks:\n  stale-deals:\n    days: 12\n');
    const cfg = loadAuditConfig(undefined, dir);
    expect(cfg.source).toBe(join('.crmctl', 'audit.yaml'));
    expect(cfg.phoneRegion).toBe('EE');
    expect(cfg.staleDeals.days).toBe(12);
    expect(loadAuditConfig(undefined, tmpdir()).source).toBe('defaults');
  });

  it('thresholds per stage (by name, Pipeline/Stage or id), severities and switches take effect', async () => {
    const file = write([
      'checks:',
      '  stale-deals:',
      '    severity: error',
      '    days: 60',
      '    stages:',
      '      Demo Scheduled: 3', // deals 1 (24 days) and 18 (3 days)
      '      Sales/Qualified: 5', // deal 16 (7 days); deal 2 (23 days)
      '      7: 20', // Partnerships/Evaluation: deal 5 (20 days)
      '  empty-fields:',
      '    account_required: false',
      '    deals: [Expected close date, Lead score]',
    ].join('\n'));
    const r = await runCli(['audit', ...AS_OF, '--config', file, '--checks', 'stale-deals,empty-fields', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout).map((f: { severity: string; check: string; ids: number[]; message: string }) => `${f.severity} ${f.check} ${f.ids[0]}: ${f.message}`);
    expect(got).toEqual([
      'error stale-deals 1: not changed for 24 days in Demo Scheduled (limit 3)',
      'error stale-deals 2: not changed for 23 days in Qualified (limit 5)',
      'error stale-deals 5: not changed for 20 days in Evaluation (limit 20)',
      'error stale-deals 15: not changed for 78 days in Contact Made (limit 60)',
      'error stale-deals 16: not changed for 7 days in Qualified (limit 5)',
      'error stale-deals 18: not changed for 3 days in Demo Scheduled (limit 3)',
      // The seeds set Lead score on the demo deals (1-6) only; deal 14 was added after 1 Feb 2025.
      'info empty-fields 7: empty: Lead score',
      'info empty-fields 15: empty: Lead score',
      'info empty-fields 16: empty: Lead score',
      'info empty-fields 17: empty: Lead score',
      'info empty-fields 18: empty: Lead score',
    ]);
  });

  it('a stage or a field the account does not have is exit 2 naming the setting, before any record is read', async () => {
    const file = write('checks:\n  stale-deals:\n    stages:\n      Demo Sheduled: 3\n');
    const r = await runCli(['audit', '--config', file, '--checks', 'stale-deals'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${file}: checks.stale-deals.stages.Demo Sheduled: no such stage in the account (did you mean "Demo Scheduled"?)`);
    expect((await apiRequests()).map((q) => q.path)).toEqual(['/api/v2/stages']);
    const file2 = write('checks:\n  empty-fields:\n    persons: [Langauge]\n');
    const r2 = await runCli(['audit', '--config', file2, '--checks', 'empty-fields'], { env: fx.env });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(`checks.empty-fields.persons: no person field "Langauge"`);
  });

  it('--as-of and --region are checked before anything is read', async () => {
    const a = await runCli(['audit', '--as-of', '2025-02-30'], { env: fx.env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('error: --as-of: must be a date YYYY-MM-DD (got "2025-02-30")');
    const b = await runCli(['audit', '--region', 'Estonia'], { env: fx.env });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('error: --region: must be a two-letter country code such as EE, US, GB (got "Estonia")');
    const c = await runCli(['audit', '--checks', 'stale,invalid-emails'], { env: fx.env });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('error: --checks: unknown check "stale"; the checks: duplicate-persons');
    expect(await apiRequests()).toEqual([]);
  });
});
