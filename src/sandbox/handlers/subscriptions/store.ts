// Subscription and payment records (the vendor's former Subscriptions API and its SDK's PaymentItem), their
// collections, lookups with the service's 404/403, and the derived payment fields.
import { ApiError, forbidden, invalid } from '../../http/errors.js';
import type { Deal, User } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import { canSee } from '../../engine/access.js';
import type { Cadence } from './schedule.js';
import { v1Time } from '../../engine/time.js';

export const READ = ['deals:read', 'deals:full'];
export const WRITE = ['deals:full'];

export interface Subscription {
  id: number;
  user_id: number;
  deal_id: number;
  description: string | null;
  is_active: boolean;
  /** Recurring only (null for installment subscriptions, which is how the two kinds are told apart). */
  cadence_type: Cadence | null;
  cycles_count: number | null;
  cycle_amount: number | null;
  infinite: boolean;
  currency: string;
  start_date: string | null;
  end_date: string | null;
  lifetime_value: number;
  final_status: string | null;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

export type PaymentType = 'recurring' | 'additional' | 'installment';

/** Stored payment; change_amount and revenue_movement_type are derived when read. */
export interface Payment {
  id: number;
  subscription_id: number;
  deal_id: number;
  is_active: boolean;
  amount: number;
  currency: string;
  due_at: string;
  payment_type: PaymentType;
  description: string | null;
  add_time: string;
  update_time: string;
  [k: string]: unknown;
}

export const subscriptions = (s: SandboxState) => s.collection<Subscription>('subscriptions', { idKind: 'int' });
export const payments = (s: SandboxState) => s.collection<Payment>('subscriptionPayments', { idKind: 'int' });

export const isRecurring = (sub: Subscription) => sub.cadence_type !== null;

/** v1 timestamps: `YYYY-MM-DD HH:MM:SS` UTC. */

export function positiveId(name: string, raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(name, 'must be a positive integer');
  return Number(raw);
}

export const subscriptionNotFound = () => new ApiError(404, 'Subscription not found', 'Object was not found.');
export const dealNotFound = () => new ApiError(404, 'Deal not found', 'Object was not found.');

/** A live deal the user may see: 404 when missing or deleted, 403 when hidden. */
export function loadDeal(state: SandboxState, user: User, id: number, notFound: () => ApiError = dealNotFound): Deal {
  const deal = state.deals.get(id);
  if (!deal) throw notFound();
  if (!canSee(state, user, deal)) throw forbidden();
  return deal;
}

/** A live subscription whose deal the user may see. */
export function loadSubscription(state: SandboxState, user: User, raw: string): Subscription {
  const sub = subscriptions(state).get(positiveId('id', raw));
  if (!sub) throw subscriptionNotFound();
  const deal = state.deals.getAny(sub.deal_id);
  if (deal && !canSee(state, user, deal)) throw forbidden();
  return sub;
}

/** Live payments of a subscription by due date (then id). */
export function paymentsOf(state: SandboxState, subId: number): Payment[] {
  return payments(state)
    .filter((p) => p.subscription_id === subId)
    .sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : a.id - b.id));
}

/**
 * Payments as the service sends them: change_amount against the previous scheduled payment, and the
 * revenue movement (new, recurring, expansion, contraction, churn = last payment of a subscription that
 * ends). Additional one-off payments are outside that chain: no change amount, no movement.
 */
export function presentPayments(sub: Subscription, rows: Payment[]): Record<string, unknown>[] {
  const ends = !sub.infinite || !sub.is_active;
  const chain = rows.filter((p) => p.payment_type !== 'additional');
  return rows.map((p) => {
    const { id, ...rest } = structuredClone(p);
    const i = chain.indexOf(p);
    if (i < 0) return { id, ...rest, change_amount: 0, revenue_movement_type: null };
    const prev = chain[i - 1];
    const change = prev ? Math.round((p.amount - prev.amount) * 100) / 100 : p.amount;
    const movement = !prev ? 'new' : ends && i === chain.length - 1 ? 'churn' : change > 0 ? 'expansion' : change < 0 ? 'contraction' : 'recurring';
    return { id, ...rest, change_amount: change, revenue_movement_type: movement };
  });
}

/** Recomputes the totals a subscription carries after its payments changed. */
export function refreshTotals(state: SandboxState, sub: Subscription, now: Date, extra: Partial<Subscription> = {}): Subscription {
  const rows = paymentsOf(state, sub.id);
  const lifetime = Math.round(rows.reduce((s, p) => s + p.amount, 0) * 100) / 100;
  const patch: Partial<Subscription> = { lifetime_value: lifetime, update_time: v1Time(now), ...extra };
  if (!isRecurring(sub)) {
    // An installment subscription runs from its first to its last payment.
    patch.start_date = rows[0]?.due_at ?? null;
    patch.end_date = rows[rows.length - 1]?.due_at ?? null;
  }
  return subscriptions(state).update(sub.id, patch);
}

/** Response form: a copy with the id first, as the service orders its fields. */
export function present(s: Subscription): Subscription {
  const { id, ...rest } = structuredClone(s);
  return { id, ...rest } as Subscription;
}
