import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { DEAL_FIELD_KEYS } from '../../src/sandbox/seed/index.js';
import { workDir } from './helpers.js';

// Import's custom columns go through the entry's one translation (src/names/entry.ts), as `--field` does:
// a refused value reads the same at both doors, with the line and the column in front.

let fx: SandboxFixture;
const run = (args: string[]) => runCli(args, { env: fx.env });
const posts = async () => (await fx.requests()).filter((r) => r.method === 'POST');
const file = (name: string, text: string) => {
  const path = join(workDir(), name);
  writeFileSync(path, text);
  return path;
};

/** The rule `deals create --field NAME=VALUE` refuses the value with (what follows "--field NAME: "). */
async function fieldRule(name: string, value: string): Promise<string> {
  const r = await run(['deals', 'create', '--title', 'Door', '--field', `${name}=${value}`]);
  expect(r.code, r.stderr).toBe(2);
  const m = new RegExp(`--field ${name}: (.*)`).exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  return m![1]!;
}

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('import custom columns by name', () => {
  it('refuses a bad option and a misspelt custom column by line, with the rule --field gives, and sends nothing', async () => {
    const badOption = await fieldRule('Segment', 'Galactic');
    const misspelt = await fieldRule('Segmnt', 'Enterprise');
    expect(badOption).toContain('allowed: ');
    expect(misspelt).toContain('did you mean "Segment"?');
    await fx.clearRequests();

    const f = file('deals-bad.csv', 'title,Segment,Segmnt\nFirst,Galactic,\nSecond,,Enterprise\nThird,Enterprise,\n');
    const r = await run(['import', 'deals', '--file', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`line 2: Segment: ${badOption}\n`);
    expect(r.stderr).toContain(`line 3: Segmnt: ${misspelt}\n`);
    expect(r.stderr).not.toContain('line 4:');
    expect(await posts()).toEqual([]);
  });

  it('takes a monetary value with its currency column and an option by label, as --field takes "5000 EUR"', async () => {
    const f = file('deals-good.csv', 'title,Budget,Budget currency,Segment\nPaired,12000,eur,Enterprise\n');
    const r = await run(['import', 'deals', '--file', f]);
    expect(r.code, r.stderr).toBe(0);
    const viaField = await run(['deals', 'create', '--title', 'Flagged', '--field', 'Budget=12000 EUR', '--field', 'Segment=Enterprise', '--json']);
    expect(viaField.code, viaField.stderr).toBe(0);
    const sent = (await posts()).map((p) => (p.body as { custom_fields?: Record<string, unknown> }).custom_fields);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toEqual(sent[1]);
    expect(sent[0]).toMatchObject({ [DEAL_FIELD_KEYS.budget]: 12000, [`${DEAL_FIELD_KEYS.budget}_currency`]: 'EUR' });
  });

  it('v1 leads: hash-keyed JSON members (as an export writes them) go through the same translation and land top-level', async () => {
    const row = { title: 'Hashed lead', organization_id: 1, [DEAL_FIELD_KEYS.budget]: 300, [`${DEAL_FIELD_KEYS.budget}_currency`]: 'usd', [DEAL_FIELD_KEYS.segment]: 'Enterprise' };
    const f = file('leads.ndjson', `${JSON.stringify(row)}\n`);
    const r = await run(['import', 'leads', '--file', f]);
    expect(r.code, r.stderr).toBe(0);
    const [sent] = await posts();
    expect(sent!.path).toBe('/api/v1/leads');
    // The option by label → its id (103 = Enterprise in the seed), the currency upper-cased: as --field sends them.
    expect(sent!.body).toMatchObject({ [DEAL_FIELD_KEYS.budget]: 300, [`${DEAL_FIELD_KEYS.budget}_currency`]: 'USD', [DEAL_FIELD_KEYS.segment]: 103 });
    expect((sent!.body as Record<string, unknown>).fields).toBeUndefined();
  });

  it('a bad option in a hash-keyed JSON member is refused by line and names the field and its options', async () => {
    const f = file('leads-bad.ndjson', `${JSON.stringify({ title: 'Bad lead', organization_id: 1, [DEAL_FIELD_KEYS.segment]: 'Galactic' })}\n`);
    const r = await run(['import', 'leads', '--file', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 1: Segment: Segment \(enum\) unknown option "Galactic"; allowed: /);
    expect(await posts()).toEqual([]);
  });

  it('reads the deal fields once for the whole file, however many rows give custom values', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `Many ${i},${100 + i},EUR,Enterprise`);
    const f = file('deals-many.csv', ['title,Budget,Budget currency,Segment', ...lines, ''].join('\n'));
    const r = await run(['import', 'deals', '--file', f]);
    expect(r.code, r.stderr).toBe(0);
    const reads = (await fx.requests()).filter((q) => q.method === 'GET' && q.path.includes('dealFields'));
    expect(reads.length).toBe(1);
    expect(await posts()).toHaveLength(30);
  });
});
