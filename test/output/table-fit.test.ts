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

  it('one record (field/value) fits too: the names are whole, the value is cut', async () => {
    const lines = await table(['deals', 'get', String(id)], 60);
    expect(Math.max(...lines.map((l) => l.length))).toBe(60);
    const title = cells(lines.find((l) => l.startsWith('│ title '))!);
    expect(title[1]!.endsWith('…')).toBe(true);
    expect(cells(lines.find((l) => l.startsWith('│ id '))!)).toEqual(['id', String(id)]);
  });

  it('the bundle reads the width from $COLUMNS when stdout is not a terminal (a pager, --output table)', async () => {
    const r = await spawnCli(['deals', 'list', '--output', 'table'], { env: { ...fx.env, COLUMNS: '80' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.replace(/\n$/, '').split('\n');
    expect(lines.map((l) => l.length)).toEqual(lines.map(() => 80));
  });
});
