// Date arithmetic of subscriptions: the recurring payment schedule and the deal's MRR.
// Pure functions, no state, so the rules are easy to read and test.

export const CADENCES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Cadence = (typeof CADENCES)[number];

/**
 * An infinite subscription "lasts until canceled or deleted"; the sandbox keeps its payments
 * for the cycles due within this many months of the start date (a window, not all of them).
 */
export const INFINITE_WINDOW_MONTHS = 24;

const MONTHS: Record<Exclude<Cadence, 'weekly'>, number> = { monthly: 1, quarterly: 3, yearly: 12 };

const parts = (date: string) => date.split('-').map(Number) as [number, number, number];
const fmt = (d: Date) => d.toISOString().slice(0, 10);

/** `date` plus n months; the day is clamped to the month's length (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: string, n: number): string {
  const [y, m, d] = parts(date);
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return fmt(first);
}

/** Due date of cycle k (0 = the start date). Always computed from the start, so clamping never drifts. */
export function cycleDate(start: string, cadence: Cadence, k: number): string {
  if (cadence === 'weekly') {
    const [y, m, d] = parts(start);
    return fmt(new Date(Date.UTC(y, m - 1, d + 7 * k)));
  }
  return addMonths(start, MONTHS[cadence] * k);
}

/** Due dates of a recurring subscription: cycles_count of them, or the infinite window. */
export function recurringDueDates(start: string, cadence: Cadence, cyclesCount: number | null): string[] {
  const out: string[] = [];
  if (cyclesCount !== null) {
    for (let k = 0; k < cyclesCount; k++) out.push(cycleDate(start, cadence, k));
    return out;
  }
  const until = addMonths(start, INFINITE_WINDOW_MONTHS);
  for (let k = 0; ; k++) {
    const due = cycleDate(start, cadence, k);
    if (due >= until) return out;
    out.push(due);
  }
}

/** First cycle due strictly after `date` (null when a finite schedule has none left). */
export function nextCycleAfter(start: string, cadence: Cadence, cyclesCount: number | null, date: string): string | null {
  for (let k = 0; cyclesCount === null || k < cyclesCount; k++) {
    const due = cycleDate(start, cadence, k);
    if (due > date) return due;
  }
  return null;
}

/**
 * Monthly recurring revenue of one cycle amount: weekly ×52/12, monthly ×1, quarterly ÷3, yearly ÷12,
 * rounded to cents. update_deal_value puts this on the deal.
 */
export function monthlyValue(cadence: Cadence, cycleAmount: number): number {
  const perMonth = cadence === 'weekly' ? (cycleAmount * 52) / 12 : cycleAmount / MONTHS[cadence];
  return Math.round(perMonth * 100) / 100;
}
