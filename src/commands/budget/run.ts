import { read } from '../../entry/prepare.js';
import { userOps } from '../../api/operations/users.js';
import type { Context } from '../../core/context.js';
import { CliError, DailyBudgetError, RateLimitError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { budgetLine, budgetView, tokens } from '../../http/daily-budget.js';
import { renderRecord } from '../../output/render.js';

/** Reads the daily budget (one cheap call), prints it, and fails with exit 6 below the threshold. */
export async function runBudget(ctx: Context, flags: { min?: number; minPercent?: number }): Promise<void> {
  if (flags.min !== undefined && flags.minPercent !== undefined) throw new UsageError('--min, --min-percent: give one threshold, not both');
  const http = await ctx.http();
  try {
    await read(ctx, userOps.me);
  } catch (err) {
    // A spent day answers 429 with its figures: that is the answer this command exists to give.
    if (!(err instanceof DailyBudgetError)) throw err;
  }
  if (!http.daily) {
    throw new CliError(
      'The service\'s answer carried no daily budget headers (x-daily-ratelimit-token-limit / -remaining).',
      EXIT.ERROR,
      'The service can leave them out briefly after a quiet spell; run the command again.',
    );
  }
  const now = http.serviceNow();
  const view = budgetView(http.daily, now);
  await renderRecord(ctx, view);
  const below =
    flags.min !== undefined ? view.remaining < flags.min
    : flags.minPercent !== undefined ? view.remaining * 100 < flags.minPercent * view.limit
    : view.remaining === 0;
  if (!below) return;
  const asked = flags.min !== undefined ? `--min ${tokens(flags.min)}` : flags.minPercent !== undefined ? `--min-percent ${flags.minPercent}` : 'anything left';
  throw new RateLimitError(`The daily budget is below what was asked (${asked}): ${budgetLine(view, now)}.`, 'Wait for the reset, or lower the threshold.');
}
