// Custom fields by name (issue 20): written with --field NAME=VALUE, read back by name in tables, CSV
// and --names JSON; refusals name the flag and the rule with nothing sent; field metadata read at most
// once per command and kept per profile (a field command makes it stale).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEAL_FIELD_KEYS } from '../../src/sandbox/seed/base.js';
import { PERSON_FIELD_KEYS } from '../../src/sandbox/handlers/fields.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
let config: string;
const run = (args: string[]) => runCli(args, { env: { ...fx.env, CRMCTL_CONFIG_DIR: config } });
const ok = async (args: string[]) => {
  const r = await run(args);
  // An export of deals or leads says whether archived records are in it (the service's lists leave them out).
  const archivedNote = /^export (deals|leads)\b/.test(args.join(' ')) && !args.includes('--include-archived');
  expect(r.stderr, args.join(' ')).toBe(archivedNote ? `note: archived ${args[1]} are not included (the service leaves them out of its ${args[1]} list); --include-archived adds them.\n` : '');
  expect(r.code).toBe(0);
  return r.stdout;
};
const sent = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}`);
const K = DEAL_FIELD_KEYS;

/** Every value family the sandbox seeds for deals, by name. */
const EVERY_TYPE = [
  '--field', 'Deal notes=Call after the audit',
  '--field', 'Lead score=40',
  '--field', 'Budget=5000 EUR',
  '--field', 'Segment=Enterprise',
  '--field', 'Interests=Licences,Training',
  '--field', 'Renewal date=2026-05-01',
  '--field', 'Account manager=2',
  '--field', 'Partner=2',
  '--field', 'Technical contact=1',
];
const NAMES = ['Deal notes', 'Lead score', 'Budget', 'Segment', 'Interests', 'Renewal date', 'Account manager', 'Partner', 'Technical contact'];

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
  config = tempConfigDir();
});

describe('writing custom fields by name', () => {
  it('sends every type under its hash key, typed (option ids, money with currency, ids)', async () => {
    await ok(['deals', 'update', '1', ...EVERY_TYPE, '--json']);
    const patch = (await fx.requests()).find((r) => r.method === 'PATCH')!;
    expect(patch.body).toEqual({
      custom_fields: {
        [K.notes]: 'Call after the audit', [K.leadScore]: 40, [K.budget]: 5000, [`${K.budget}_currency`]: 'EUR', [K.segment]: 103,
        [K.interests]: [111, 113], [K.renewal]: '2026-05-01', [K.accountManager]: 2, [K.partner]: 2, [K.technicalContact]: 1,
      },
    });
    // The deal as it was (the values the write replaces are recorded), users/me (the run's account), the write.
    expect(await sent()).toEqual(['GET /api/v2/dealFields', 'GET /api/v2/deals/1', 'GET /api/v1/users/me', 'PATCH /api/v2/deals/1']);
  });

  it('reads them back by name: table columns via --fields, CSV, and --names JSON', async () => {
    await ok(['deals', 'update', '1', ...EVERY_TYPE]);
    const tsv = await ok(['deals', 'list', '--limit', '1', '--fields', ['id', ...NAMES].join(','), '--output', 'tsv']);
    // TSV has no header (docs/output.md): the cells in the order --fields named them; user, organization
    // and person fields name the record they link to.
    expect(tsv).toBe('1\tCall after the audit\t40\t5000 EUR\tEnterprise\tLicences, Training\t2026-05-01\tReggie Regular\tGlobex Industries\tAlice Andersson\n');
    const csv = await ok(['deals', 'list', '--limit', '1', '--fields', 'title,Budget,Interests', '--output', 'csv']);
    expect(csv).toBe('title,Budget,Interests\r\nAcme annual licence,5000 EUR,"Licences, Training"\r\n');
    const named = JSON.parse(await ok(['deals', 'get', '1', '--names', '--json']));
    expect(named).not.toHaveProperty('custom_fields');
    expect(Object.fromEntries(NAMES.map((n) => [n, named[n]]))).toEqual({
      'Deal notes': 'Call after the audit', 'Lead score': 40, Budget: { value: 5000, currency: 'EUR' }, Segment: 'Enterprise',
      Interests: ['Licences', 'Training'], 'Renewal date': '2026-05-01', 'Account manager': 2, Partner: 2, 'Technical contact': 1,
    });
    // Without --names, JSON keeps the service's record shape.
    const plain = JSON.parse(await ok(['deals', 'get', '1', '--json']));
    expect(plain.custom_fields[K.segment]).toBe(103);
  });

  it('takes names case-insensitively and the hash key too; an empty value clears', async () => {
    await ok(['deals', 'update', '1', '--field', 'lead SCORE=7', '--field', `${K.segment}=SMB`]);
    await ok(['deals', 'update', '1', '--field', 'Lead score=']);
    const deal = (await fx.collection<{ id: number; custom_fields: Record<string, unknown> }>('deals')).find((d) => d.id === 1)!;
    expect(deal.custom_fields[K.segment]).toBe(101);
    expect(deal.custom_fields[K.leadScore] ?? null).toBeNull();
  });

  it('a create takes them too, and persons put theirs in custom_fields', async () => {
    const out = JSON.parse(await ok(['persons', 'create', '--name', 'Named Person', '--field', 'Preferred language=Finnish', '--field', 'Lifetime value=12.5 USD', '--json']));
    expect(out.custom_fields[PERSON_FIELD_KEYS.language]).toBe(203);
    const post = (await fx.requests()).find((r) => r.method === 'POST')!;
    expect(post.body).toEqual({ name: 'Named Person', custom_fields: { [PERSON_FIELD_KEYS.language]: 203, [PERSON_FIELD_KEYS.lifetimeValue]: 12.5, [`${PERSON_FIELD_KEYS.lifetimeValue}_currency`]: 'USD' } });
  });

  it('leads (v1) carry them as top-level keys', async () => {
    const lead = JSON.parse(await ok(['leads', 'create', '--title', 'Named lead', '--organization-id', '1', '--field', 'Segment=SMB', '--field', 'Lead score=12', '--json']));
    expect(lead[K.segment]).toBe(101);
    expect(lead[K.leadScore]).toBe(12);
  });
});

describe('refusals (exit 2, nothing written)', () => {
  it.each([
    [['--field', 'Lead scroe=4'], '--field Lead scroe: unknown deal custom field "Lead scroe" (did you mean "Lead score"?)'],
    [['--field', 'Segment=Huge'], '--field Segment: Segment (enum) unknown option "Huge"; allowed: SMB, Mid-market, Enterprise'],
    [['--field', 'Interests=Licences,Nope'], '--field Interests: Interests (set) unknown option "Nope"; allowed: Licences, Services, Training'],
    [['--field', 'Budget=5000'], '--field Budget: Budget (monetary) needs a currency: give the amount and a 3-letter currency code, e.g. "5000 EUR"'],
    [['--field', 'Renewal date=2026-02-30'], '--field Renewal date: Renewal date (date) must be a date YYYY-MM-DD (got "2026-02-30")'],
    [['--field', 'Lead score=forty'], '--field Lead score: Lead score (double) must be a number (got "forty")'],
    [['--field', 'Account manager=Ada'], '--field Account manager: Account manager (user) no user "Ada"; give a name, an email or an id (crmctl users list)'],
    [['--field', 'Partner=Globex'], '--field Partner: Partner (org) no organization "Globex"'],
    [['--field', 'no equals sign'], '--field: must be NAME=VALUE, e.g. --field "Lead score=40" (got "no equals sign")'],
  ])('%j', async (flags, message) => {
    const r = await run(['deals', 'update', '1', ...flags]);
    expect(r.stderr).toContain(message);
    expect(r.code).toBe(2);
    expect((await sent()).filter((s) => !s.startsWith('GET'))).toEqual([]);
  });

  it('names every bad field at once', async () => {
    const r = await run(['deals', 'create', '--title', 'x', '--field', 'Segmnt=SMB', '--field', 'Budget=10']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--field Segmnt: unknown deal custom field "Segmnt" (did you mean "Segment"?)');
    expect(r.stderr).toContain('--field Budget: Budget (monetary) needs a currency');
    expect(await sent()).toEqual(['GET /api/v2/dealFields']);
  });
});

describe('field metadata: one read, kept per profile', () => {
  it('a plain list reads none; names read the fields once, then the cache serves later commands', async () => {
    await ok(['deals', 'list', '--limit', '2']);
    expect((await sent()).filter((s) => s.includes('Fields'))).toEqual([]);
    await fx.clearRequests();
    await ok(['deals', 'update', '1', '--field', 'Lead score=41', '--fields', 'id,Lead score']);
    await ok(['deals', 'list', '--fields', 'id,Budget,Segment']);
    await ok(['deals', 'get', '1', '--names', '--json']);
    expect((await sent()).filter((s) => s.includes('Fields'))).toEqual(['GET /api/v2/dealFields']);
  });

  it('CRMCTL_FIELDS_TTL_SEC=0 reads them on every command', async () => {
    const env = { ...fx.env, CRMCTL_CONFIG_DIR: config, CRMCTL_FIELDS_TTL_SEC: '0' };
    for (let i = 0; i < 2; i++) expect((await runCli(['deals', 'get', '1', '--names', '--json'], { env })).code).toBe(0);
    expect((await sent()).filter((s) => s.includes('Fields'))).toEqual(['GET /api/v2/dealFields', 'GET /api/v2/dealFields']);
  });

  it('a field renamed with deal-fields update is picked up by the next command', async () => {
    await ok(['deals', 'get', '1', '--fields', 'id,Lead score', '--output', 'tsv']);
    await ok(['deal-fields', 'update', K.leadScore, '--field-name', 'Score']);
    expect(await ok(['deals', 'list', '--limit', '1', '--fields', 'id,Score', '--output', 'csv'])).toBe('id,Score\r\n1,40\r\n');
    const old = await run(['deals', 'update', '1', '--field', 'Lead score=1']);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('unknown deal custom field "Lead score"');
  });
});

describe('export and import by name', () => {
  it('a CSV export heads custom columns by name and imports into another account by name', async () => {
    const other = await startFixture();
    try {
      await ok(['deals', 'update', '1', '--field', 'Budget=5000 EUR', '--field', 'Segment=Enterprise', '--field', 'Interests=Services']);
      const csv = await ok(['export', 'deals', '--format', 'csv']);
      const [header, first] = csv.split(/\r?\n/);
      expect(header).toContain(',Lead score,Budget,Budget currency,Segment,Deal notes,Interests,Renewal date,Account manager,Partner,Technical contact');
      expect(header).not.toMatch(/[0-9a-f]{40}|custom_fields/);
      expect(first).toContain(',40,5000,EUR,Enterprise,,Services,');

      const { writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      const file = join(tempConfigDir(), 'deals.csv');
      writeFileSync(file, `${header}\n${first}\n`);
      await other.reset('empty');
      await other.reset('demo');
      const imp = await runCli(['import', 'deals', '--file', file], { env: other.env });
      expect(imp.code, imp.stderr).toBe(0);
      const created = (await other.requests()).find((r) => r.method === 'POST' && r.path === '/api/v2/deals')!;
      expect((created.body as { custom_fields: unknown }).custom_fields).toEqual({ [K.leadScore]: 40, [K.budget]: 5000, [`${K.budget}_currency`]: 'EUR', [K.segment]: 103, [K.interests]: [112] });
    } finally {
      await other.close();
    }
  });
});

describe('fixtures take the same names', () => {
  it('a deal spec with fields: by name (and names inside custom_fields) is sent under hash keys; a bad option is refused', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = tempConfigDir();
    const file = join(dir, 'deal.yaml');
    const spec = (segment: string) => `- kind: deal\n  name: named\n  spec:\n    title: Named fixture deal\n    fields:\n      Budget: 5000 EUR\n      Segment: ${segment}\n    custom_fields:\n      Lead score: 33\n`;
    writeFileSync(file, spec('Huge'));
    const bad = await run(['apply', '-f', file, '--state', join(dir, 'state.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('spec.fields.Segment: Segment (enum) unknown option "Huge"; allowed: SMB, Mid-market, Enterprise');
    expect((await sent()).filter((s) => !s.startsWith('GET'))).toEqual([]);
    writeFileSync(file, spec('SMB'));
    expect((await run(['apply', '-f', file, '--state', join(dir, 'state.json')])).code).toBe(0);
    const post = (await fx.requests()).find((r) => r.method === 'POST' && r.path === '/api/v2/deals')!;
    expect(post.body).toEqual({ title: 'Named fixture deal', custom_fields: { [K.leadScore]: 33, [K.budget]: 5000, [`${K.budget}_currency`]: 'EUR', [K.segment]: 101 } });
  });
});
