import type { PipelineData } from './load.js';
import { money, probability, round2, Sums } from './money.js';

/**
 * Open deals by the month they are expected to close, one row per month and currency: how many, their
 * value and their weighted value (value × probability: the deal's own, else its stage's when the
 * pipeline weighs by stage, else 100 %). Deals without a close date are the month `none`, last.
 */
export interface ForecastRow {
  month: string;
  currency: string;
  deals: number;
  value: number;
  weighted: number;
}

export function forecast(d: PipelineData): ForecastRow[] {
  const stages = new Map(d.stages.map((s) => [s.id, s]));
  const sums = new Sums<{ month: string; currency: string }>();
  for (const x of d.deals) {
    if (x.status !== 'open') continue;
    const month = x.expected_close_date ? x.expected_close_date.slice(0, 7) : 'none';
    const m = money(x, d.conv);
    sums.add(`${month}|${m.currency}`, { month, currency: m.currency }, { deals: 1, value: m.value, weighted: (m.value * probability(x, stages.get(x.stage_id), d.pipeline)) / 100 });
  }
  return sums
    .entries()
    .map(({ key, v }) => ({ month: key.month, currency: key.currency, deals: v.deals!, value: round2(v.value!), weighted: round2(v.weighted!) }))
    .sort((a, b) => (a.month === 'none' ? 1 : 0) - (b.month === 'none' ? 1 : 0) || a.month.localeCompare(b.month) || a.currency.localeCompare(b.currency));
}
