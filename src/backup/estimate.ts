/**
 * What the rest of a backup will cost, once the survey has read the deals' count and the first page of
 * every list (those pages are the backup's own, written and not read again). The service gives no
 * count of other kinds, so:
 *   - a list whose first page was its last costs nothing more (exact);
 *   - deals: the count from GET /api/v1/deals/summary (archived deals are not in it), priced at what
 *     their first page cost a record, children included (about);
 *   - any other list with more pages: at least one more page like its first (a lower bound, said so).
 */
import type { CostEstimate } from '../automation/budget-notice.js';
import type { ListPass } from './read-plan.js';

export interface PassState {
  /** Pages written so far (the next page's number). */
  page: number;
  next: string | number | undefined;
  done: boolean;
  /** Records of the pass written so far. */
  records: number;
  /** What its pages cost so far, children and files included. */
  cost: number;
  /** The first page's records and cost, for pricing the rest. */
  firstPage?: { records: number; cost: number };
}

export function estimate(passes: Array<{ pass: ListPass; state: PassState }>, o: { deals: number | undefined }): CostEstimate {
  let tokens = 0;
  let atLeast = false;
  for (const { pass, state } of passes) {
    if (state.done) continue;
    const first = state.firstPage;
    if (!first || first.records === 0) {
      atLeast = true;
      continue;
    }
    if (pass.kind === 'deals' && o.deals !== undefined) {
      tokens += Math.ceil((Math.max(0, o.deals - state.records) * first.cost) / first.records);
      continue;
    }
    tokens += first.cost;
    atLeast = true;
  }
  return { tokens, atLeast };
}
