import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, filesOf, modifyA, shiftIds, tempDir, writes } from './helpers.js';

// A filter's conditions name fields by id, and custom fields get other ids in every account: pull
// writes the conditions by name, so that the filter means the same in an account where ids differ.

let a: SandboxFixture;
let b: SandboxFixture;
let pulled: string;
let scoreA: number;

const fieldId = async (fx: SandboxFixture, name: string): Promise<number> => (await api(fx, 'GET', '/api/v1/dealFields?limit=500')).find((f: any) => f.name === name).id;

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  await modifyA(a);
  await api(a, 'POST', '/api/v2/dealFields', { field_name: 'Fit score', field_type: 'double' });
  scoreA = await fieldId(a, 'Fit score');
  const region = (await api(a, 'GET', '/api/v1/dealFields?limit=500')).find((f: any) => f.name === 'Region');
  const south = region.options.find((o: any) => o.label === 'South').id;
  await api(a, 'POST', '/api/v1/filters', {
    name: 'Hot leads', type: 'deals',
    conditions: { glue: 'and', conditions: [
      { glue: 'and', conditions: [{ object: 'deal', field_id: scoreA, operator: '>=', value: 40 }] },
      { glue: 'or', conditions: [{ object: 'deal', field_id: region.id, operator: '=', value: south }, { object: 'deal', field_id: scoreA, operator: 'IS NULL', value: null }] },
    ] },
  });
  // B makes fields of its own first, so the fields apply creates there get other ids than in A.
  for (const n of [1, 2, 3, 4, 5]) await api(b, 'POST', '/api/v2/dealFields', { field_name: `Extra ${n}`, field_type: 'varchar' });
  await shiftIds(b);
  pulled = tempDir();
  const r = await runBin(['pull', '--out', pulled], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await a.close();
  await b.close();
});

describe('filters by names', () => {
  it('pull writes the conditions by field name, option label and operator word, never field ids', () => {
    const text = filesOf(pulled)['filters.yaml']!;
    expect(text).toContain([
      '  - kind: filter',
      '    name: filter-deals-hot-leads',
      '    spec:',
      '      name: Hot leads',
      '      type: deals',
      '      where:',
      '        - Fit score >= 40',
      '      or_where:',
      '        - Region = South',
      '        - Fit score is empty',
    ].join('\n'));
    expect(text).not.toContain('field_id');
  });

  it('applies to B where the fields have other ids, and plan then shows no changes', async () => {
    const r = await runBin(['apply', '-f', pulled], { env: b.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+ filter deals/Hot leads\n');
    const scoreB = await fieldId(b, 'Fit score');
    expect(scoreB).not.toBe(scoreA);
    const regionB = (await api(b, 'GET', '/api/v1/dealFields?limit=500')).find((f: any) => f.name === 'Region');
    const filter = (await api(b, 'GET', '/api/v1/filters')).find((f: any) => f.name === 'Hot leads');
    const full = await api(b, 'GET', `/api/v1/filters/${filter.id}`);
    const [and, or] = full.conditions.conditions;
    expect(and.conditions.map((c: any) => [c.field_id, c.operator, c.value])).toEqual([[String(scoreB), '>=', '40']]);
    expect(or.conditions.map((c: any) => [c.field_id, c.operator, c.value])).toEqual([
      [String(regionB.id), '=', String(regionB.options.find((o: any) => o.label === 'South').id)],
      [String(scoreB), 'IS NULL', null],
    ]);

    await b.clearRequests();
    const plan = await runBin(['plan', '-f', pulled], { env: b.env });
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).toMatch(/^No changes/);
    expect(writes(await b.requests())).toEqual([]);
  });

  it('plan compares the conditions after translation: the same clause written another way is no change', async () => {
    const dir = tempDir();
    cpSync(pulled, dir, { recursive: true });
    const file = join(dir, 'filters.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('- Fit score >= 40', '- fit score>=40').replace('- Region = South', '- Region = "south"'));
    const same = await runBin(['plan', '-f', dir], { env: b.env });
    expect(same.code, same.stdout).toBe(0);

    writeFileSync(file, readFileSync(file, 'utf8').replace('- fit score>=40', '- Fit score >= 50'));
    const changed = await runBin(['plan', '-f', dir], { env: b.env });
    expect(changed.code, changed.stderr).toBe(8);
    expect(changed.stdout.split('\n')[0]).toBe('~ filter deals/Hot leads: where ["Fit score >= 40"] -> ["Fit score >= 50"]');
  });

  it('a clause naming no field is exit 2 naming file and line, nothing sent', async () => {
    const dir = tempDir();
    cpSync(pulled, dir, { recursive: true });
    const file = join(dir, 'filters.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('- Fit score >= 40', '- Fit scor >= 40'));
    await b.clearRequests();
    const r = await runBin(['plan', '-f', dir], { env: b.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/filters\.yaml:\d+ filter-deals-hot-leads\.spec\.where\[0\] "Fit scor >= 40": unknown field "Fit scor" \(did you mean "Fit score"\?\)/);
    expect(writes(await b.requests())).toEqual([]);
  });

  it('a condition names cannot write stays in reference.yaml with the reason', async () => {
    await api(a, 'POST', '/api/v1/filters', {
      name: 'Odd', type: 'deals',
      conditions: { glue: 'and', conditions: [{ glue: 'and', conditions: [{ object: 'deal', field_id: scoreA, operator: '>', value: 1, extra_value: 'x' }] }] },
    });
    const dir = tempDir();
    const r = await runBin(['pull', '--out', dir], { env: a.env });
    expect(r.code, r.stderr).toBe(0);
    const files = filesOf(dir);
    expect(files['filters.yaml']).not.toContain('name: Odd');
    expect(files['reference.yaml']).toContain('label: deals/Odd');
    expect(files['reference.yaml']).toContain('refused: "its conditions cannot be written by name: condition on Fit score: extra_value has no name form"');
  });
});
