import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRows } from '../../src/automation/rows.js';
import { spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, filesOf, tempDir } from './helpers.js';

// Issue 28.9: `pull --sample` replaced names in the sample's CSVs but left them in the rest of the
// directory: a filter `Contact person = Alice Andersson` beside `Person 79dec4ec` is a dictionary
// (HMAC the directory's words with the public default key, compare, and every fake is reversed).

let a: SandboxFixture;
let dir: string;
let files: Record<string, string>;

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  // A person no deal links to (so not in a sample of 3), named by filters only.
  await api(a, 'POST', '/api/v2/persons', { name: 'Ursula Unlisted', emails: [{ value: 'ursula.unlisted@example.net', primary: true }] });
  for (const [name, type, where] of [
    ['Alice deals', 'deals', 'Contact person = Alice Andersson'],
    ['Ursula by mail', 'people', 'Email = ursula.unlisted@example.net'],
    ['Ursula by name', 'people', 'Name = Ursula Unlisted'],
  ] as const) {
    const r = await spawnCli(['filters', 'create', '--name', name, '--type', type, '--where', where], { env: a.env });
    expect(r.code, r.stderr).toBe(0);
  }
  await api(a, 'POST', '/api/v1/notes', { content: 'Call Alice Andersson at alice.andersson@example.org', deal_id: 1 });
  await api(a, 'POST', '/api/v1/goals', {
    title: 'Alice Andersson renewal', assignee: { type: 'person', id: 1 }, type: { name: 'deals_won' },
    expected_outcome: { target: 3, tracking_metric: 'quantity' }, duration: { start: '2026-01-01' }, interval: 'yearly',
  });
  dir = tempDir();
  const r = await spawnCli(['pull', '--out', dir, '--sample', '3'], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
  files = filesOf(dir);
});
afterAll(async () => {
  await a.close();
});

async function csv(text: string): Promise<Array<Record<string, string>>> {
  const { writeFileSync } = await import('node:fs');
  const path = `${tempDir()}/rows.csv`;
  writeFileSync(path, text);
  let header: string[] = [];
  const rows: Array<Record<string, string>> = [];
  for await (const r of readRows(path, 'csv', (h) => (header = h))) if (r.kind === 'csv') rows.push(Object.fromEntries(header.map((h, i) => [h, r.cells[i] ?? ''])));
  return rows;
}

describe('pull --sample: no real name or e-mail anywhere in the directory', () => {
  it('no person\'s or organization\'s name, nor any e-mail, in any file (configuration, reference.yaml, sample/)', async () => {
    const originals: string[] = [];
    for (const p of await a.collection<{ name: string; emails?: Array<{ value: string }> }>('persons')) originals.push(p.name, ...(p.emails ?? []).map((e) => e.value));
    for (const o of await a.collection<{ name: string }>('organizations')) originals.push(o.name);
    const checked = originals.filter((v) => v && v.length >= 5);
    expect(checked).toEqual(expect.arrayContaining(['Alice Andersson', 'alice.andersson@example.org', 'Ursula Unlisted', 'ursula.unlisted@example.net']));
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['filters.yaml', 'goals.yaml', 'reference.yaml', 'sample/persons.csv']));
    const found = Object.entries(files).flatMap(([name, text]) => checked.filter((v) => text.toLowerCase().includes(v.toLowerCase())).map((v) => `${name}: ${v}`));
    expect(found).toEqual([]);
  });

  it('the names are replaced by the pseudonyms the sample uses: the filters and the goal still point at the same (fake) person', async () => {
    const persons = await csv(files['sample/persons.csv']!);
    const alice = persons.find((p) => p.id === '1');
    expect(alice?.name).toMatch(/^Person [0-9a-f]{8}$/);
    expect(files['filters.yaml']).toContain(`        - Contact person = ${alice!.name}\n`);
    expect(files['goals.yaml']).toContain(`      title: ${alice!.name} renewal\n`);
    // Ursula is not in the sample; her name and e-mail get the fakes the sample would give them.
    expect(files['filters.yaml']).toMatch(/\n {8}- Email = p-[0-9a-f]{10}@example\.invalid\n/);
    expect(files['filters.yaml']).toMatch(/\n {8}- Name = Person [0-9a-f]{8}\n/);
  });

  it('without --sample, pull writes the configuration as the account holds it', async () => {
    const plain = tempDir();
    expect((await spawnCli(['pull', '--out', plain], { env: a.env })).code).toBe(0);
    expect(filesOf(plain)['filters.yaml']).toContain('        - Contact person = Alice Andersson\n');
  });
});
