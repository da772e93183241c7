// crmctl installments (deal installments, v2) against the sandbox.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { cli } from './helpers.js';

let fx: SandboxFixture;
const { run, json, api, deleted } = cli(() => fx);
type Inst = { id: number; deal_id: number; description: string; amount: number; billing_date: string };
const stored = async () => (await fx.collection<Inst>('dealInstallments')).sort((a, b) => a.id - b.id);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  fx.sandbox.state.company.plan = 'premium';
  await fx.clearRequests();
});

describe('installments list', () => {
  it('lists the installments of the named deals as TSV, sorted as asked; deal_ids sent as a comma list', async () => {
    const r = await run(['installments', 'list', '--deal-ids', '1,6', '--sort-by', 'billing_date', '--sort-direction', 'desc']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${[
      '3\t1\t2025-08-01\t8000\tFinal payment',
      '2\t1\t2025-05-01\t8000\tSecond payment',
      '4\t6\t2025-03-01\t4300\tPilot hardware',
      '1\t1\t2025-02-01\t8000\tDeposit',
    ].join('\n')}\n`);
    const [req] = await fx.requests();
    expect([req!.method, req!.path, req!.query, req!.cost]).toEqual(['GET', '/api/v2/deals/installments',
      { deal_ids: '1,6', sort_by: 'billing_date', sort_direction: 'desc', limit: '100' }, 10]);
  });

  it('json records have the service shape; a deal without installments adds nothing', async () => {
    expect(await json(['installments', 'list', '--deal-ids', '6,5'])).toEqual([{ id: 4, amount: 4300, billing_date: '2025-03-01', description: 'Pilot hardware', deal_id: 6 }]);
  });

  it('--cursor resumes where a page ended (cursor pagination)', async () => {
    const first = await api('GET', '/api/v2/deals/installments?deal_ids=1,6&limit=2');
    expect(first.body.data.map((i: Inst) => i.id)).toEqual([1, 2]);
    const cursor = first.body.additional_data.next_cursor as string;
    const rest = await json(['installments', 'list', '--deal-ids', '1,6', '--cursor', cursor]);
    expect(rest.map((i: Inst) => i.id)).toEqual([3, 4]);
    const all = await json(['installments', 'list', '--deal-ids', '1,6', '--all']);
    expect(all.map((i: Inst) => i.id)).toEqual([1, 2, 3, 4]);
  });

  it.each([
    [[], '--deal-ids: is required'],
    [['--deal-ids', 'acme'], '--deal-ids: must be a comma-separated list of integers'],
    [['--deal-ids', Array.from({ length: 101 }, (_, i) => i + 1).join(',')], '--deal-ids: must have at most 100 items'],
    [['--deal-ids', '1', '--sort-by', 'amount'], "argument 'amount' is invalid"],
    [['--deal-ids', '1', '--limit', '0'], '--limit: must be a positive integer'],
  ])('refuses %j before sending: %s', async (args, message) => {
    const r = await run(['installments', 'list', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });

  it('below the Growth plan the service refuses installments (403, exit 4)', async () => {
    fx.sandbox.state.company.plan = 'light';
    const r = await run(['installments', 'list', '--deal-ids', '1']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Deal installments are available on the Growth plan and above');
  });
});

describe('installments add', () => {
  it('adds an installment to a deal with one-time products only', async () => {
    const inst = await json(['installments', 'add', '3', '--description', 'Kick-off', '--amount', '2500.5', '--billing-date', '2026-03-01']);
    expect(inst).toEqual({ id: 5, amount: 2500.5, billing_date: '2026-03-01', description: 'Kick-off', deal_id: 3 });
    // After users/me (the write is recorded as a run of this account).
    const [, req] = await fx.requests();
    expect([req!.method, req!.path, req!.status, req!.cost, req!.body]).toEqual(['POST', '/api/v2/deals/3/installments', 200, 5,
      { description: 'Kick-off', amount: 2500.5, billing_date: '2026-03-01' }]);
    expect((await stored()).at(-1)).toMatchObject({ id: 5, deal_id: 3, amount: 2500.5 });
  });

  it.each([
    ['2', 'deal 2 has recurring products (Fleet tracking platform: monthly); installments need one-time products only'],
    ['4', 'deal 4 has recurring products'],
    ['5', 'deal 5 has no one-time product'],
  ])('the product rule is the service\'s: deal %s is refused with a clear message (exit 2)', async (deal, message) => {
    const r = await run(['installments', 'add', deal, '--description', 'x', '--amount', '10', '--billing-date', '2026-01-01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`The service answered 400 for POST /api/v2/deals/${deal}/installments: id: ${message}`);
    expect((await fx.requests()).map((q) => q.status)).toEqual([400]);
    expect(await stored()).toHaveLength(4);
  });

  it.each([
    [['--amount', '10', '--billing-date', '2026-01-01'], '--description: is required'],
    [['--description', 'x', '--amount', '0', '--billing-date', '2026-01-01'], '--amount: must be greater than 0'],
    [['--description', 'x', '--amount', '-5', '--billing-date', '2026-01-01'], '--amount: must be greater than 0'],
    [['--description', 'x', '--amount', '10', '--billing-date', '01/02/2026'], '--billing-date: must be a date YYYY-MM-DD'],
    [['--description', '  ', '--amount', '10', '--billing-date', '2026-01-01'], '--description: must have at least 1 character'],
  ])('refuses %j before sending: %s', async (args, message) => {
    const r = await run(['installments', 'add', '1', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });

  it('an unknown deal is a 404 (exit 5); a bad deal id never leaves the CLI', async () => {
    const r = await run(['installments', 'add', '999', '--description', 'x', '--amount', '1', '--billing-date', '2026-01-01']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Deal not found');
    await fx.clearRequests();
    const bad = await run(['installments', 'add', '0', '--description', 'x', '--amount', '1', '--billing-date', '2026-01-01']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<id>: must be a positive integer');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('installments update and delete', () => {
  it('update sends only the given fields and changes only those', async () => {
    const inst = await json(['installments', 'update', '1', '2', '--amount', '8500']);
    expect(inst).toEqual({ id: 2, amount: 8500, billing_date: '2025-05-01', description: 'Second payment', deal_id: 1 });
    const [req] = await fx.requests();
    expect([req!.method, req!.path, req!.body]).toEqual(['PATCH', '/api/v2/deals/1/installments/2', { amount: 8500 }]);
  });

  it('update with no field is refused before sending', async () => {
    const r = await run(['installments', 'update', '1', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to update');
    expect(await fx.requests()).toEqual([]);
  });

  it('an installment of another deal is not found (exit 5)', async () => {
    const r = await run(['installments', 'update', '6', '2', '--amount', '1']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Installment not found');
  });

  it('delete needs --yes off a terminal; with it the installment is marked deleted and {id} printed', async () => {
    const no = await run(['installments', 'delete', '1', '3']);
    expect(no.code).toBe(2);
    expect(await fx.requests()).toEqual([]);
    const r = await run(['installments', 'delete', '1', '3', '--yes', '--output', 'tsv']);
    expect([r.code, r.stdout]).toEqual([0, '3\n']);
    expect((await stored()).map((i) => i.id)).toEqual([1, 2, 4]);
    expect((await deleted('dealInstallments')).map((i: Inst) => i.id)).toEqual([3]);
    expect((await fx.requests()).map((q) => [q.method, q.path, q.cost])).toEqual([['DELETE', '/api/v2/deals/1/installments/3', 3]]);
  });

  it('deals:read is enough for the vendor (its spec lists it on writes too), so the CLI lets it through', async () => {
    const token = fx.sandbox.issueToken({ scopes: ['deals:read'] }).access_token;
    const r = await run(['installments', 'update', '1', '1', '--description', 'Deposit (signed)', '--json'], { env: { CRMCTL_ACCESS_TOKEN: token } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).description).toBe('Deposit (signed)');
    const none = fx.sandbox.issueToken({ scopes: ['leads:read'] }).access_token;
    const refused = await run(['installments', 'list', '--deal-ids', '1'], { env: { CRMCTL_ACCESS_TOKEN: none } });
    expect(refused.code).toBe(4);
  });
});
