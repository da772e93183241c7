// Deal products as far as installments care: a product attached to a deal is one-time or recurring
// (`billing_frequency`, vendor v2 deal products). The collection is shared with other areas (persons
// reads it); a record without billing_frequency is a one-time product, the service's default.
import type { SandboxState } from '../../store/state.js';

export const BILLING_FREQUENCIES = ['one-time', 'weekly', 'monthly', 'quarterly', 'semi-annually', 'annually'] as const;
export type BillingFrequency = (typeof BILLING_FREQUENCIES)[number];

export interface DealProduct {
  id: number;
  deal_id: number;
  product_id: number;
  item_price: number;
  quantity: number;
  currency: string;
  billing_frequency?: BillingFrequency;
  [k: string]: unknown;
}

export interface Product { id: number; name: string; [k: string]: unknown }

export const products = (s: SandboxState) => s.collection<Product>('products', { idKind: 'int' });
export const dealProducts = (s: SandboxState) => s.collection<DealProduct>('dealProducts', { idKind: 'int' });

const isOneTime = (p: DealProduct) => (p.billing_frequency ?? 'one-time') === 'one-time';

/**
 * Interface: the deal must contain at least one one-time product and no recurring product.
 * Returns why a deal cannot take installments, or null when it can.
 */
export function installmentBlocker(state: SandboxState, dealId: number): string | null {
  const rows = dealProducts(state).filter((p) => p.deal_id === dealId);
  const recurring = rows.filter((p) => !isOneTime(p));
  if (recurring.length) {
    return `deal ${dealId} has recurring products (${recurring.map((p) => `${products(state).get(p.product_id)?.name ?? `product ${p.product_id}`}: ${p.billing_frequency}`).join(', ')}); installments need one-time products only`;
  }
  if (!rows.some(isOneTime)) return `deal ${dealId} has no one-time product; add one before adding installments`;
  return null;
}
