// The sandbox's payment schedule and MRR formula (documented in docs/subscriptions.md).
import { describe, expect, it } from 'vitest';
import { addMonths, cycleDate, monthlyValue, nextCycleAfter, recurringDueDates } from '../../src/sandbox/handlers/subscriptions/schedule.js';

describe('subscription schedule', () => {
  it('monthly cycles keep the start day and clamp to short months without drifting', () => {
    expect(recurringDueDates('2026-01-31', 'monthly', 4)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30']);
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
  });

  it('weekly, quarterly and yearly cycles', () => {
    expect(recurringDueDates('2026-12-24', 'weekly', 3)).toEqual(['2026-12-24', '2026-12-31', '2027-01-07']);
    expect(recurringDueDates('2026-11-30', 'quarterly', 3)).toEqual(['2026-11-30', '2027-02-28', '2027-05-30']);
    expect(recurringDueDates('2024-02-29', 'yearly', 2)).toEqual(['2024-02-29', '2025-02-28']);
  });

  it('an infinite subscription keeps the cycles due within 24 months of its start', () => {
    const monthly = recurringDueDates('2026-01-15', 'monthly', null);
    expect(monthly).toHaveLength(24);
    expect(monthly.at(-1)).toBe('2027-12-15');
    expect(recurringDueDates('2026-01-15', 'yearly', null)).toEqual(['2026-01-15', '2027-01-15']);
    expect(recurringDueDates('2026-01-01', 'weekly', null)).toHaveLength(105);
  });

  it('the payment following a date, also beyond the kept window; none after the last cycle', () => {
    expect(nextCycleAfter('2026-01-15', 'monthly', null, '2030-06-20')).toBe('2030-07-15');
    expect(nextCycleAfter('2026-01-15', 'monthly', 3, '2026-02-15')).toBe('2026-03-15');
    expect(nextCycleAfter('2026-01-15', 'monthly', 3, '2026-03-15')).toBeNull();
    expect(cycleDate('2026-01-15', 'weekly', 2)).toBe('2026-01-29');
  });

  it.each([
    ['weekly', 120, 520],
    ['monthly', 450, 450],
    ['quarterly', 900, 300],
    ['yearly', 1000, 83.33],
  ] as const)('MRR of a %s cycle of %d is %d', (cadence, amount, mrr) => {
    expect(monthlyValue(cadence, amount)).toBe(mrr);
  });
});
