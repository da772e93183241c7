import type { PipelineData } from './load.js';

/**
 * The funnel of the deals added in the period: how many reached each stage and how many of those went
 * on to the next. Without the deals' history (not read: it costs 20 a deal) a deal is taken to have
 * passed every stage before the one it is in (or was lost in), as a pipeline is worked in order, and a
 * won deal every stage (won is past the last one, whichever stage it was won from). The last row is
 * the won deals, converted from the last stage.
 */
export interface FunnelRow {
  stage: string;
  order: number;
  /** Deals of the cohort that reached this stage (or were won, for the last row). */
  reached: number;
  /** Of those, open in this stage now. */
  open_here: number;
  /** Lost while in this stage. */
  lost_here: number;
  /** reached of the next row / reached of this one, %; null for the won row. */
  to_next: number | null;
  /** reached / reached of the first stage, %. */
  of_first: number;
}

const pct = (a: number, b: number): number => (b === 0 ? 0 : Math.round((a / b) * 1000) / 10);

export function funnel(d: PipelineData): FunnelRow[] {
  const order = new Map(d.stages.map((s) => [s.id, s.order_nr]));
  const cohort = d.deals.filter((x) => x.add_time.slice(0, 10) >= d.from && x.add_time.slice(0, 10) <= d.to && order.has(x.stage_id));
  const rows: FunnelRow[] = d.stages.map((s) => ({
    stage: s.name,
    order: s.order_nr,
    reached: cohort.filter((x) => x.status === 'won' || order.get(x.stage_id)! >= s.order_nr).length,
    open_here: cohort.filter((x) => x.stage_id === s.id && x.status === 'open').length,
    lost_here: cohort.filter((x) => x.stage_id === s.id && x.status === 'lost').length,
    to_next: null,
    of_first: 0,
  }));
  rows.push({ stage: 'won', order: (d.stages.at(-1)?.order_nr ?? 0) + 1, reached: cohort.filter((x) => x.status === 'won').length, open_here: 0, lost_here: 0, to_next: null, of_first: 0 });
  const first = rows[0]?.reached ?? 0;
  rows.forEach((r, i) => {
    const next = rows[i + 1];
    r.to_next = next ? pct(next.reached, r.reached) : null;
    r.of_first = pct(r.reached, first);
  });
  return rows;
}
