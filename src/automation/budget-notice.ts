import type { Context } from '../core/context.js';
import type { HttpClient } from '../http/client.js';
import { describeReset, tokens } from '../http/daily-budget.js';

export interface CostEstimate {
  /** Cost units the run is expected to spend (the operations' stated costs). */
  tokens: number;
  /** The figure is a lower bound (an operation without a stated cost, or pages not known yet). */
  atLeast?: boolean;
  /** How a stopped run continues; default "run the same command with --resume". */
  continueWith?: string;
}

/**
 * Before a bulk run (import, export, apply, bulk update): its estimated cost against what is left of
 * the daily budget, on stderr (`cost: about 1,240 tokens of 28,400 left today`). On a terminal always;
 * off one (scripts, CI) only when the run will not fit, as a warning, so clean streams stay clean.
 * Sends nothing: "left" is what the last answer of this run reported, or "not known yet" before any.
 */
export function budgetNotice(ctx: Context, http: HttpClient, estimate: CostEstimate): void {
  if (estimate.tokens <= 0) return;
  const cost = `${estimate.atLeast ? 'at least' : 'about'} ${tokens(estimate.tokens)} tokens`;
  const daily = http.daily;
  if (!daily) {
    ctx.info(`cost: ${cost} (what is left of today's budget is not known until the service answers)`);
    return;
  }
  if (estimate.tokens <= daily.remaining) {
    ctx.info(`cost: ${cost} of ${tokens(daily.remaining)} left today`);
    return;
  }
  ctx.warn(
    `cost: ${cost}, but only ${tokens(daily.remaining)} of ${tokens(daily.limit)} are left today: the run will stop when the budget is spent ` +
      `(its state is saved; ${estimate.continueWith ?? 'run the same command with --resume'} after the reset at ${describeReset(http.serviceNow())})`,
  );
}
