import type { Context } from '../../core/context.js';
import { analyticsNotice } from '../../health/analytics/notice.js';
import { computeMetrics, METRIC_COLUMNS, type Metric } from '../../health/analytics/run.js';
import { renderRecords } from '../../output/render.js';

export interface AnalyticsFlags {
  pipeline?: string;
  asOf?: string;
  from?: string;
  convertTo?: string;
  rate: string[];
}

export async function runAnalytics(ctx: Context, metric: Metric, flags: AnalyticsFlags): Promise<void> {
  const notice = await analyticsNotice(ctx);
  const { results } = await computeMetrics(ctx, [metric], { pipeline: flags.pipeline, asOf: flags.asOf, from: flags.from, convertTo: flags.convertTo, rates: flags.rate }, notice);
  const r = results[0]!;
  const columns = METRIC_COLUMNS[metric];
  await renderRecords(ctx, r.rows, { columns, fields: Object.keys(r.rows[0] ?? {}).length ? Object.keys(r.rows[0]!) : columns });
  ctx.info(`${metric} of ${r.pipeline.name} (pipeline ${r.pipeline.id}), ${r.from} to ${r.to}${r.converted_to ? `, money in ${r.converted_to}` : ''}.`);
}
