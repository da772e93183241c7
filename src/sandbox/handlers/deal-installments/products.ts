// Deal products as far as installments care: a product attached to a deal is one-time or recurring
// (`billing_frequency`, vendor v2 deal products); a line without billing_frequency is one-time.
import type { DealProduct } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';

const isOneTime = (p: DealProduct) => (p.billing_frequency ?? 'one-time') === 'one-time';

/**
 * Interface: the deal must contain at least one one-time product and no recurring product.
 * Returns why a deal cannot take installments, or null when it can.
 */
export function installmentBlocker(state: SandboxState, dealId: number): string | null {
  const rows = state.dealProducts.filter((p) => p.deal_id === dealId);
  const recurring = rows.filter((p) => !isOneTime(p));
  if (recurring.length) {
    return `deal ${dealId} has recurring products (${recurring.map((p) => `${state.products.getAny(p.product_id)?.name ?? `product ${p.product_id}`}: ${p.billing_frequency}`).join(', ')}); installments need one-time products only`;
  }
  if (!rows.some(isOneTime)) return `deal ${dealId} has no one-time product; add one before adding installments`;
  return null;
}
