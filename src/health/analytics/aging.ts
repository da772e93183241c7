import { daysBetween, endOfDay, msOf } from '../dates.js';
import type { PipelineData } from './load.js';

/**
 * Open deals by stage and age (days since added, to the end of the period): how many, their average age
 * and average days in the stage they are in (since the stage changed, or since added), and how many
 * fall in each age band.
 */
export interface AgingRow {
  stage: string;
  order: number;
  open: number;
  avg_age_days: number;
  avg_days_in_stage: number;
  '0-30': number;
  '31-60': number;
  '61-90': number;
  '91+': number;
}

const avg = (xs: number[]): number => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : 0);

export function aging(d: PipelineData): AgingRow[] {
  const now = endOfDay(d.to);
  return d.stages.map((s) => {
    const open = d.deals.filter((x) => x.status === 'open' && x.stage_id === s.id);
    const ages = open.map((x) => daysBetween(msOf(x.add_time), now));
    const inStage = open.map((x) => daysBetween(msOf(x.stage_change_time ?? x.add_time), now));
    return {
      stage: s.name,
      order: s.order_nr,
      open: open.length,
      avg_age_days: avg(ages),
      avg_days_in_stage: avg(inStage),
      '0-30': ages.filter((a) => a <= 30).length,
      '31-60': ages.filter((a) => a > 30 && a <= 60).length,
      '61-90': ages.filter((a) => a > 60 && a <= 90).length,
      '91+': ages.filter((a) => a > 90).length,
    };
  });
}
