// The sandbox enforces the interface's rules itself (service-shaped 400s), for clients that skip the CLI's checks.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { cli } from './helpers.js';

let fx: SandboxFixture;
const { api } = cli(() => fx);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  fx.sandbox.state.company.plan = 'premium';
});

const expect400 = (res: { status: number; body: any }, error: string) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, data: null, additional_data: null });
  expect(res.body.error).toBe(error);
};

describe('routes', () => {
  it('the thirteen routes with the interface paths, the chosen costs and the scopes', async () => {
    const res = await fetch(`${fx.sandbox.url}/__sandbox/routes`);
    const routes = ((await res.json()) as { data: { method: string; path: string; cost: number; scopes: string[] }[] }).data;
    const mine = routes.filter((r) => /^\/v1\/subscriptions|installments/.test(r.path)).map((r) => `${r.method} ${r.path} ${r.cost} ${r.scopes.join('|')}`);
    expect(mine.sort()).toEqual([
      'DELETE /api/v2/deals/{id}/installments/{installment_id} 3 deals:read|deals:full',
      'DELETE /v1/subscriptions/{id} 6 deals:full',
      'GET /api/v2/deals/installments 10 deals:read|deals:full',
      'GET /v1/subscriptions/find/{dealId} 20 deals:read|deals:full',
      'GET /v1/subscriptions/{id} 2 deals:read|deals:full',
      'GET /v1/subscriptions/{id}/payments 20 deals:read|deals:full',
      'PATCH /api/v2/deals/{id}/installments/{installment_id} 5 deals:read|deals:full',
      'POST /api/v2/deals/{id}/installments 5 deals:read|deals:full',
      'POST /v1/subscriptions/installment 10 deals:full',
      'POST /v1/subscriptions/recurring 10 deals:full',
      'PUT /v1/subscriptions/installment/{id} 10 deals:full',
      'PUT /v1/subscriptions/recurring/{id} 10 deals:full',
      'PUT /v1/subscriptions/recurring/{id}/cancel 10 deals:full',
    ]);
  });

  it('the /api/v1 form of a subscription path is served too', async () => {
    const res = await api('GET', '/api/v1/subscriptions/1');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: 1, deal_id: 4 });
  });
});

const recurring = { deal_id: 1, currency: 'EUR', cadence_type: 'monthly', cycle_amount: 100, start_date: '2026-01-01', cycles_count: 2 };

describe('subscription rules', () => {
  it.each([
    [{ ...recurring, deal_id: undefined }, 'deal_id: is required'],
    [{ ...recurring, currency: 'EURO' }, 'currency: must be a 3-character currency code'],
    [{ ...recurring, cadence_type: 'daily' }, 'cadence_type: must be one of weekly, monthly, quarterly, yearly'],
    [{ ...recurring, cycle_amount: 99.5 }, 'cycle_amount: must be an integer'],
    [{ ...recurring, start_date: undefined }, 'start_date: is required'],
    [{ ...recurring, start_date: '2026-02-30' }, 'start_date: must be a date in YYYY-MM-DD format'],
    [{ ...recurring, cycles_count: undefined }, 'cycles_count: is required unless infinite=true (set exactly one of them)'],
    [{ ...recurring, infinite: true }, 'cycles_count: cannot be set together with infinite=true (set exactly one of them)'],
    [{ ...recurring, cycles_count: 0 }, 'cycles_count: must be at least 1'],
    [{ ...recurring, payments: [{ amount: 5 }] }, 'payments[0].due_at: is required'],
    [{ ...recurring, payments: [{ amount: 'five', due_at: '2026-01-05' }] }, 'payments[0].amount: must be a number'],
    [{ ...recurring, interval: 'monthly' }, 'interval: is not a known field of this operation'],
    [{ ...recurring, deal_id: 999 }, 'deal_id: no deal with id 999'],
    [{ ...recurring, deal_id: 4 }, 'deal_id: deal 4 already has a subscription (id 1); a deal can have only one'],
  ])('create recurring %j → 400 %s', async (body, error) => {
    expect400(await api('POST', '/v1/subscriptions/recurring', body), error);
    expect((await fx.collection('subscriptions')).length).toBe(2);
  });

  it.each([
    [{ deal_id: 1, currency: 'EUR', payments: [] }, 'payments: must have at least one payment'],
    [{ deal_id: 1, currency: 'EUR' }, 'payments: is required'],
    [{ deal_id: 1, payments: [{ amount: 1, due_at: '2026-01-01' }] }, 'currency: is required'],
  ])('create installment %j → 400 %s', async (body, error) => {
    expect400(await api('POST', '/v1/subscriptions/installment', body), error);
  });

  it('update recurring: effective_date required; payments must be due after it; not on an installment subscription', async () => {
    expect400(await api('PUT', '/v1/subscriptions/recurring/1', { cycle_amount: 5 }), 'effective_date: is required');
    expect400(await api('PUT', '/v1/subscriptions/recurring/1', { effective_date: '2025-06-01', payments: [{ amount: 1, due_at: '2025-05-01' }] }),
      'payments[0].due_at: must be after effective_date 2025-06-01');
    expect400(await api('PUT', '/v1/subscriptions/recurring/2', { effective_date: '2025-06-01' }),
      'id: subscription 2 is an installment subscription; use the installment operation');
    expect400(await api('PUT', '/v1/subscriptions/installment/1', { payments: [{ amount: 1, due_at: '2025-05-01' }] }),
      'id: subscription 1 is a recurring subscription; use the recurring operation');
  });

  it('cancel: only recurring, only once; a canceled subscription cannot be updated', async () => {
    expect400(await api('PUT', '/v1/subscriptions/recurring/2/cancel', {}), 'id: subscription 2 is an installment subscription; only recurring ones are canceled');
    expect400(await api('PUT', '/v1/subscriptions/recurring/1/cancel', { end_date: 'soon' }), 'end_date: must be a date in YYYY-MM-DD format');
    expect((await api('PUT', '/v1/subscriptions/recurring/1/cancel', { end_date: '2025-03-15' })).body.data).toMatchObject({ end_date: '2025-04-01', final_status: 'canceled' });
    expect400(await api('PUT', '/v1/subscriptions/recurring/1', { effective_date: '2025-06-01', cycle_amount: 1 }), 'id: subscription 1 is canceled and cannot change');
  });

  it('an infinite subscription canceled beyond its kept payments ends on the next cycle of its schedule', async () => {
    const created = await api('POST', '/v1/subscriptions/recurring', { ...recurring, cycles_count: undefined, infinite: true, cadence_type: 'quarterly' });
    expect(created.status).toBe(200);
    const canceled = await api('PUT', `/v1/subscriptions/recurring/${created.body.data.id}/cancel`, { end_date: '2030-05-20' });
    expect(canceled.body.data).toMatchObject({ end_date: '2030-07-01', is_active: false, infinite: true });
  });

  it('payments answer is an array; a missing subscription is the service-shaped 404; a bad id is a 400', async () => {
    const res = await api('GET', '/v1/subscriptions/2/payments');
    expect(res.body).toMatchObject({ success: true });
    expect(res.body.data.map((p: { due_at: string; change_amount: number; revenue_movement_type: string }) => [p.due_at, p.change_amount, p.revenue_movement_type]))
      .toEqual([['2025-02-15', 6250, 'new'], ['2025-08-15', 0, 'churn']]);
    expect(await api('GET', '/v1/subscriptions/77')).toEqual({ status: 404, body: { success: false, error: 'Subscription not found', error_info: 'Object was not found.', data: null, additional_data: null } });
    expect400(await api('GET', '/v1/subscriptions/abc'), 'id: must be a positive integer');
  });

  it('writes need deals:full: a deals:read token gets 403 and nothing changes', async () => {
    const token = fx.sandbox.issueToken({ scopes: ['deals:read'] }).access_token;
    const res = await api('DELETE', '/v1/subscriptions/1', undefined, token);
    expect(res.status).toBe(403);
    expect((await fx.collection('subscriptions')).length).toBe(2);
  });
});

describe('deal installment rules', () => {
  const good = { description: 'Deposit', amount: 100, billing_date: '2026-01-01' };

  it.each([
    [{ ...good, amount: 0 }, 'amount: must be greater than 0'],
    [{ ...good, amount: -1 }, 'amount: must be greater than 0'],
    [{ ...good, amount: '100' }, 'amount: must be a number'],
    [{ ...good, description: undefined }, 'description: is required'],
    [{ ...good, billing_date: '2026-1-1' }, 'billing_date: must be a date in YYYY-MM-DD format'],
    [{ ...good, due: 'x' }, 'due: is not a known field of this operation'],
  ])('add %j → 400 %s', async (body, error) => {
    expect400(await api('POST', '/api/v2/deals/1/installments', body), error);
  });

  it('the product rule holds on add and on update', async () => {
    expect400(await api('POST', '/api/v2/deals/5/installments', good), 'id: deal 5 has no one-time product; add one before adding installments');
    // A recurring product added to a deal that already has installments blocks further changes.
    fx.sandbox.state.collection('dealProducts').insert({ deal_id: 1, product_id: 1, item_price: 10, quantity: 1, currency: 'EUR', billing_frequency: 'quarterly' });
    const res = await api('PATCH', '/api/v2/deals/1/installments/1', { amount: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^id: deal 1 has recurring products \(.+: quarterly\); installments need one-time products only$/);
  });

  it('list: deal_ids required, at most 100, limit at most 500, known sort fields', async () => {
    expect400(await api('GET', '/api/v2/deals/installments'), 'deal_ids: is required');
    expect400(await api('GET', `/api/v2/deals/installments?deal_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`), 'deal_ids: must have at most 100 ids');
    expect400(await api('GET', '/api/v2/deals/installments?deal_ids=1&limit=501'), 'limit: must be at most 500');
    expect400(await api('GET', '/api/v2/deals/installments?deal_ids=1&sort_by=amount'), 'sort_by: must be one of id, billing_date, deal_id');
  });

  it('delete answers {id} and the installment is gone from the list', async () => {
    expect((await api('DELETE', '/api/v2/deals/1/installments/2')).body).toEqual({ success: true, data: { id: 2 }, additional_data: null });
    const list = await api('GET', '/api/v2/deals/installments?deal_ids=1');
    expect(list.body.data.map((i: { id: number }) => i.id)).toEqual([1, 3]);
    expect((await api('DELETE', '/api/v2/deals/1/installments/2')).status).toBe(404);
  });
});
