// Demo seed: a monthly recurring subscription on the Umbrella fleet-tracking deal and an
// installment subscription on the Initech support contract. The empty seed has no deals, so nothing.
import type { SandboxState, SeedName } from '../../store/state.js';
import { recurringDueDates } from './schedule.js';
import { payments, subscriptions, type PaymentType, type Subscription } from './store.js';

const T = '2025-01-20 10:00:00';

function seedPayments(state: SandboxState, sub: Subscription, rows: [number, string, string | null][], type: PaymentType): void {
  for (const [amount, due_at, description] of rows) {
    payments(state).insert({
      subscription_id: sub.id, deal_id: sub.deal_id, is_active: true, amount, currency: sub.currency, due_at, payment_type: type,
      description, add_time: T, update_time: T,
    }, { silent: true });
  }
}

export function seedSubscriptions(state: SandboxState, name: SeedName): void {
  if (name !== 'demo') return;
  const umbrella = state.deals.find((d) => d.title === 'Umbrella fleet tracking');
  const initech = state.deals.find((d) => d.title === 'Initech support contract');
  if (umbrella) {
    const dues = recurringDueDates('2025-02-01', 'monthly', 12);
    const sub = subscriptions(state).insert({
      user_id: umbrella.owner_id, deal_id: umbrella.id, description: 'Fleet tracking platform', is_active: true, cadence_type: 'monthly',
      cycles_count: 12, cycle_amount: 4500, infinite: false, currency: 'EUR', start_date: dues[0]!, end_date: dues[dues.length - 1]!,
      lifetime_value: 4500 * 12 + 2500, final_status: null, add_time: T, update_time: T,
    }, { silent: true });
    seedPayments(state, sub, dues.map((d) => [4500, d, 'Fleet tracking platform']), 'recurring');
    seedPayments(state, sub, [[2500, '2025-02-15', 'Installation on site']], 'additional');
  }
  if (initech) {
    const sub = subscriptions(state).insert({
      user_id: initech.owner_id, deal_id: initech.id, description: null, is_active: true, cadence_type: null, cycles_count: null,
      cycle_amount: null, infinite: false, currency: 'USD', start_date: '2025-02-15', end_date: '2025-08-15', lifetime_value: 12500,
      final_status: null, add_time: T, update_time: T,
    }, { silent: true });
    seedPayments(state, sub, [[6250, '2025-02-15', 'First half'], [6250, '2025-08-15', 'Second half']], 'installment');
  }
}
