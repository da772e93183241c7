// Demo seed: products with billing frequencies on the demo deals, so that each side of the
// installment product rule has a deal, and installments on the deals that may take them:
// Deal values equal their one-time lines, as the service keeps them.
//   Acme annual licence      one-time workshop                → installments (3 seeded)
//   Globex onboarding        one-time workshop + monthly plan → refused (recurring product)
//   Initech support contract one-time workshop                → allowed, none seeded
//   Umbrella fleet tracking  monthly platform                 → refused (recurring product)
//   Stark reseller agreement no products                      → refused (no one-time product)
//   Wayne POS pilot          one-time hardware                → installments (1 seeded)
import type { SandboxState, SeedName } from '../../store/state.js';
import { attachProduct, insertProduct, type BillingFrequency } from '../products/catalog.js';
import { installments } from './routes.js';

const T = '2025-01-15T09:00:00.000Z';

export function seedDealInstallments(state: SandboxState, name: SeedName): void {
  if (name !== 'demo') return;
  const deal = (title: string) => state.deals.find((d) => d.title === title);
  const product = (pname: string, code: string, unit: string, price: number, billing: BillingFrequency = 'one-time') => insertProduct(state, {
    name: pname, code, description: `${pname} (sandbox catalog)`, unit, tax: 20, category: 'Services', billing_frequency: billing,
    prices: [{ currency: 'EUR', price, cost: 0, direct_cost: null, notes: '' }],
  }, T);
  const workshop = product('Implementation workshop', 'IMPL-WS', 'day', 1200);
  const platform = product('Fleet tracking platform', 'FLEET-SaaS', 'month', 450, 'monthly');
  const terminal = product('POS terminal', 'POS-T1', 'piece', 430);

  const attach = (title: string, productId: number, item_price: number, quantity: number, billing_frequency: BillingFrequency) => {
    const d = deal(title);
    if (!d) return undefined;
    attachProduct(state, d, { product_id: productId, item_price, quantity, billing_frequency }, T);
    return d;
  };
  const acme = attach('Acme annual licence', workshop.id, 4800, 5, 'one-time');
  attach('Globex onboarding', workshop.id, 4000, 2, 'one-time');
  attach('Globex onboarding', platform.id, 450, 1, 'monthly');
  attach('Initech support contract', workshop.id, 12500, 1, 'one-time');
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
