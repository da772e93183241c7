import type { Context } from '../core/context.js';
import type { HttpPort } from '../core/http-port.js';
import { describeReset, tokens, type DailyBudget } from '../http/daily-budget.js';

export interface CostEstimate {
  /** Cost units the run is expected to spend (the operations' stated costs). */
  tokens: number;
  /** The figure is a lower bound (an operation without a stated cost). */
  atLeast?: boolean;
  /** The figure is for one unit of a run whose size is not known yet, e.g. "a page of 100 records". */
  per?: string;
  /** How a stopped run continues; default "run the same command with --resume". */
  continueWith?: string;
}

/**
 * A bulk run's estimated cost against what is left of the daily budget, on stderr
 * (`cost: about 1,240 tokens of 28,400 left today`): import, export, apply and bulk update call it
 * before they start writing. On a terminal always; off one (scripts, CI) only when the run will not
 * fit, as a warning, so clean streams stay clean. It sends nothing: "left" is what the service's
 * answers of this run report, so before the first answer the line waits for it.
 */
export function budgetNotice(ctx: Context, http: HttpPort, estimate: CostEstimate): void {
  if (estimate.tokens <= 0) return;
  http.whenDailyKnown((daily) => show(ctx, http, estimate, daily));
}

function show(ctx: Context, http: HttpPort, e: CostEstimate, daily: DailyBudget): void {
  const text = costText(e, daily, http.serviceNow());
  if (e.tokens <= daily.remaining) ctx.info(text);
  else ctx.warn(text);
}

/**
 * The estimate against the figures, as one line: `cost: about 35 tokens of 99,960 left today`, or, when
 * the run will not fit, what is left, that it will stop with its state saved, and when to continue.
 * Bulk update prints it inside its plan (always shown); the others through budgetNotice.
 */
export function costText(e: CostEstimate, daily: Pick<DailyBudget, 'limit' | 'remaining'>, serviceNow: number): string {
  const cost = e.per ? `${tokens(e.tokens)} tokens ${e.per}` : `${e.atLeast ? 'at least' : 'about'} ${tokens(e.tokens)} tokens`;
  if (e.tokens <= daily.remaining) return `cost: ${cost}${e.per ? ',' : ' of'} ${tokens(daily.remaining)} left today`;
  return (
    `cost: ${cost}, but only ${tokens(daily.remaining)} of ${tokens(daily.limit)} are left today: the run will stop when the budget is spent ` +
    `(its state is saved; ${e.continueWith ?? 'run the same command with --resume'} after the reset at ${describeReset(serviceNow)})`
  );
}
