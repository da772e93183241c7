import type { Context } from '../../core/context.js';
import { budgetView, dailyBudgetOf, type BudgetView } from '../../http/daily-budget.js';
import { networkReason, rawRequest } from '../../http/raw.js';
import { requestUrl } from '../../http/request-target.js';
import { userOps } from '../../api/operations/users.js';

/** A status line must not hang on a service that does not answer. */
const TIMEOUT_MS = 5_000;

/**
 * The daily budget from the headers of one GET users/me (cost 2) with the credentials the next
 * command would use, for status reports (`auth status`): one try, no retries, a short timeout. Returns
 * why not when it cannot tell (no answer, no headers); the daily headers come on a 429 too.
 */
export async function probeBudget(ctx: Context): Promise<{ view: BudgetView } | { why: string }> {
  let creds: { baseUrl: string; headers: Record<string, string> };
  try {
    creds = await (await ctx.credentials()).get();
  } catch (err) {
    return { why: err instanceof Error ? err.message : String(err) };
  }
  try {
    const res = await rawRequest(requestUrl(creds.baseUrl, userOps.me.path).toString(), { method: 'GET', headers: { accept: 'application/json', ...creds.headers }, timeoutMs: TIMEOUT_MS, transport: ctx.env.CRMCTL_HTTP_TRANSPORT });
    const daily = dailyBudgetOf(res.headers, Date.now());
    if (!daily) return { why: `the answer (${res.status}) carried no daily budget headers` };
    const date = Date.parse(String((Array.isArray(res.headers.date) ? res.headers.date[0] : res.headers.date) ?? ''));
    return { view: budgetView(daily, Number.isNaN(date) ? Date.now() : date) };
  } catch (err) {
    return { why: `no answer from ${creds.baseUrl} (${networkReason(err)})` };
  }
}
