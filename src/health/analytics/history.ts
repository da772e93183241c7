import { dayOf, endOfDay, msOf } from '../dates.js';
import type { DealRecord } from '../types.js';
import type { FieldChange, PipelineData } from './load.js';

/**
 * What the deals' field changelog tells: the stages a deal was in and when (velocity), and how its
 * expected close date moved (slippage). Read only for the deals a metric looks at, one changelog read
 * (cost 20) each: the deals of the pipeline that were there during the period (added by its end, and
 * open or closed within it).
 */

export function historyScope(d: PipelineData): DealRecord[] {
  return d.deals.filter((x) => x.add_time.slice(0, 10) <= d.to && (x.status === 'open' || closedDay(x) >= d.from));
}

export function closedDay(x: DealRecord): string {
  const t = x.status === 'won' ? x.won_time : x.status === 'lost' ? x.lost_time : null;
  return t ? dayOf(msOf(t)) : '';
}

export interface Stay {
  stage: number;
  /** Days, `YYYY-MM-DD` UTC: entered and left (or the end of the period for a stay still going). */
  from: string;
  to: string;
  /** Left the stage (moved on, won or lost) rather than still in it at the end of the period. */
  done: boolean;
}

/** A deal's stays in stages, from its stage_id changes: first stage from the first change's old value (or the stage it is in). */
export function stageStays(x: DealRecord, changes: readonly FieldChange[], periodEnd: string): Stay[] {
  const moves = changes.filter((c) => c.field_key === 'stage_id' && c.new_value !== null);
  let stage = moves.length && moves[0]!.old_value !== null ? Number(moves[0]!.old_value) : x.stage_id;
  let since = dayOf(msOf(x.add_time));
  const stays: Stay[] = [];
  for (const m of moves) {
    const at = dayOf(msOf(m.time));
    if (at > periodEnd) break;
    stays.push({ stage, from: since, to: at, done: true });
    stage = Number(m.new_value);
    since = at;
  }
  const closed = closedDay(x);
  if (closed && closed <= periodEnd) stays.push({ stage, from: since, to: closed, done: true });
  else stays.push({ stage, from: since, to: dayOf(endOfDay(periodEnd)), done: false });
  return stays;
}

/** Moves of the expected close date: later (a push) or earlier; setting a first date is neither. */
export function closeDateMoves(changes: readonly FieldChange[]): Array<{ from: string; to: string; at: string }> {
  return changes
    .filter((c) => c.field_key === 'expected_close_date' && c.old_value && c.new_value && c.old_value !== c.new_value)
    .map((c) => ({ from: c.old_value!.slice(0, 10), to: c.new_value!.slice(0, 10), at: dayOf(msOf(c.time)) }));
}
