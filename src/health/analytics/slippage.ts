import { dateDiff } from '../dates.js';
import { closeDateMoves, historyScope } from './history.js';
import type { FieldChange, PipelineData } from './load.js';
import { currencyOf } from './money.js';

/**
 * Close dates pushed: the deals of the period whose expected close date was moved later at least once,
 * with how often, by how many days in all, the first date and the one now. Most pushed first.
 */
export interface SlippageRow {
  id: number;
  title: string;
  owner_id: number;
  status: string;
  pushes: number;
  days_pushed: number;
  pulled_in: number;
  first_date: string;
  current_date: string | null;
  value: number | null;
  currency: string;
}

export function slippage(d: PipelineData, logs: ReadonlyMap<number, FieldChange[]>): SlippageRow[] {
  const rows: SlippageRow[] = [];
  for (const x of historyScope(d)) {
    const moves = closeDateMoves(logs.get(x.id) ?? []).filter((m) => m.at <= d.to);
    const pushes = moves.filter((m) => m.to > m.from);
    if (!pushes.length) continue;
    rows.push({
      id: x.id,
      title: x.title,
      owner_id: x.owner_id,
      status: x.status,
      pushes: pushes.length,
      days_pushed: pushes.reduce((n, m) => n + dateDiff(m.from, m.to), 0),
      pulled_in: moves.length - pushes.length,
      first_date: moves[0]!.from,
      current_date: x.expected_close_date,
      value: x.value,
      currency: currencyOf(x),
    });
  }
  return rows.sort((a, b) => b.days_pushed - a.days_pushed || a.id - b.id);
}
