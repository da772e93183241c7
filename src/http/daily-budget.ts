// The company's daily token budget as the service reports it on every answer
// (x-daily-ratelimit-token-limit / -remaining; api-facts §5: seen on the live service, not documented,
// briefly missing after inactivity). It resets at midnight server time; crmctl takes that as 00:00 UTC.

import type { DailyBudget } from '../core/http-port.js';

// The figures' type belongs to the Context's HTTP port (core), which hands them to callers.
export type { DailyBudget };

const DAY_MS = 86_400_000;

/** The figures of one answer, or undefined when the answer carries none. */
export function dailyBudgetOf(headers: Record<string, string | string[] | undefined>, seenAt: number): DailyBudget | undefined {
  const limit = Number(first(headers['x-daily-ratelimit-token-limit']));
  const remaining = Number(first(headers['x-daily-ratelimit-token-remaining']));
  if (!Number.isFinite(limit) || !Number.isFinite(remaining) || first(headers['x-daily-ratelimit-token-remaining']) === '') return undefined;
  return { limit, remaining: Math.max(0, remaining), seenAt };
}

/** The next 00:00 UTC after `now` (epoch ms). */
export function nextResetAt(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/** "00:00 UTC (in 5 h 12 min)": when the budget resets, seen from `now`. */
export function describeReset(now: number): string {
  return `00:00 UTC (in ${inWords(nextResetAt(now) - now)})`;
}

/** "5 h 12 min", "12 min", "under a minute" (with `seconds`: "45 s" instead). */
export function inWords(ms: number, seconds = false): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return seconds ? `${Math.max(1, Math.round(ms / 1000))} s` : 'under a minute';
  const h = Math.floor(min / 60);
  return h ? `${h} h ${min % 60} min` : `${min} min`;
}

/** "28,400 of 30,000": figures as people read them. */
export function tokens(n: number): string {
  return n.toLocaleString('en-US');
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** What `crmctl budget`, `auth status` and `doctor` show of the daily budget. */
export interface BudgetView {
  limit: number;
  remaining: number;
  used: number;
  percentLeft: number;
  resetsAt: string;
  resetsInSeconds: number;
}

export function budgetView(d: Pick<DailyBudget, 'limit' | 'remaining'>, serviceNow: number): BudgetView {
  const reset = nextResetAt(serviceNow);
  return {
    limit: d.limit,
    remaining: d.remaining,
    used: Math.max(0, d.limit - d.remaining),
    percentLeft: d.limit > 0 ? Math.floor((d.remaining * 1000) / d.limit) / 10 : 0,
    resetsAt: new Date(reset).toISOString(),
    resetsInSeconds: Math.round((reset - serviceNow) / 1000),
  };
}

/** "28,400 of 30,000 tokens left today (94.6%); resets at 00:00 UTC (in 5 h 12 min)". */
export function budgetLine(v: BudgetView, serviceNow: number): string {
  return `${tokens(v.remaining)} of ${tokens(v.limit)} tokens left today (${v.percentLeft}%); resets at ${describeReset(serviceNow)}`;
}
