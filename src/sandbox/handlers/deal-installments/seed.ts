// Demo seed: products with billing frequencies on the demo deals, so that each side of the
// installment product rule has a deal, and installments on the deals that may take them:
//   Acme annual licence      one-time workshop                → installments (3 seeded)
//   Globex onboarding        one-time workshop + monthly plan → refused (recurring product)
//   Initech support contract one-time workshop                → allowed, none seeded
//   Umbrella fleet tracking  monthly platform                 → refused (recurring product)
//   Stark reseller agreement no products                      → refused (no one-time product)
//   Wayne POS pilot          one-time hardware                → installments (1 seeded)
import type { SandboxState, SeedName } from '../../store/state.js';
import { dealProducts, products, type BillingFrequency } from './products.js';
import { installments } from './routes.js';

const T = '2025-01-15 09:00:00';

export function seedDealInstallments(state: SandboxState, name: SeedName): void {
  if (name !== 'demo') return;
  const deal = (title: string) => state.deals.find((d) => d.title === title);
  const product = (pname: string, code: string, unit: string) => products(state).insert({
    name: pname, code, description: `${pname} (sandbox catalog)`, unit, tax: 20, category: 'Services', active_flag: true, selectable: true,
    first_char: pname.charAt(0).toLowerCase(), visible_to: '3', owner_id: 1, files_count: 0, add_time: T, update_time: T,
    prices: [{ currency: 'EUR', price: 0, cost: 0 }],
  }, { silent: true });
  const workshop = product('Implementation workshop', 'IMPL-WS', 'day');
  const platform = product('Fleet tracking platform', 'FLEET-SaaS', 'month');
  const terminal = product('POS terminal', 'POS-T1', 'piece');

  const attach = (title: string, productId: number, item_price: number, quantity: number, billing_frequency: BillingFrequency) => {
    const d = deal(title);
    if (!d) return undefined;
    dealProducts(state).insert({ deal_id: d.id, product_id: productId, item_price, quantity, currency: d.currency, billing_frequency, add_time: T, update_time: T }, { silent: true });
    return d;
  };
  const acme = attach('Acme annual licence', workshop.id, 1200, 5, 'one-time');
  attach('Globex onboarding', workshop.id, 1200, 2, 'one-time');
  attach('Globex onboarding', platform.id, 450, 1, 'monthly');
  attach('Initech support contract', workshop.id, 1200, 1, 'one-time');
  attach('Umbrella fleet tracking', platform.id, 4500, 1, 'monthly');
  const wayne = attach('Wayne POS pilot', terminal.id, 430, 10, 'one-time');

  const inst = (dealId: number, description: string, amount: number, billing_date: string) =>
    installments(state).insert({ deal_id: dealId, description, amount, billing_date }, { silent: true });
  if (acme) {
    inst(acme.id, 'Deposit', 8000, '2025-02-01');
    inst(acme.id, 'Second payment', 8000, '2025-05-01');
    inst(acme.id, 'Final payment', 8000, '2025-08-01');
  }
  if (wayne) inst(wayne.id, 'Pilot hardware', 4300, '2025-03-01');
}
