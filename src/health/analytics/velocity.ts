import { dateDiff } from '../dates.js';
import { historyScope, stageStays } from './history.js';
import type { FieldChange, PipelineData } from './load.js';

/**
 * Days per stage, from the deals' stage history: for each stage, the stays that ended within the
 * period (the deal moved on, was won or lost) with their average and median length in calendar days,
 * and the deals in it now with the days so far. The last row is the sales cycle: days from added to
 * won of the deals won within the period.
 */
export interface VelocityRow {
  stage: string;
  order: number;
  stays: number;
  avg_days: number | null;
  median_days: number | null;
  open_now: number;
  open_avg_days: number | null;
}

const avg = (xs: number[]): number | null => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null);
function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function velocity(d: PipelineData, logs: ReadonlyMap<number, FieldChange[]>): VelocityRow[] {
  const done = new Map<number, number[]>();
  const now = new Map<number, number[]>();
  const cycle: number[] = [];
  for (const x of historyScope(d)) {
    for (const s of stageStays(x, logs.get(x.id) ?? [], d.to)) {
      const days = dateDiff(s.from, s.to);
      if (s.done && s.to >= d.from) (done.get(s.stage) ?? done.set(s.stage, []).get(s.stage)!).push(days);
      if (!s.done && x.status === 'open') (now.get(s.stage) ?? now.set(s.stage, []).get(s.stage)!).push(days);
    }
    if (x.status === 'won' && x.won_time && x.won_time.slice(0, 10) >= d.from && x.won_time.slice(0, 10) <= d.to) cycle.push(dateDiff(x.add_time.slice(0, 10), x.won_time.slice(0, 10)));
  }
  const rows: VelocityRow[] = d.stages.map((s) => {
    const xs = done.get(s.id) ?? [];
    const open = now.get(s.id) ?? [];
    return { stage: s.name, order: s.order_nr, stays: xs.length, avg_days: avg(xs), median_days: median(xs), open_now: open.length, open_avg_days: avg(open) };
  });
  rows.push({ stage: 'cycle (added → won)', order: (d.stages.at(-1)?.order_nr ?? 0) + 1, stays: cycle.length, avg_days: avg(cycle), median_days: median(cycle), open_now: 0, open_avg_days: null });
  return rows;
}
