import { DAY_MS, dayOf, msOf } from '../dates.js';
import type { DealRecord } from '../types.js';
import type { PipelineData } from './load.js';
import { money, probability, round2 } from './money.js';

/**
 * Pipeline coverage against the goals that count won deals (`deals_won`) of this pipeline (or of every
 * pipeline): for each goal, its current interval (the week, month, quarter or year holding the end of
 * the period, within the goal's duration), what was won in it up to that day, what is left to win, the open deals
 * expected to close in it (value and weighted) and coverage = open value / left to win. Money goals
 * count the deals of the goal's currency (or every deal converted, with --convert-to); goals of a
 * person count that person's deals, company goals every deal. Team goals are left out (their members
 * are not read).
 */
export interface Goal {
  id: string;
  title: string;
  assignee: { id: number; type: 'person' | 'company' | 'team' };
  type: { name: string; params?: { pipeline_id?: number[] | null } | null };
  expected_outcome: { target: number; tracking_metric: 'sum' | 'quantity'; currency_id?: number | null };
  duration: { start: string; end: string | null };
  interval: 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  is_active?: boolean;
}

export interface CoverageRow {
  goal: string;
  assignee: string;
  period_start: string;
  period_end: string;
  metric: 'sum' | 'quantity';
  currency: string | null;
  target: number;
  won: number;
  remaining: number;
  open: number;
  weighted: number;
  coverage: number | null;
}

/** The interval of a goal holding `day`: weeks start on Monday; quarters are calendar quarters. */
export function intervalOf(day: string, interval: Goal['interval']): { start: string; end: string } {
  const [y, m] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  const utc = (yy: number, mm: number, dd: number) => dayOf(Date.UTC(yy, mm - 1, dd));
  if (interval === 'yearly') return { start: `${y}-01-01`, end: `${y}-12-31` };
  if (interval === 'quarterly') {
    const q = Math.floor((m - 1) / 3);
    return { start: utc(y, q * 3 + 1, 1), end: utc(y, q * 3 + 4, 0) };
  }
  if (interval === 'monthly') return { start: utc(y, m, 1), end: utc(y, m + 1, 0) };
  const t = msOf(day);
  const monday = t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;
  return { start: dayOf(monday), end: dayOf(monday + 6 * DAY_MS) };
}

export function coverage(d: PipelineData, goals: readonly Goal[], currencyCodes: ReadonlyMap<number, string>, users: ReadonlyMap<number, string>): CoverageRow[] {
  const stages = new Map(d.stages.map((s) => [s.id, s]));
  const rows: CoverageRow[] = [];
  for (const g of goals) {
    if (g.is_active === false || g.type.name !== 'deals_won' || g.assignee.type === 'team') continue;
    const pipes = g.type.params?.pipeline_id;
    if (pipes && !pipes.includes(d.pipeline.id)) continue;
    const iv = intervalOf(d.to, g.interval);
    const start = iv.start < g.duration.start ? g.duration.start : iv.start;
    const end = g.duration.end && g.duration.end < iv.end ? g.duration.end : iv.end;
    // Won so far: up to the end of the period (--as-of), not what a later day brought.
    const wonBy = end < d.to ? end : d.to;
    if (d.to < g.duration.start || (g.duration.end && d.to > g.duration.end)) continue;
    const sum = g.expected_outcome.tracking_metric === 'sum';
    const currency = sum ? (d.conv?.to ?? currencyCodes.get(g.expected_outcome.currency_id ?? -1) ?? null) : null;
    const mine = (x: DealRecord) => g.assignee.type === 'company' || x.owner_id === g.assignee.id;
    const counted = (x: DealRecord) => (sum ? money(x, d.conv) : { currency: null, value: 1 });
    let won = 0;
    let open = 0;
    let weighted = 0;
    for (const x of d.deals) {
      if (!mine(x)) continue;
      const m = counted(x);
      if (sum && m.currency !== currency) continue;
      if (x.status === 'won' && x.won_time && x.won_time.slice(0, 10) >= start && x.won_time.slice(0, 10) <= wonBy) won += m.value;
      if (x.status === 'open' && x.expected_close_date && x.expected_close_date >= start && x.expected_close_date <= end) {
        open += m.value;
        weighted += (m.value * probability(x, stages.get(x.stage_id), d.pipeline)) / 100;
      }
    }
    const remaining = Math.max(0, g.expected_outcome.target - won);
    rows.push({
      goal: g.title,
      assignee: g.assignee.type === 'company' ? 'company' : (users.get(g.assignee.id) ?? `user ${g.assignee.id}`),
      period_start: start,
      period_end: end,
      metric: g.expected_outcome.tracking_metric,
      currency,
      target: g.expected_outcome.target,
      won: round2(won),
      remaining: round2(remaining),
      open: round2(open),
      weighted: round2(weighted),
      coverage: remaining > 0 ? Math.round((open / remaining) * 100) / 100 : null,
    });
  }
  return rows;
}
