import { budgetNotice } from '../../automation/budget-notice.js';
import type { Context } from '../../core/context.js';
import type { CostNotice } from './run.js';

/** What the analytics will read and its least cost, on stderr, against the daily budget (as every bulk read says it). */
export async function analyticsNotice(ctx: Context): Promise<CostNotice> {
  const http = await ctx.http();
  return (what, tokens) => {
    ctx.info(`analytics reads: ${what}`);
    budgetNotice(ctx, http, { tokens, atLeast: true, continueWith: 'run it again' });
  };
}
