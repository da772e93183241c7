// The product catalog and deal-products as other areas need them: a full product record from a few
// members, a deal-product line with its sum, and the rule that keeps a deal's value equal to its
// one-time products less its discounts (recurring products make its MRR/ARR/ACV instead).
import type { Deal, DealProduct, Product } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';

export const BILLING_FREQUENCIES = ['one-time', 'annually', 'semi-annually', 'quarterly', 'monthly', 'weekly'] as const;
export type BillingFrequency = (typeof BILLING_FREQUENCIES)[number];

export interface DealDiscount {
  id: string; deal_id: number; description: string; amount: number; type: 'percentage' | 'amount';
  created_at: string; created_by: number; updated_at: string; updated_by: number; [k: string]: unknown;
}
export const dealDiscounts = (s: SandboxState) => s.collection<DealDiscount>('dealDiscounts', { idKind: 'uuid' });

export type ProductInput = Partial<Omit<Product, 'id'>> & { name: string };

/** A product record with the service's defaults for what is not given. */
export function productRecord(p: ProductInput, now: string, owner: number): Omit<Product, 'id'> {
  return {
    code: null, description: null, unit: null, tax: 0, category: null, is_deleted: false, is_linkable: true, visible_to: 3,
    owner_id: owner, add_time: now, update_time: now, billing_frequency: 'one-time', billing_frequency_cycles: null, prices: [], custom_fields: {},
    ...p,
  };
}

export function insertProduct(state: SandboxState, p: ProductInput, now: string, owner = 1, silent = true): Product {
  return state.products.insert(productRecord(p, now, owner), { silent });
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** What a line adds to the deal: quantity × price, less its discount, plus tax when charged on top. */
export function lineSum(l: Pick<DealProduct, 'item_price' | 'quantity' | 'discount' | 'discount_type' | 'tax' | 'tax_method'>): number {
  const base = l.item_price * l.quantity;
  const discounted = l.discount_type === 'percentage' ? base * (1 - l.discount / 100) : base - l.discount;
  return round2(l.tax_method === 'exclusive' ? discounted * (1 + l.tax / 100) : discounted);
}

export type LineInput = Partial<Omit<DealProduct, 'id' | 'deal_id' | 'sum'>> & { product_id: number; item_price: number; quantity: number };

export function lineRecord(state: SandboxState, deal: Deal, l: LineInput, now: string): Omit<DealProduct, 'id'> {
  const product = state.products.getAny(l.product_id);
  const order = Math.max(0, ...state.dealProducts.filter((x) => x.deal_id === deal.id).map((x) => x.order_nr)) + 1;
  const line = {
    product_variation_id: null, name: product?.name ?? `Product ${l.product_id}`, order_nr: order, discount: 0, discount_type: 'percentage' as const,
    tax: 0, tax_method: 'inclusive' as const, is_enabled: true, comments: '', billing_frequency: 'one-time' as const, billing_frequency_cycles: null,
    billing_start_date: null, add_time: now, update_time: now, ...l, deal_id: deal.id, currency: deal.currency,
  };
  return { ...line, sum: lineSum(line) };
}

/** Attach a product line to a deal without recomputing its value (seeds keep their own values consistent). */
export function attachProduct(state: SandboxState, deal: Deal, l: LineInput, now: string): DealProduct {
  return state.dealProducts.insert(lineRecord(state, deal, l, now), { silent: true });
}

const MONTHS: Record<string, number> = { weekly: 12 / 52, monthly: 1, quarterly: 3, 'semi-annually': 6, annually: 12 };

/**
 * The deal's value after a product or discount change: one-time enabled lines less discounts, when there
 * are one-time lines (else the value the user set stays); recurring lines set MRR, ARR and ACV.
 */
export function dealTotals(state: SandboxState, deal: Deal): Partial<Deal> {
  const lines = state.dealProducts.filter((x) => x.deal_id === deal.id && x.is_enabled !== false);
  const oneTime = lines.filter((x) => (x.billing_frequency ?? 'one-time') === 'one-time');
  const recurring = lines.filter((x) => (x.billing_frequency ?? 'one-time') !== 'one-time');
  const out: Partial<Deal> = {};
  if (oneTime.length) {
    const gross = oneTime.reduce((s, x) => s + (x.sum ?? lineSum(x)), 0);
    const off = dealDiscounts(state).filter((d) => d.deal_id === deal.id).reduce((s, d) => s + (d.type === 'percentage' ? gross * d.amount / 100 : d.amount), 0);
    out.value = Math.max(0, round2(gross - off));
  }
  if (recurring.length) {
    const mrr = round2(recurring.reduce((s, x) => s + (x.sum ?? lineSum(x)) / (MONTHS[x.billing_frequency] ?? 1), 0));
    Object.assign(out, { mrr, arr: round2(mrr * 12), acv: round2(mrr * 12) });
  } else Object.assign(out, { mrr: null, arr: null, acv: null });
  return out;
}

/** Applies dealTotals as a change of the deal (an event, when something changed). */
export function updateDealValue(state: SandboxState, dealId: number, userId: number, now: string): void {
  const deal = state.deals.get(dealId);
  if (!deal) return;
  const totals = dealTotals(state, deal);
  const changed = Object.entries(totals).some(([k, v]) => (deal as Record<string, unknown>)[k] !== v);
  if (changed) state.deals.update(dealId, { ...totals, update_time: now }, { userId });
}
