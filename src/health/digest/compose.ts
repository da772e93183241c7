import type { Context } from '../../core/context.js';
import { analyticsNotice } from '../analytics/notice.js';
import { computeMetrics, type Metric, type MetricResult } from '../analytics/run.js';
import { CHECKS } from '../audit/checks.js';
import type { AuditConfig } from '../audit/config.js';
import { auditWithNotice, summary } from '../audit/session.js';
import { SEVERITIES, type Finding } from '../types.js';

/** Everything a digest shows, computed once; the Markdown and the HTML are two renderings of it. */
export interface DigestData {
  title: string;
  pipeline: { id: number; name: string };
  from: string;
  to: string;
  generated_at: string;
  audit: { summary: string; findings: Finding[]; by_check: Array<{ check: string; count: number }>; by_severity: Array<{ severity: string; count: number }> };
  metrics: MetricResult[];
}

export interface DigestOptions {
  pipeline?: string;
  asOf?: string;
  from?: string;
  convertTo?: string;
  rates: string[];
  withHistory: boolean;
  cfg: AuditConfig;
}

/** The week: the 7 days up to --as-of, unless --from says otherwise. */
export const DIGEST_DAYS = 7;

export async function composeDigest(ctx: Context, o: DigestOptions): Promise<DigestData> {
  const metrics: Metric[] = ['funnel', 'forecast', 'aging', 'coverage', 'scorecard', ...(o.withHistory ? (['velocity', 'slippage'] as Metric[]) : [])];
  const notice = await analyticsNotice(ctx);
  const { data, results } = await computeMetrics(ctx, metrics, { pipeline: o.pipeline, asOf: o.asOf, from: o.from, periodDays: DIGEST_DAYS, convertTo: o.convertTo, rates: o.rates }, notice);
  // The audit counts to the same day as the analytics (--as-of, else the service's date).
  const { findings } = await auditWithNotice(ctx, o.cfg, data.to);
  const r0 = results[0]!;
  return {
    title: `Weekly digest: ${r0.pipeline.name}`,
    pipeline: r0.pipeline,
    from: r0.from,
    to: r0.to,
    generated_at: new Date().toISOString(),
    audit: {
      summary: summary(findings),
      findings,
      by_check: CHECKS.map((c) => ({ check: c.id, count: findings.filter((f) => f.check === c.id).length })).filter((c) => c.count > 0),
      by_severity: [...SEVERITIES].reverse().map((s) => ({ severity: s, count: findings.filter((f) => f.severity === s).length })),
    },
    metrics: results,
  };
}
