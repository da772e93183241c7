// filters get → edit → update round-trips: `filters get --json` answers each condition with the keys the
// service sets (json_value_flag; field_code with include_field_code), and `filters update --conditions`
// takes those conditions back as they are. The read-only keys are accepted and not sent (the vendor's
// update takes object, field_id, operator, value, extra_value), and the filter is left as it was.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
const bin = (args: string[]) => runBin(args, { env: fx.env });

type Filter = { id: number; name: string; type: string; conditions: { conditions: Array<{ conditions: Array<Record<string, unknown>> }> } };

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
});
afterAll(async () => fx?.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

async function dealFilter(): Promise<Filter> {
  return (await fx.collection<Filter>('filters')).find((f) => f.name === 'Big open deals')!;
}

/** The filter as the service shows it (its store may hold a condition by field code or by id; the answer is the same). */
async function shown(id: number): Promise<Record<string, unknown>> {
  const r = await bin(['filters', 'get', String(id), '--json']);
  expect(r.code).toBe(0);
  const { update_time: _, ...rest } = JSON.parse(r.stdout) as Record<string, unknown>;
  return rest;
}

describe('filters get → update with the same conditions', () => {
  it('exits 0, sends the conditions without the keys the service sets, and leaves the filter as it was', async () => {
    const before = await dealFilter();
    const shownBefore = await shown(before.id);
    const got = await bin(['filters', 'get', String(before.id), '--json']);
    expect(got.code).toBe(0);
    const conditions = (JSON.parse(got.stdout) as Filter).conditions;
    // What the service answers carries json_value_flag on every condition.
    expect(conditions.conditions.flatMap((g) => g.conditions).every((c) => c.json_value_flag === false)).toBe(true);

    await fx.clearRequests();
    const r = await bin(['filters', 'update', String(before.id), '--conditions', JSON.stringify(conditions), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const put = (await fx.requests()).find((q) => q.method === 'PUT')!;
    const sent = (put.body as Filter).conditions.conditions.flatMap((g) => g.conditions);
    expect(sent.length).toBeGreaterThan(0);
    for (const c of sent) expect(Object.keys(c).sort()).toEqual(['extra_value', 'field_id', 'object', 'operator', 'value']);
    expect(await shown(before.id)).toEqual(shownBefore);
  });

  it('the field_code of include_field_code is taken back too', async () => {
    const before = await dealFilter();
    const shownBefore = await shown(before.id);
    const got = await bin(['filters', 'get', String(before.id), '--include-field-code', '--json']);
    const conditions = (JSON.parse(got.stdout) as Filter).conditions;
    expect(conditions.conditions.flatMap((g) => g.conditions).map((c) => typeof c.field_code)).toContain('string');
    const r = await bin(['filters', 'update', String(before.id), '--conditions', JSON.stringify(conditions), '--name', 'Big open deals, renamed', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await shown(before.id)).toEqual({ ...shownBefore, name: 'Big open deals, renamed' });
  });

  it('a key that is neither sent nor set by the service is still refused (exit 2, nothing sent)', async () => {
    const before = await dealFilter();
    const cond = { glue: 'and', conditions: [{ glue: 'and', conditions: [{ object: 'deal', field_id: '1', operator: '=', value: '1', extra_valeu: null }] }] };
    const r = await bin(['filters', 'update', String(before.id), '--conditions', JSON.stringify(cond)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --data: unknown key "conditions.conditions.0.conditions.0.extra_valeu" (did you mean "extra_value"?)\n');
    expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });
});
