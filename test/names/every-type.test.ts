// Issue 20, point 7: every type of the sandbox's seeded deal custom fields (text, number, monetary,
// option, set, date, user, org, person) written by name and read back by name through each door a
// person or an assistant uses: the table (-o table), CSV, `--names` JSON and the MCP tools. One row of
// TYPES per field: the value written, then what each door shows. Around it: a misspelt name and a bad
// option refused with nothing sent (CLI and MCP), a field renamed with `deal-fields update` picked up
// by the next command, and the field list read once per profile, as the request log counts it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEAL_FIELD_KEYS as K } from '../../src/sandbox/seed/base.js';
import { BIN, cleanEnv, runCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

interface Cell {
  name: string;
  type: string;
  /** As written: `--field NAME=VALUE` and the MCP tool's custom_fields by name. */
  write: string;
  /** What the service stores under the hash key (and its companion members). */
  stored: Record<string, unknown>;
  /** The table and CSV cell. */
  cell: string;
  /** The value under the field's name in `--names` JSON and MCP `names: true`. */
  named: unknown;
}

const TYPES: Cell[] = [
  { name: 'Deal notes', type: 'text', write: 'Call after the audit', stored: { [K.notes]: 'Call after the audit' }, cell: 'Call after the audit', named: 'Call after the audit' },
  { name: 'Lead score', type: 'number', write: '73', stored: { [K.leadScore]: 73 }, cell: '73', named: 73 },
  { name: 'Budget', type: 'monetary', write: '5000 EUR', stored: { [K.budget]: 5000, [`${K.budget}_currency`]: 'EUR' }, cell: '5000 EUR', named: { value: 5000, currency: 'EUR' } },
  { name: 'Segment', type: 'option', write: 'Enterprise', stored: { [K.segment]: 103 }, cell: 'Enterprise', named: 'Enterprise' },
  { name: 'Interests', type: 'set', write: 'Licences,Training', stored: { [K.interests]: [111, 113] }, cell: 'Licences, Training', named: ['Licences', 'Training'] },
  { name: 'Renewal date', type: 'date', write: '2026-05-01', stored: { [K.renewal]: '2026-05-01' }, cell: '2026-05-01', named: '2026-05-01' },
  { name: 'Account manager', type: 'user', write: 'Reggie Regular', stored: { [K.accountManager]: 2 }, cell: 'Reggie Regular', named: 2 },
  { name: 'Partner', type: 'org', write: '2', stored: { [K.partner]: 2 }, cell: 'Globex Industries', named: 2 },
  { name: 'Technical contact', type: 'person', write: '1', stored: { [K.technicalContact]: 1 }, cell: 'Alice Andersson', named: 1 },
];
const NAMES = TYPES.map((t) => t.name);
const WRITE = TYPES.flatMap((t) => ['--field', `${t.name}=${t.write}`]);

let fx: SandboxFixture;
let config: string;
const run = (args: string[]) => runCli(args, { env: { ...fx.env, CRMCTL_CONFIG_DIR: config } });
const ok = async (args: string[]) => {
  const r = await run(args);
  // An export of deals or leads says whether archived records are in it (the service's lists leave them out).
  const archivedNote = /^export (deals|leads)\b/.test(args.join(' ')) && !args.includes('--include-archived');
  expect(r.stderr, args.join(' ')).toBe(archivedNote ? `note: archived ${args[1]} are not included (the service leaves them out of its ${args[1]} list); --include-archived adds them.\n` : '');
  expect(r.code, args.join(' ')).toBe(0);
  return r.stdout;
};
const sent = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}`);
const deal = async (id: number) => (await fx.collection<{ id: number; custom_fields: Record<string, unknown> }>('deals')).find((d) => d.id === id)!;
/** The seed's deal 2 (Globex onboarding): only its Lead score is set. */
const SEEDED_2 = { [K.leadScore]: 50 };

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
  config = tempConfigDir();
});

describe('every type through the CLI: written by name, read back by name', () => {
  beforeEach(async () => {
    await ok(['deals', 'update', '1', ...WRITE]);
  });

  it('the update sends each under its hash key, typed; the deal stores them', async () => {
    const stored = TYPES.reduce((all, t) => Object.assign(all, t.stored), {} as Record<string, unknown>);
    expect((await fx.requests()).find((r) => r.method === 'PATCH')!.body).toEqual({ custom_fields: stored });
    expect((await deal(1)).custom_fields).toEqual(stored);
  });

  it.each(TYPES)('$type ($name): table, CSV and --names JSON', async (t) => {
    const table = (await ok(['deals', 'get', '1', '-o', 'table'])).trimEnd().split('\n').map((l) => /^(.+?):(?: +(.*))?$/.exec(l)!.slice(1).map((c) => c ?? ''));
    expect(table).toContainEqual([t.name, t.cell]);
    expect(await ok(['deals', 'list', '--limit', '1', '--fields', `id,${t.name}`, '-o', 'csv'])).toBe(`id,${t.name}\r\n1,${t.cell.includes(',') ? `"${t.cell}"` : t.cell}\r\n`);
    const named = JSON.parse(await ok(['deals', 'get', '1', '--names', '--json']));
    expect(named[t.name]).toEqual(t.named);
  });

  it('export writes every type in CSV by name and import reads it back into another account, typed as written', async () => {
    const csv = await ok(['export', 'deals', '--format', 'csv']);
    const [head, first] = csv.split('\r\n');
    const row = Object.fromEntries(parseCsvLine(head!).map((h, i) => [h, parseCsvLine(first!)[i]]));
    expect(Object.fromEntries([...NAMES, 'Budget currency'].map((n) => [n, row[n]]))).toEqual({
      'Deal notes': 'Call after the audit', 'Lead score': '73', Budget: '5000', 'Budget currency': 'EUR', Segment: 'Enterprise', Interests: 'Licences, Training',
      // Linked records by the name that finds them in another account (a user by e-mail).
      'Renewal date': '2026-05-01', 'Account manager': 'reggie.regular@example.com', Partner: 'Globex Industries', 'Technical contact': 'Alice Andersson',
    });
    const other = await startFixture();
    try {
      const { writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      const file = join(tempConfigDir(), 'deals.csv');
      writeFileSync(file, `${head}\r\n${first}\r\n`);
      const imp = await runCli(['import', 'deals', '--file', file], { env: other.env });
      expect(imp.code, imp.stderr).toBe(0);
      const created = (await other.requests()).find((r) => r.method === 'POST' && r.path === '/api/v2/deals')!;
      const stored = TYPES.reduce((all, t) => Object.assign(all, t.stored), {} as Record<string, unknown>);
      expect((created.body as { custom_fields: unknown }).custom_fields).toEqual(stored);
    } finally {
      await other.close();
    }
  });

  it('import takes a user field by name or email through the entry (one users read for the file); an unknown user is refused by line, nothing sent', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(tempConfigDir(), 'named-users.csv');
    writeFileSync(file, 'title,Account manager\r\nNamed A,Reggie Regular\r\nNamed B,2\r\n');
    await fx.clearRequests();
    const imp = await run(['import', 'deals', '--file', file]);
    expect(imp.code, imp.stderr).toBe(0);
    const sent = await fx.requests();
    const posts = sent.filter((r) => r.method === 'POST' && r.path === '/api/v2/deals');
    expect(posts.map((p) => (p.body as { custom_fields: Record<string, unknown> }).custom_fields[K.accountManager])).toEqual([2, 2]);
    expect(sent.filter((r) => r.method === 'GET' && r.path === '/api/v1/users')).toHaveLength(1);

    const bad = join(tempConfigDir(), 'unknown-user.csv');
    writeFileSync(bad, 'title,Account manager\r\nNamed C,Nobody Known\r\n');
    await fx.clearRequests();
    const refused = await run(['import', 'deals', '--file', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2');
    expect(refused.stderr).toContain('Nobody Known');
    expect((await fx.requests()).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('fixtures take a user field by name on every record, reading the users once per pass', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = tempConfigDir();
    const file = join(dir, 'deals.yaml');
    const spec = (n: number, user: string) => `- kind: deal\n  name: named-${n}\n  spec:\n    title: Named ${n}\n    fields:\n      Account manager: ${user}\n`;
    writeFileSync(file, [spec(1, 'Ada Admin'), spec(2, 'reggie.regular@example.com'), spec(3, 'Sam Seller')].join(''));
    await fx.clearRequests();
    const r = await run(['apply', '-f', file, '--state', join(dir, 'state.json')]);
    expect(r.code, r.stderr).toBe(0);
    const reqs = await fx.requests();
    expect(reqs.filter((q) => q.method === 'POST').map((q) => (q.body as { custom_fields: Record<string, unknown> }).custom_fields[K.accountManager])).toEqual([1, 2, 3]);
    // Once when the plan checks the specs and once when they are sent, not once per record.
    expect(reqs.filter((q) => q.path === '/api/v1/users')).toHaveLength(2);
  });

  it('a list table heads every field by name (--names) and names the linked records', async () => {
    const [head, first] = (await ok(['deals', 'list', '--limit', '1', '--names', '-o', 'csv'])).split('\r\n');
    const cols = head!.split(',');
    for (const n of NAMES) expect(cols).toContain(n);
    expect(first).toContain(',Reggie Regular,Globex Industries,Alice Andersson');
  });
});

/** One CSV line's cells (quotes doubled inside quoted cells). */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

describe('refused before sending (exit 2, nothing written)', () => {
  it.each([
    ['a misspelt name', ['--field', 'Budgte=5000 EUR'], '--field Budgte: unknown deal custom field "Budgte" (did you mean "Budget"?)'],
    ['a bad option', ['--field', 'Segment=Huge'], '--field Segment: Segment (enum) unknown option "Huge"; allowed: SMB, Mid-market, Enterprise'],
    ['a bad option in a set', ['--field', 'Interests=Training,Golf'], '--field Interests: Interests (set) unknown option "Golf"; allowed: Licences, Services, Training'],
  ])('%s', async (_what, flags, message) => {
    const r = await run(['deals', 'update', '2', ...flags]);
    expect(r.stderr).toBe(`error: ${message}\n`);
    expect(r.code).toBe(2);
    expect(await sent()).toEqual(['GET /api/v2/dealFields']);
    expect((await deal(2)).custom_fields).toEqual(SEEDED_2);
  });
});

describe('a renamed field and the metadata read', () => {
  it('the field list is read once per profile; a rename through deal-fields update is picked up by the next command', async () => {
    await ok(['deals', 'update', '1', '--field', 'Segment=SMB']);
    await ok(['deals', 'get', '1', '--fields', 'id,Segment']);
    await ok(['deals', 'get', '1', '--names', '--json']);
    expect((await sent()).filter((s) => s.includes('Fields'))).toEqual(['GET /api/v2/dealFields']);
    await ok(['deal-fields', 'update', K.segment, '--field-name', 'Tier']);
    await fx.clearRequests();
    expect(await ok(['deals', 'get', '1', '--fields', 'id,Tier', '-o', 'csv'])).toBe('id,Tier\r\n1,SMB\r\n');
    // The rename made the kept list stale: one read, then the deal.
    expect(await sent()).toEqual(['GET /api/v2/dealFields', 'GET /api/v2/deals/1']);
    const old = await run(['deals', 'update', '1', '--field', 'Segment=Enterprise']);
    expect(old.stderr).toBe('error: --field Segment: unknown deal custom field "Segment"; known: Lead score, Budget, Tier, Deal notes, Interests, Renewal date, Account manager, Partner, Technical contact\n');
    expect(old.code).toBe(2);
  });
});

describe('every type through the MCP tools', () => {
  let client: Client;
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
    const text = r.content.map((c) => c.text).join('\n');
    // A result holds the answer under data, beside the note that record content is data (src/mcp/untrusted.ts).
    return r.isError ? { error: text } : { value: JSON.parse(text).data };
  };

  beforeEach(async () => {
    const env = cleanEnv({ ...fx.env, CRMCTL_CONFIG_DIR: config }) as Record<string, string>;
    client = new Client({ name: 'every-type', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--allow-writes'], env, stderr: 'pipe' }));
  });
  afterEach(async () => client?.close());

  it('deals_update takes custom_fields by name; deals_get names: true reads them back by name', async () => {
    const named = Object.fromEntries(TYPES.map((t) => [t.name, t.write]));
    const upd = await tool('deals_update', { id: 1, custom_fields: named });
    expect(upd.error).toBeUndefined();
    const stored = TYPES.reduce((all, t) => Object.assign(all, t.stored), {} as Record<string, unknown>);
    expect((await deal(1)).custom_fields).toEqual(stored);
    const got = (await tool('deals_get', { id: 1, names: true })).value;
    expect(Object.fromEntries(NAMES.map((n) => [n, got[n]]))).toEqual(Object.fromEntries(TYPES.map((t) => [t.name, t.named])));
    expect(got.custom_fields).toBeUndefined();
  }, 30_000);

  it('a field renamed by another command (deal-fields update) is picked up by the running session', async () => {
    await tool('deals_update', { id: 1, custom_fields: { Segment: 'SMB' } });
    expect((await tool('deals_get', { id: 1, names: true })).value.Segment).toBe('SMB');
    await ok(['deal-fields', 'update', K.segment, '--field-name', 'Tier']);
    await fx.clearRequests();
    const got = (await tool('deals_get', { id: 1, names: true })).value;
    expect([got.Tier, got.Segment]).toEqual(['SMB', undefined]);
    // The rename dropped the kept fields: the session reads them once more.
    expect((await sent()).filter((s) => s.includes('Fields'))).toEqual(['GET /api/v2/dealFields']);
  }, 30_000);

  it.each([
    ['a misspelt name', { Budgte: '5000 EUR' }, 'unknown deal custom field "Budgte" (did you mean "Budget"?)'],
    ['a bad option', { Segment: 'Huge' }, 'Segment (enum) unknown option "Huge"; allowed: SMB, Mid-market, Enterprise'],
  ])('%s is refused, nothing sent', async (_what, custom_fields, message) => {
    await fx.clearRequests();
    const r = await tool('deals_update', { id: 2, custom_fields });
    expect(r.error).toContain('nothing was sent');
    expect(r.error).toContain(message);
    expect((await sent()).filter((s) => !s.startsWith('GET'))).toEqual([]);
    expect((await deal(2)).custom_fields).toEqual(SEEDED_2);
  }, 30_000);
});
