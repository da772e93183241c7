// --query EXPR (JMESPath, as aws/az --query) on what a command prints with --json: a list's array, a
// record's object, a raw API answer. The result prints as JSON (-o ndjson: a list one item a line;
// -o tsv: text). A bad expression, or a format the query cannot print, is exit 2 with nothing sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
interface Deal { id: number; title: string; value: number; stage_id: number; status: string }
let deals: Deal[] = [];

const bin = (args: string[]) => runBin(args, { env: fx.env });
const sent = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}`);

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
  deals = (await fx.collection<Deal>('deals')).filter((d) => d.status !== 'deleted').sort((a, b) => a.id - b.id);
}, 120_000);
afterAll(async () => fx?.close());
beforeEach(async () => fx.clearRequests());

describe('--query on a list', () => {
  it('projects the array --json prints; only the list is read (no names looked up for a table)', async () => {
    const r = await bin(['deals', 'list', '--limit', '3', '--query', '[].{id: id, title: title, stage: stage_id}']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.stringify(deals.slice(0, 3).map((d) => ({ id: d.id, title: d.title, stage: d.stage_id })), null, 2)}\n`);
    expect(await sent()).toEqual(['GET /api/v2/deals']);
  });

  it('filters with a JMESPath condition, and -o tsv prints the result as text: one id a line', async () => {
    const r = await bin(['deals', 'list', '--all', '--query', '[?value > `10000`].id', '-o', 'tsv']);
    expect(r.code).toBe(0);
    const want = deals.filter((d) => d.value > 10000).map((d) => d.id);
    expect(want.length).toBeGreaterThan(0);
    expect(r.stdout).toBe(want.map((id) => `${id}\n`).join(''));
  });

  it('-o tsv prints a list of lists as tab-separated rows; -o ndjson a list one JSON value a line', async () => {
    const rows = await bin(['deals', 'list', '--limit', '2', '--query', '[].[id, title]', '-o', 'tsv']);
    expect(rows.stdout).toBe(deals.slice(0, 2).map((d) => `${d.id}\t${d.title}\n`).join(''));
    const lines = await bin(['deals', 'list', '--limit', '2', '--query', '[].title', '-o', 'ndjson']);
    expect(lines.stdout).toBe(deals.slice(0, 2).map((d) => `${JSON.stringify(d.title)}\n`).join(''));
  });
});

describe('--query on a get', () => {
  it('a string prints as JSON, and raw with -o tsv (for $(...) in scripts)', async () => {
    const d = deals[0]!;
    const json = await bin(['deals', 'get', String(d.id), '--query', 'title']);
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(`${JSON.stringify(d.title)}\n`);
    const text = await bin(['deals', 'get', String(d.id), '--query', 'title', '-o', 'tsv']);
    expect(text.stdout).toBe(`${d.title}\n`);
  });

  it('a multi-select hash of the record', async () => {
    const d = deals[1]!;
    const r = await bin(['deals', 'get', String(d.id), '--query', '{id: id, value: value}']);
    expect(JSON.parse(r.stdout)).toEqual({ id: d.id, value: d.value });
  });

  it('a raw API answer (crmctl api) is queried as the service sent it', async () => {
    const users = await fx.collection<{ id: number }>('users');
    const r = await bin(['api', '/api/v1/users', '--query', 'data[].id']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(users.map((u) => u.id).sort((a, b) => a - b));
  });
});

describe('--query refusals: exit 2, nothing sent', () => {
  it('an expression that does not parse is named, with the parser\'s reason', async () => {
    const r = await bin(['deals', 'list', '--query', '[?value >']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --query: not a valid JMESPath expression: Invalid token (EOF): "" (in "[?value >")\nhint: See https://jmespath.org/tutorial.html for the syntax.\n');
    expect(await sent()).toEqual([]);
  });

  it('on a get too', async () => {
    const r = await bin(['deals', 'get', '1', '--query', 'foo[']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --query: not a valid JMESPath expression: ');
    expect(await sent()).toEqual([]);
  });

  it('a format the query cannot print, and --fields beside it', async () => {
    const table = await bin(['deals', 'list', '--query', '[].id', '-o', 'table']);
    expect(table.code).toBe(2);
    expect(table.stderr).toBe('error: --query prints json, ndjson or tsv (text), not table\n');
    const fields = await bin(['deals', 'list', '--query', '[].id', '--fields', 'id']);
    expect(fields.code).toBe(2);
    expect(fields.stderr).toBe('error: --query and --fields cannot be combined: pick the fields in the query, e.g. --query "[].{id: id, name: name}"\n');
    expect(await sent()).toEqual([]);
  });

  it('a function given the wrong type is found on the data: exit 2 with the reason', async () => {
    const r = await bin(['deals', 'get', '1', '--query', 'abs(title)']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --query: abs() expected argument 1 to be type number but received type string instead. (in "abs(title)")\n');
  });
});
