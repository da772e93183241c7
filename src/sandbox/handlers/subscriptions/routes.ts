// The nine subscription operations, paths exactly as the interface writes them (/v1/subscriptions/...).
// The interface states no costs: the v1 typical values are charged (get 2, find/payments 20,
// create/update/cancel 10, delete 6; the vendor's documents).
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { parseCancel, parseInstallmentCreate, parseInstallmentUpdate, parseRecurringCreate, parseRecurringUpdate, type PaymentIn } from './body.js';
import { monthlyValue, nextCycleAfter, recurringDueDates } from './schedule.js';
import {
  isRecurring, loadDeal, loadSubscription, payments, paymentsOf, positiveId, present, presentPayments, READ, refreshTotals,
  subscriptionNotFound, subscriptions, WRITE, type PaymentType, type Subscription,
} from './store.js';
import { v1Time } from '../../engine/time.js';

/** One subscription per deal (deleted ones do not count). */
function checkDealFree(state: SandboxState, dealId: number): void {
  const existing = subscriptions(state).find((s) => s.deal_id === dealId);
  if (existing) throw invalid('deal_id', `deal ${dealId} already has a subscription (id ${existing.id}); a deal can have only one`);
}

function addPayments(state: SandboxState, sub: Subscription, rows: PaymentIn[], type: PaymentType, now: Date): void {
  const t = v1Time(now);
  for (const p of rows) {
    payments(state).insert({
      subscription_id: sub.id, deal_id: sub.deal_id, is_active: true, amount: p.amount, currency: sub.currency, due_at: p.due_at,
      payment_type: type, description: p.description, add_time: t, update_time: t,
    });
  }
}

/** update_deal_value: the deal's value becomes the MRR (recurring) or the total of the payments (installment). */
function setDealValue(state: SandboxState, sub: Subscription, userId: number, now: Date): void {
  const value = isRecurring(sub)
    ? monthlyValue(sub.cadence_type!, sub.cycle_amount!)
    : Math.round(paymentsOf(state, sub.id).reduce((s, p) => s + p.amount, 0) * 100) / 100;
  state.deals.update(sub.deal_id, { value, update_time: now.toISOString() }, { userId });
}

function createRecurring(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = parseRecurringCreate(req.body);
  loadDeal(state, req.user, b.deal_id, () => invalid('deal_id', `no deal with id ${b.deal_id}`));
  checkDealFree(state, b.deal_id);
  const now = ctx.now();
  const t = v1Time(now);
  const dues = recurringDueDates(b.start_date, b.cadence_type, b.cycles_count);
  const sub = subscriptions(state).insert({
    user_id: req.userId, deal_id: b.deal_id, description: b.description, is_active: true, cadence_type: b.cadence_type,
    cycles_count: b.cycles_count, cycle_amount: b.cycle_amount, infinite: b.infinite, currency: b.currency, start_date: b.start_date,
    end_date: b.infinite ? null : dues[dues.length - 1]!, lifetime_value: 0, final_status: null, add_time: t, update_time: t,
  });
  addPayments(state, sub, dues.map((due_at) => ({ amount: b.cycle_amount, due_at, description: b.description })), 'recurring', now);
  addPayments(state, sub, b.payments, 'additional', now);
  const saved = refreshTotals(state, sub, now);
  if (b.update_deal_value) setDealValue(state, saved, req.userId, now);
  return ok(present(saved));
}

function createInstallment(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = parseInstallmentCreate(req.body);
  loadDeal(state, req.user, b.deal_id, () => invalid('deal_id', `no deal with id ${b.deal_id}`));
  checkDealFree(state, b.deal_id);
  const now = ctx.now();
  const t = v1Time(now);
  const sub = subscriptions(state).insert({
    user_id: req.userId, deal_id: b.deal_id, description: null, is_active: true, cadence_type: null, cycles_count: null,
    cycle_amount: null, infinite: false, currency: b.currency, start_date: null, end_date: null, lifetime_value: 0,
    final_status: null, add_time: t, update_time: t,
  });
  addPayments(state, sub, b.payments, 'installment', now);
  const saved = refreshTotals(state, sub, now);
  if (b.update_deal_value) setDealValue(state, saved, req.userId, now);
  return ok(present(saved));
}

function get(req: SandboxRequest, ctx: HandlerContext) {
  return ok(present(loadSubscription(ctx.state, req.user, req.params.id!)));
}

function findByDeal(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const dealId = positiveId('dealId', req.params.dealId!);
  loadDeal(state, req.user, dealId);
  const sub = subscriptions(state).find((s) => s.deal_id === dealId);
  if (!sub) throw subscriptionNotFound();
  return ok(present(sub));
}

function listPayments(req: SandboxRequest, ctx: HandlerContext) {
  const sub = loadSubscription(ctx.state, req.user, req.params.id!);
  return ok(presentPayments(sub, paymentsOf(ctx.state, sub.id)));
}

function requireKind(sub: Subscription, recurring: boolean): void {
  if (isRecurring(sub) !== recurring) {
    throw invalid('id', `subscription ${sub.id} is ${recurring ? 'an installment' : 'a recurring'} subscription; use the ${recurring ? 'installment' : 'recurring'} operation`);
  }
  if (!sub.is_active) throw invalid('id', `subscription ${sub.id} is canceled and cannot change`);
}

function updateRecurring(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const sub = loadSubscription(state, req.user, req.params.id!);
  requireKind(sub, true);
  const b = parseRecurringUpdate(req.body);
  const now = ctx.now();
  const t = v1Time(now);
  const after = paymentsOf(state, sub.id).filter((p) => p.due_at > b.effective_date);
  if (b.cycle_amount !== undefined) {
    for (const p of after.filter((x) => x.payment_type === 'recurring')) payments(state).update(p.id, { amount: b.cycle_amount, update_time: t });
  }
  if (b.payments) {
    // Given payments replace the additional payments due after the effective date; earlier ones stay.
    for (const p of after.filter((x) => x.payment_type === 'additional')) payments(state).markDeleted(p.id, { is_active: false, update_time: t });
    addPayments(state, sub, b.payments, 'additional', now);
  }
  const extra: Partial<Subscription> = {};
  if (b.cycle_amount !== undefined) extra.cycle_amount = b.cycle_amount;
  if (b.description !== undefined) extra.description = b.description;
  const saved = refreshTotals(state, sub, now, extra);
  if (b.update_deal_value) setDealValue(state, saved, req.userId, now);
  return ok(present(saved));
}

function updateInstallment(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const sub = loadSubscription(state, req.user, req.params.id!);
  requireKind(sub, false);
  const b = parseInstallmentUpdate(req.body);
  const now = ctx.now();
  for (const p of paymentsOf(state, sub.id)) payments(state).markDeleted(p.id, { is_active: false, update_time: v1Time(now) });
  addPayments(state, sub, b.payments, 'installment', now);
  const saved = refreshTotals(state, sub, now);
  if (b.update_deal_value) setDealValue(state, saved, req.userId, now);
  return ok(present(saved));
}

/**
 * Cancel (interface, States): end_date defaults to today; payments after it are deleted; the
 * subscription's end date becomes the due date of the payment following end_date; status canceled.
 */
function cancel(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const sub = loadSubscription(state, req.user, req.params.id!);
  if (!isRecurring(sub)) throw invalid('id', `subscription ${sub.id} is an installment subscription; only recurring ones are canceled`);
  if (!sub.is_active) throw invalid('id', `subscription ${sub.id} is already canceled`);
  const now = ctx.now();
  const endDate = parseCancel(req.body).end_date ?? now.toISOString().slice(0, 10);
  const later = paymentsOf(state, sub.id).filter((p) => p.due_at > endDate);
  // The following payment may lie beyond the stored window of an infinite subscription: ask the schedule.
  const following = later[0]?.due_at ?? nextCycleAfter(sub.start_date!, sub.cadence_type!, sub.cycles_count, endDate) ?? endDate;
  for (const p of later) payments(state).markDeleted(p.id, { is_active: false, update_time: v1Time(now) });
  const saved = refreshTotals(state, sub, now, { is_active: false, final_status: 'canceled', end_date: following });
  return ok(present(saved));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const sub = loadSubscription(state, req.user, req.params.id!);
  const now = ctx.now();
  const t = v1Time(now);
  for (const p of paymentsOf(state, sub.id)) payments(state).markDeleted(p.id, { is_active: false, update_time: t });
  const deleted = subscriptions(state).markDeleted(sub.id, { is_active: false, final_status: 'deleted', update_time: t })!;
  return ok(present(deleted));
}

export const routes: RouteDef[] = [
  { method: 'GET', path: '/v1/subscriptions/{id}', cost: 2, scopes: READ, handler: get },
  { method: 'GET', path: '/v1/subscriptions/find/{dealId}', cost: 20, scopes: READ, handler: findByDeal },
  { method: 'GET', path: '/v1/subscriptions/{id}/payments', cost: 20, scopes: READ, handler: listPayments },
  { method: 'POST', path: '/v1/subscriptions/recurring', cost: 10, scopes: WRITE, handler: createRecurring },
  { method: 'POST', path: '/v1/subscriptions/installment', cost: 10, scopes: WRITE, handler: createInstallment },
  { method: 'PUT', path: '/v1/subscriptions/recurring/{id}', cost: 10, scopes: WRITE, handler: updateRecurring },
  { method: 'PUT', path: '/v1/subscriptions/installment/{id}', cost: 10, scopes: WRITE, handler: updateInstallment },
  { method: 'PUT', path: '/v1/subscriptions/recurring/{id}/cancel', cost: 10, scopes: WRITE, handler: cancel },
  { method: 'DELETE', path: '/v1/subscriptions/{id}', cost: 6, scopes: WRITE, handler: remove },
];
