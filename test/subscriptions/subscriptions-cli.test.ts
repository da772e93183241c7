// crmctl subscriptions against the sandbox: what users see, what reached the service, what is left behind.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { cli } from './helpers.js';

let fx: SandboxFixture;
const { run, json, deleted } = cli(() => fx);
const dealValue = async (id: number) => (await fx.collection<{ id: number; value: number }>('deals')).find((d) => d.id === id)!.value;
const livePayments = async (subId: number) =>
  (await fx.collection<{ subscription_id: number; due_at: string; amount: number; payment_type: string }>('subscriptionPayments'))
    .filter((p) => p.subscription_id === subId)
    .sort((a, b) => a.due_at.localeCompare(b.due_at));

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

const RECURRING = ['subscriptions', 'create-recurring', '--deal-id', '1', '--currency', 'EUR', '--start-date', '2026-01-31'];

describe('subscriptions create-recurring', () => {
  it('creates the subscription and its schedule; sends exactly the typed flags', async () => {
    const sub = await json([...RECURRING, '--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '3', '--description', 'Hosting',
      '--payment', '300:2026-02-10:Setup: on site']);
    expect(sub).toMatchObject({ deal_id: 1, currency: 'EUR', cadence_type: 'monthly', cycle_amount: 450, cycles_count: 3, infinite: false,
      start_date: '2026-01-31', end_date: '2026-03-31', is_active: true, final_status: null, lifetime_value: 1650, description: 'Hosting' });
    const reqs = await fx.requests();
    // users/me: the write is recorded as a run of this account.
    expect(reqs.map((r) => [r.method, r.path, r.status, r.cost])).toEqual([['GET', '/api/v1/users/me', 200, 2], ['POST', '/v1/subscriptions/recurring', 200, 10]]);
    expect(reqs[1]!.body).toEqual({ deal_id: 1, currency: 'EUR', start_date: '2026-01-31', cadence_type: 'monthly', cycle_amount: 450, cycles_count: 3,
      description: 'Hosting', payments: [{ amount: 300, due_at: '2026-02-10', description: 'Setup: on site' }] });
    expect((await livePayments(sub.id)).map((p) => [p.due_at, p.amount, p.payment_type])).toEqual([
      ['2026-01-31', 450, 'recurring'], ['2026-02-10', 300, 'additional'], ['2026-02-28', 450, 'recurring'], ['2026-03-31', 450, 'recurring'],
    ]);
    // Without --update-deal-value the deal keeps its value.
    expect(await dealValue(1)).toBe(24000);
  });

  it.each([
    ['weekly', '120', 520],
    ['monthly', '450', 450],
    ['quarterly', '900', 300],
    ['yearly', '1000', 83.33],
  ])('--update-deal-value puts the MRR of a %s cycle of %s on the deal', async (cadence, amount, mrr) => {
    await json([...RECURRING, '--cadence-type', cadence, '--cycle-amount', amount, '--infinite', '--update-deal-value']);
    expect(await dealValue(1)).toBe(mrr);
  });

  it.each([
    [['--cadence-type', 'monthly', '--cycle-amount', '450'], '--cycles-count: is required unless --infinite is set'],
    [['--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '3', '--infinite'], '--infinite: cannot be combined with --cycles-count'],
    [['--cadence-type', 'monthly', '--cycle-amount', '45.5', '--cycles-count', '3'], '--cycle-amount: must be an integer (got "45.5")'],
    [['--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '0'], '--cycles-count: must be at least 1'],
    [['--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '3', '--currency', 'EURO'], '--currency: must be a 3-letter currency code'],
    [['--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '3', '--start-date', '2026-02-30'], '--start-date: must be a real calendar date YYYY-MM-DD'],
    [['--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '3', '--payment', '300'], '--payment: item 1 ("300"): must be AMOUNT:DUE_AT[:DESCRIPTION]'],
    [['--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '3', '--payment', '10:2026-01-01', '--payment', 'ten:2026-01-01'], '--payment: item 2 ("ten:2026-01-01"): AMOUNT must be a number'],
    [['--cadence-type', 'monthly', '--cycle-amount', '450', '--cycles-count', '3', '--payment', '10:2026-13-01'], '--payment: item 1 ("10:2026-13-01"): DUE_AT must be a real calendar date'],
    [['--cadence-type', 'daily', '--cycle-amount', '450', '--cycles-count', '3'], "argument 'daily' is invalid"],
  ])('refuses %j before sending: %s', async (extra, message) => {
    const r = await run([...RECURRING, ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(await fx.requests()).toEqual([]);
  });

  it('a deal has one subscription: the service refuses a second one and the CLI shows why (exit 2)', async () => {
    const r = await run(['subscriptions', 'create-recurring', '--deal-id', '4', '--currency', 'EUR', '--cadence-type', 'yearly', '--cycle-amount', '100',
      '--start-date', '2026-01-01', '--infinite']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('The service answered 400 for POST /v1/subscriptions/recurring: deal_id: deal 4 already has a subscription (id 1)');
    expect((await fx.requests()).map((q) => q.status)).toEqual([400]);
    expect((await fx.collection('subscriptions')).length).toBe(2);
  });

  it('a token with deals:read only cannot create (exit 4, the needed scope named)', async () => {
    const token = fx.sandbox.issueToken({ scopes: ['deals:read'] }).access_token;
    const r = await run([...RECURRING, '--cadence-type', 'monthly', '--cycle-amount', '1', '--cycles-count', '1'], { env: { CRMCTL_ACCESS_TOKEN: token } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('deals:full');
    const read = await run(['subscriptions', 'get', '1', '--fields', 'id,deal_id', '--output', 'tsv'], { env: { CRMCTL_ACCESS_TOKEN: token } });
    expect([read.code, read.stdout]).toEqual([0, '1\t4\n']);
  });
});

describe('subscriptions create-installment', () => {
  it('takes repeated --payment flags; --update-deal-value puts the total on the deal', async () => {
    const sub = await json(['subscriptions', 'create-installment', '--deal-id', '2', '--currency', 'eur', '--payment', '3000:2026-02-01:First',
      '--payment', '1250.5:2026-05-01', '--update-deal-value']);
    expect(sub).toMatchObject({ deal_id: 2, currency: 'EUR', cadence_type: null, cycles_count: null, start_date: '2026-02-01', end_date: '2026-05-01', lifetime_value: 4250.5 });
    const [post] = await fx.requests();
    expect(post!.body).toEqual({ deal_id: 2, currency: 'eur', update_deal_value: true, payments: [{ amount: 3000, due_at: '2026-02-01', description: 'First' }, { amount: 1250.5, due_at: '2026-05-01' }] });
    expect(await dealValue(2)).toBe(4250.5);
  });

  it('reads payments from --payments-file or stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-subs-'));
    const file = join(dir, 'payments.json');
    writeFileSync(file, JSON.stringify([{ amount: 100, due_at: '2026-03-01', description: 'Only' }]));
    const a = await json(['subscriptions', 'create-installment', '--deal-id', '2', '--currency', 'EUR', '--payments-file', file]);
    expect((await livePayments(a.id)).map((p) => [p.due_at, p.amount])).toEqual([['2026-03-01', 100]]);
    const b = await run(['subscriptions', 'create-installment', '--deal-id', '5', '--currency', 'EUR', '--payments-file', '-', '--json'],
      { stdin: '[{"amount": 7, "due_at": "2026-04-01"}]' });
    expect(b.code).toBe(0);
    expect((await livePayments(JSON.parse(b.stdout).id)).map((p) => [p.due_at, p.amount])).toEqual([['2026-04-01', 7]]);
  });

  it.each([
    [[], '--payment: is required: give --payment AMOUNT:DUE_AT[:DESCRIPTION] (repeatable) or --payments-file FILE'],
    [['--payment', '1:2026-01-01', '--payments-file', '-'], 'give payments either with --payment or with --payments-file, not both'],
    [['--payments-file', '-'], '--payments-file: item 2: due_at is required', '[{"amount":1,"due_at":"2026-01-01"},{"amount":2}]'],
    [['--payments-file', '-'], '--payments-file: must hold a JSON array of payments', '{"amount":1}'],
    [['--payments-file', '-'], '--payments-file: must be JSON', 'not json'],
  ])('refuses %j before sending: %s', async (extra, message, stdin?: string) => {
    const r = await run(['subscriptions', 'create-installment', '--deal-id', '2', '--currency', 'EUR', ...extra], { stdin });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });
});

describe('subscriptions get, find, payments', () => {
  it('find --deal-id shows the subscription of a deal; get by id shows the same record', async () => {
    const found = await json(['subscriptions', 'find', '--deal-id', '3']);
    expect(found).toMatchObject({ id: 2, deal_id: 3, currency: 'USD', lifetime_value: 12500, start_date: '2025-02-15', end_date: '2025-08-15' });
    expect(await json(['subscriptions', 'get', '2'])).toEqual(found);
    expect((await fx.requests()).map((r) => [r.method, r.path, r.cost])).toEqual([['GET', '/v1/subscriptions/find/3', 20], ['GET', '/v1/subscriptions/2', 2]]);
  });

  it('payments come as a table of the schedule, by due date, with the revenue movement', async () => {
    const r = await run(['subscriptions', 'payments', '1', '--fields', 'due_at,amount,payment_type,revenue_movement_type']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual(['2025-02-01\t4500\trecurring\tnew', '2025-02-15\t2500\tadditional\t', '2025-03-01\t4500\trecurring\trecurring']);
    expect(lines).toHaveLength(13);
    expect(lines.at(-1)).toBe('2026-01-01\t4500\trecurring\tchurn');
  });

  it.each([
    [['subscriptions', 'find', '--deal-id', '5'], 5, 'Subscription not found'],
    [['subscriptions', 'find', '--deal-id', '999'], 5, 'Deal not found'],
    [['subscriptions', 'get', '999'], 5, 'Subscription not found'],
  ])('%j exits %d: %s', async (args, code, message) => {
    const r = await run(args);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
  });

  it.each([
    [['subscriptions', 'find'], '--deal-id: is required'],
    [['subscriptions', 'find', '--deal-id', 'acme'], '--deal-id: must be a positive integer (got "acme")'],
    [["subscriptions", "get", "x"], "<id>: must be a positive integer"],
  ])('%j is refused before sending: %s', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });
});

describe('subscriptions update-recurring and update-installment', () => {
  it('changes only the payments due after --effective-date; --update-deal-value sets the new MRR', async () => {
    const sub = await json(['subscriptions', 'update-recurring', '1', '--effective-date', '2025-06-15', '--cycle-amount', '5000', '--payment', '900:2025-09-01:Training',
      '--update-deal-value']);
    expect(sub).toMatchObject({ id: 1, cycle_amount: 5000, lifetime_value: 4500 * 5 + 5000 * 7 + 2500 + 900 });
    const [put] = await fx.requests();
    expect([put!.method, put!.path, put!.body]).toEqual(['PUT', '/v1/subscriptions/recurring/1',
      { effective_date: '2025-06-15', cycle_amount: 5000, update_deal_value: true, payments: [{ amount: 900, due_at: '2025-09-01', description: 'Training' }] }]);
    const rows = (await livePayments(1)).filter((p) => p.payment_type === 'recurring');
    expect(rows.map((p) => p.amount)).toEqual([4500, 4500, 4500, 4500, 4500, 5000, 5000, 5000, 5000, 5000, 5000, 5000]);
    expect(await dealValue(4)).toBe(5000);
  });

  it.each([
    [['--cycle-amount', '10'], '--effective-date: is required'],
    [['--effective-date', '2025-06-15', '--payment', '9:2025-06-15'], '--payment: item 1 is due 2025-06-15; payments must be due after --effective-date 2025-06-15'],
  ])('refuses %j before sending: %s', async (extra, message) => {
    const r = await run(['subscriptions', 'update-recurring', '1', ...extra]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });

  it('update-installment replaces every payment; the old ones are marked deleted', async () => {
    const before = (await livePayments(2)).length;
    const sub = await json(['subscriptions', 'update-installment', '2', '--payment', '4000:2025-03-01', '--payment', '8500:2025-09-01', '--update-deal-value']);
    expect(sub).toMatchObject({ id: 2, start_date: '2025-03-01', end_date: '2025-09-01', lifetime_value: 12500 });
    expect((await livePayments(2)).map((p) => [p.due_at, p.amount])).toEqual([['2025-03-01', 4000], ['2025-09-01', 8500]]);
    expect((await deleted('subscriptionPayments')).filter((p) => p.subscription_id === 2)).toHaveLength(before);
    expect(await dealValue(3)).toBe(12500);
  });

  it('the service refuses the recurring update on an installment subscription (exit 2, reason shown)', async () => {
    const r = await run(['subscriptions', 'update-recurring', '2', '--effective-date', '2025-06-15', '--cycle-amount', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('subscription 2 is an installment subscription');
  });
});

describe('subscriptions cancel and delete', () => {
  it('cancel needs --yes off a terminal and sends nothing without it', async () => {
    const r = await run(['subscriptions', 'cancel', '1', '--end-date', '2025-06-10']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await fx.requests()).toEqual([]);
  });

  it('cancel deletes the payments after --end-date; the end date becomes the next payment date', async () => {
    const sub = await json(['subscriptions', 'cancel', '1', '--end-date', '2025-06-10', '--yes']);
    expect(sub).toMatchObject({ id: 1, is_active: false, final_status: 'canceled', end_date: '2025-07-01', lifetime_value: 4500 * 5 + 2500 });
    expect((await fx.requests()).map((r) => [r.method, r.path, r.body])).toEqual([['PUT', '/v1/subscriptions/recurring/1/cancel', { end_date: '2025-06-10' }]]);
    expect((await livePayments(1)).at(-1)!.due_at).toBe('2025-06-01');
    expect((await deleted('subscriptionPayments')).filter((p) => p.subscription_id === 1).map((p) => p.due_at).sort()[0]).toBe('2025-07-01');
    const again = await run(['subscriptions', 'cancel', '1', '--yes']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('subscription 1 is already canceled');
  });

  it('cancel without --end-date sends an empty body and ends at the first payment after today', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const sub = await json(['subscriptions', 'create-recurring', '--deal-id', '1', '--currency', 'EUR', '--cadence-type', 'weekly', '--cycle-amount', '10',
      '--start-date', today, '--infinite']);
    await fx.clearRequests();
    const canceled = await json(['subscriptions', 'cancel', String(sub.id), '--yes']);
    expect((await fx.requests())[0]!.body).toEqual({});
    const next = new Date(`${today}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 7);
    expect(canceled.end_date).toBe(next.toISOString().slice(0, 10));
    expect((await livePayments(sub.id)).map((p) => p.due_at)).toEqual([today]);
  });

  it('delete marks the subscription and its payments deleted; the deal can then take a new one', async () => {
    const r = await run(['subscriptions', 'delete', '2', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 2, deal_id: 3, is_active: false });
    expect((await fx.collection<{ id: number }>('subscriptions')).map((s) => s.id)).toEqual([1]);
    expect((await deleted('subscriptions')).map((s) => s.id)).toEqual([2]);
    expect(await livePayments(2)).toEqual([]);
    expect((await run(['subscriptions', 'get', '2'])).code).toBe(5);
    const again = await json(['subscriptions', 'create-installment', '--deal-id', '3', '--currency', 'USD', '--payment', '1:2026-01-01']);
    expect(again.deal_id).toBe(3);
  });
});

describe('subscriptions help', () => {
  it.each(['create-recurring', 'create-installment', 'get', 'find', 'payments', 'update-recurring', 'update-installment', 'cancel', 'delete'])(
    '%s says the vendor retired subscriptions and shows an example',
    async (verb) => {
      const r = await run(['subscriptions', verb, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('retired from the vendor\'s live service');
      expect(r.stdout).toMatch(new RegExp(`\\$ crmctl subscriptions ${verb} `));
    },
  );
});
