// Request bodies of the subscription operations, checked against the interface's rules.
// Every failure is a 400 naming the field and the rule.
import { invalid } from '../../http/errors.js';
import { has, isDate, objectBody, optBool, optDate, optEnum, optInt, optString, rejectUnknown, type Body } from '../../http/validate.js';
import { CADENCES, type Cadence } from './schedule.js';

export interface PaymentIn { amount: number; due_at: string; description: string | null }

function reqDate(b: Body, k: string): string {
  if (!has(b, k) || b[k] === null) throw invalid(k, 'is required');
  return optDate(b, k)!;
}

function reqDealId(b: Body): number {
  if (!has(b, 'deal_id') || b.deal_id === null) throw invalid('deal_id', 'is required');
  return optInt(b, 'deal_id', { min: 1 })!;
}

function reqCurrency(b: Body): string {
  if (!has(b, 'currency') || b.currency === null) throw invalid('currency', 'is required');
  const c = b.currency;
  if (typeof c !== 'string' || !/^[A-Za-z]{3}$/.test(c)) throw invalid('currency', 'must be a 3-character currency code');
  return c.toUpperCase();
}

/** `payments`: items with amount (number), due_at (date) and an optional description. */
function paymentList(b: Body, o: { required: boolean }): PaymentIn[] | undefined {
  if (!has(b, 'payments') || b.payments === null) {
    if (o.required) throw invalid('payments', 'is required');
    return undefined;
  }
  if (!Array.isArray(b.payments)) throw invalid('payments', 'must be an array');
  if (o.required && b.payments.length === 0) throw invalid('payments', 'must have at least one payment');
  return b.payments.map((item, i) => {
    const at = `payments[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(at, 'must be an object with amount, due_at, description');
    const p = item as Body;
    for (const k of Object.keys(p)) if (!['amount', 'due_at', 'description'].includes(k)) throw invalid(`${at}.${k}`, 'is not a known field of a payment');
    if (!has(p, 'amount') || p.amount === null) throw invalid(`${at}.amount`, 'is required');
    if (typeof p.amount !== 'number' || !Number.isFinite(p.amount)) throw invalid(`${at}.amount`, 'must be a number');
    if (!has(p, 'due_at') || p.due_at === null) throw invalid(`${at}.due_at`, 'is required');
    if (typeof p.due_at !== 'string' || !isDate(p.due_at)) throw invalid(`${at}.due_at`, 'must be a date in YYYY-MM-DD format');
    if (has(p, 'description') && p.description !== null && typeof p.description !== 'string') throw invalid(`${at}.description`, 'must be a string');
    return { amount: p.amount, due_at: p.due_at, description: (p.description as string | null | undefined) ?? null };
  });
}

export interface RecurringCreate {
  deal_id: number; currency: string; description: string | null; cadence_type: Cadence; cycles_count: number | null;
  cycle_amount: number; start_date: string; infinite: boolean; payments: PaymentIn[]; update_deal_value: boolean;
}

export function parseRecurringCreate(raw: unknown): RecurringCreate {
  const b = objectBody(raw);
  rejectUnknown(b, ['deal_id', 'currency', 'description', 'cadence_type', 'cycles_count', 'cycle_amount', 'start_date', 'infinite', 'payments', 'update_deal_value']);
  const deal_id = reqDealId(b);
  const currency = reqCurrency(b);
  if (!has(b, 'cadence_type') || b.cadence_type === null) throw invalid('cadence_type', 'is required');
  const cadence_type = optEnum(b, 'cadence_type', CADENCES)!;
  if (!has(b, 'cycle_amount') || b.cycle_amount === null) throw invalid('cycle_amount', 'is required');
  const cycle_amount = optInt(b, 'cycle_amount')!;
  const start_date = reqDate(b, 'start_date');
  const cycles = optInt(b, 'cycles_count', { min: 1 });
  const infinite = optBool(b, 'infinite') === true;
  // Interface: one of cycles_count or infinite must be set — exactly one, a counted subscription is not endless.
  if (infinite && cycles !== undefined) throw invalid('cycles_count', 'cannot be set together with infinite=true (set exactly one of them)');
  if (!infinite && cycles === undefined) throw invalid('cycles_count', 'is required unless infinite=true (set exactly one of them)');
  return {
    deal_id, currency, cadence_type, cycle_amount, start_date, infinite, cycles_count: cycles ?? null,
    description: optString(b, 'description', { nullable: true }) ?? null,
    payments: paymentList(b, { required: false }) ?? [],
    update_deal_value: optBool(b, 'update_deal_value') === true,
  };
}

export interface InstallmentCreate { deal_id: number; currency: string; payments: PaymentIn[]; update_deal_value: boolean }

export function parseInstallmentCreate(raw: unknown): InstallmentCreate {
  const b = objectBody(raw);
  rejectUnknown(b, ['deal_id', 'currency', 'payments', 'update_deal_value']);
  return { deal_id: reqDealId(b), currency: reqCurrency(b), payments: paymentList(b, { required: true })!, update_deal_value: optBool(b, 'update_deal_value') === true };
}

export interface RecurringUpdate {
  effective_date: string; description: string | null | undefined; cycle_amount: number | undefined;
  payments: PaymentIn[] | undefined; update_deal_value: boolean;
}

export function parseRecurringUpdate(raw: unknown): RecurringUpdate {
  const b = objectBody(raw);
  rejectUnknown(b, ['effective_date', 'description', 'cycle_amount', 'payments', 'update_deal_value']);
  const effective_date = reqDate(b, 'effective_date');
  const payments = paymentList(b, { required: false });
  // Only payments due after effective_date are affected, so one due on or before it cannot be applied.
  payments?.forEach((p, i) => {
    if (p.due_at <= effective_date) throw invalid(`payments[${i}].due_at`, `must be after effective_date ${effective_date}`);
  });
  return {
    effective_date, payments,
    description: optString(b, 'description', { nullable: true }),
    cycle_amount: optInt(b, 'cycle_amount') ?? undefined,
    update_deal_value: optBool(b, 'update_deal_value') === true,
  };
}

export function parseInstallmentUpdate(raw: unknown): { payments: PaymentIn[]; update_deal_value: boolean } {
  const b = objectBody(raw);
  rejectUnknown(b, ['payments', 'update_deal_value']);
  return { payments: paymentList(b, { required: true })!, update_deal_value: optBool(b, 'update_deal_value') === true };
}

export function parseCancel(raw: unknown): { end_date: string | undefined } {
  const b = objectBody(raw, false);
  rejectUnknown(b, ['end_date']);
  return { end_date: optDate(b, 'end_date') ?? undefined };
}
