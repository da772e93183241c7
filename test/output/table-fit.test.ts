// Tables fit the terminal: a deal table drawn at a given width has no wider line; ids keep their
// width, short columns keep theirs, the title gets the room that is left. The bundle takes the width
// from $COLUMNS when stdout is not a terminal (a pager).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
const LONG = 'A very long deal title about the enterprise rollout in the northern region, phase two of three, with options';

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
}, 120_000);
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
});

/** The table a terminal of this width shows (in-process, stdout a pretend terminal, no colour). */
async function table(args: string[], columns: number): Promise<string[]> {
  const r = await runCli(args, { env: { ...fx.env, NO_COLOR: '1' }, tty: true, columns });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.replace(/\n$/, '').split('\n');
}

/** The cells of one grid line, trimmed. */
const cells = (line: string) => line.split('│').slice(1, -1).map((c) => c.trim());

describe('a deal table with a long title', () => {
  let id: number;
  beforeEach(async () => {
    const r = await runCli(['deals', 'create', '--title', LONG, '--value', '12345', '--currency', 'EUR', '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    id = JSON.parse(r.stdout).id;
  });

  for (const width of [80, 140]) {
    it(`is exactly ${width} columns wide at ${width} columns: no line wraps`, async () => {
      const lines = await table(['deals', 'list'], width);
      expect(lines.map((l) => l.length)).toEqual(lines.map(() => width));
      const row = cells(lines.find((l) => l.startsWith(`│ ${id} `))!);
      expect(row[0]).toBe(String(id));
      expect(row[1]!.endsWith('…')).toBe(true);
      expect(LONG.startsWith(row[1]!.slice(0, -1))).toBe(true);
    });
  }

  it('at 140 columns the short columns are whole and the title takes all the free room', async () => {
    const lines = await table(['deals', 'list'], 140);
    const rows = lines.filter((l) => l.startsWith('│ ') && !l.startsWith('│ id ')).map(cells);
    // value, stage, status and owner are never cut: each shows the whole name.
    for (const r of rows.filter((c) => c[0] !== String(id))) for (const c of r.slice(2)) expect(c.endsWith('…')).toBe(false);
    const ours = rows.find((c) => c[0] === String(id))!;
    expect(ours[2]).toBe('12345 EUR');
    // The title column's width is what the line leaves after the other columns at their widest.
    const header = cells(lines[1]!);
    expect(header).toEqual(['id', 'title', 'value', 'stage', 'status', 'owner']);
    const widest = (i: number) => Math.max(...rows.map((r) => r[i]!.length), header[i]!.length);
    const titleWidth = 140 - (1 + 3 * 6) - [0, 2, 3, 4, 5].reduce((a, i) => a + widest(i), 0);
    expect(ours[1]!.length).toBe(titleWidth);
  });

  it('at 80 columns the title keeps 24 characters and the other columns give way first', async () => {
    const lines = await table(['deals', 'list'], 80);
    const ours = cells(lines.find((l) => l.startsWith(`│ ${id} `))!);
    expect(ours[1]).toBe(`${LONG.slice(0, 23)}…`);
    expect(ours[2]).toBe('12345 EUR');
  });

  it('a long id header (org_id over 1-digit ids) is cut before the name; id values never are', async () => {
    // The default persons table names organization and owner; the ids, asked for, keep their long headers.
    const lines = await table(['persons', 'list', '--fields', 'id,name,emails.0.value,phones.0.value,org_id,owner_id,update_time'], 80);
    expect(lines.map((l) => l.length)).toEqual(lines.map(() => 80));
    expect(cells(lines[1]!)).toEqual(['id', 'name', 'emails.0.va…', 'phones.0.v…', 'or…', 'ow…', 'update_time']);
    const persons = await fx.collection<{ id: number; name: string; org_id: number | null; owner_id: number }>('persons');
    for (const row of lines.filter((l) => /^│ \d/.test(l)).map(cells)) {
      const p = persons.find((x) => x.id === Number(row[0]))!;
      expect(row[1]).toBe(p.name);
      expect(row[4]).toBe(p.org_id === null ? '' : String(p.org_id));
    }
  });

  it('a table narrower than the terminal keeps its natural widths', async () => {
    const lines = await table(['deals', 'list', '--fields', 'id,status'], 80);
    expect(lines[0]).toBe('┌────┬────────┐');
    expect(lines[1]).toBe('│ id │ status │');
  });

  it('one record is `key: value` lines, no rules: keys aligned, a long value wrapped under its column (issue 29.5)', async () => {
    const lines = await table(['deals', 'get', String(id)], 60);
    // One line per field (a grid drew a rule after every field: 37 lines for 18), none wider than the terminal.
    expect(lines.some((l) => /[─│┌└]/.test(l))).toBe(false);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^id: +\d+$/);
    const column = lines[0]!.indexOf(String(id));
    const title = lines.findIndex((l) => l.startsWith('title:'));
    // The whole title is there, wrapped at spaces onto lines indented to the values' column.
    const next = lines.findIndex((l, i) => i > title && !l.startsWith(' '.repeat(column)));
    const wrapped = lines.slice(title, next).map((l) => l.slice(column));
    expect(wrapped.length).toBeGreaterThan(1);
    expect(wrapped.join(' ')).toBe(LONG);
    for (const l of lines) if (/^\S/.test(l) && /: +\S/.test(l)) expect(l.indexOf(': ') < column && l[column - 1] === ' ' && l[column] !== ' ').toBe(true);
  });

  it('on an unknown width (0) nothing is wrapped', async () => {
    const lines = await table(['deals', 'get', String(id)], 0);
    expect(lines.find((l) => l.startsWith('title:'))).toMatch(new RegExp(`^title: +${LONG}$`));
  });

  it('the bundle reads the width from $COLUMNS when stdout is not a terminal (a pager, --output table)', async () => {
    const r = await spawnCli(['deals', 'list', '--output', 'table'], { env: { ...fx.env, COLUMNS: '80' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.replace(/\n$/, '').split('\n');
    expect(lines.map((l) => l.length)).toEqual(lines.map(() => 80));
  });
});

describe('a lead table: UUIDs give way first, titles lead, labels by name', () => {
  const UUID_CUT = /^[0-9a-f]{8}…$/;

  it('at 120 columns each id shows its first 8 characters, the title comes first and keeps its room (it was cut to "Acme rollo…")', async () => {
    const lines = await table(['leads', 'list'], 120);
    expect(lines.map((l) => l.length)).toEqual(lines.map(() => 120));
    const head = cells(lines[1]!);
    expect(head.slice(0, 2)).toEqual(['title', 'id']);
    const rows = lines.slice(3, -1).map(cells);
    const leads = (await fx.collection<{ id: string; title: string; is_archived: boolean }>('leads')).filter((l) => !l.is_archived);
    expect(rows.length).toBe(leads.length);
    for (const r of rows) {
      expect(r[1]).toMatch(UUID_CUT);
      const lead = leads.find((l) => l.id.startsWith(r[1]!.slice(0, 8)))!;
      // The title keeps at least 24 characters before any other column is cut that far.
      expect(lead.title.startsWith(r[0]!.replace(/…$/, ''))).toBe(true);
      expect(r[0]!.length).toBeGreaterThanOrEqual(Math.min(24, lead.title.length));
    }
    expect(rows.find((r) => r[0]!.startsWith('Acme rollout'))![0]).toBe('Acme rollout to second …');
    // Label names, not their UUIDs ("Hot, Warm" on the consulting lead).
    const labels = head.indexOf('labels');
    expect(rows.map((r) => r[labels])).toEqual(expect.arrayContaining(['Hot', 'Warm', 'Hot, Warm']));
  });

  it('a terminal wide enough keeps whole UUIDs; TSV and JSON never cut them', async () => {
    const lines = await table(['leads', 'list'], 220);
    const rows = lines.slice(3, -1).map(cells);
    for (const r of rows) expect(r[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const tsv = await runCli(['leads', 'list'], { env: fx.env });
    for (const l of tsv.stdout.trimEnd().split('\n')) expect(l.split('\t')[0]).toMatch(/^[0-9a-f-]{36}$/);
    // Piped, the id stays the first column (`cut -f1` gives ids) and the labels are named there too.
    expect(tsv.stdout).toMatch(/^[0-9a-f-]{36}\tAcme rollout to second site\t18000 EUR\tAlice Andersson\tAcme Corporation\tHot\t/m);
    const json = await runCli(['leads', 'list', '--json'], { env: fx.env });
    expect(JSON.parse(json.stdout)[0].label_ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the lead label list is read once for the whole table', async () => {
    await fx.clearRequests();
    await table(['leads', 'list'], 120);
    const reads = (await fx.requests()).map((r) => `${r.method} ${r.path}`);
    expect(reads.filter((r) => r === 'GET /api/v1/leadLabels')).toEqual(['GET /api/v1/leadLabels']);
  });
});

describe('person, organization and deal labels by name', () => {
  it('persons: asked with include_labels, shown by name in a list (--fields labels) and in a get', async () => {
    await fx.clearRequests();
    const lines = await table(['persons', 'list', '--fields', 'id,name,labels'], 120);
    expect(lines).toContain(lines.find((l) => /^│ 1 +│ Alice Andersson +│ Customer, VIP +│$/.test(l)));
    expect((await fx.requests()).find((r) => r.path === '/api/v2/persons')!.query).toMatchObject({ include_labels: 'true' });
    const one = await table(['persons', 'get', '1'], 120);
    expect(one).toContain(one.find((l) => /^labels: +Customer, VIP$/.test(l)));
    // json keeps the service's record and sends only what was asked.
    await fx.clearRequests();
    const json = await runCli(['persons', 'get', '1', '--json'], { env: fx.env });
    expect(JSON.parse(json.stdout).label_ids).toEqual([1, 4]);
    expect((await fx.requests()).map((r) => r.query)).toEqual([{}]);
  });

  // Organizations use the same field options (label_ids); the sandbox seeds none for them, so only deals are checked here.
  it('deals: the options of the deal field `label`, in a get and with --fields labels in a list', async () => {
    expect((await runCli(['deals', 'update', '1', '--label-ids', '501,503'], { env: fx.env })).code).toBe(0);
    const deal = await table(['deals', 'get', '1'], 120);
    expect(deal).toContain(deal.find((l) => /^labels: +Hot, Cold$/.test(l)));
    const list = await table(['deals', 'list', '--fields', 'id,title,labels'], 120);
    expect(list.find((l) => l.startsWith('│ 1 '))).toMatch(/│ Hot, Cold +│$/);
  });
});
