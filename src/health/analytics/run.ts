import type { Reader } from '../../api/entry-types.js';
import { readAll } from '../../entry/prepare.js';
import { aging } from './aging.js';
import { coverage, type Goal } from './coverage.js';
import { forecast } from './forecast.js';
import { funnel } from './funnel.js';
import { historyScope } from './history.js';
import { loadChangelogs, loadPipelineData, loadUserNames, type AnalyticsOptions, type FieldChange, type PipelineData } from './load.js';
import { scorecard } from './scorecard.js';
import { slippage } from './slippage.js';
import { velocity } from './velocity.js';

import { METRICS, type Metric } from './metric-names.js';

export { METRICS, type Metric };

/** Metrics that need each deal's history (its changelog, 20 tokens a deal). */
export const HISTORY_METRICS: readonly Metric[] = ['velocity', 'slippage'];

/** The columns of each metric's rows, in print order. */
export const METRIC_COLUMNS: Record<Metric, string[]> = {
  funnel: ['stage', 'reached', 'open_here', 'lost_here', 'to_next', 'of_first'],
  forecast: ['month', 'currency', 'deals', 'value', 'weighted'],
  velocity: ['stage', 'stays', 'avg_days', 'median_days', 'open_now', 'open_avg_days'],
  aging: ['stage', 'open', 'avg_age_days', 'avg_days_in_stage', '0-30', '31-60', '61-90', '91+'],
  slippage: ['id', 'title', 'status', 'pushes', 'days_pushed', 'pulled_in', 'first_date', 'current_date'],
  coverage: ['goal', 'assignee', 'period_start', 'period_end', 'currency', 'target', 'won', 'remaining', 'open', 'weighted', 'coverage'],
  scorecard: ['owner', 'currency', 'open', 'open_value', 'won', 'won_value', 'lost', 'win_rate', 'avg_won'],
};

export interface MetricResult {
  metric: Metric;
  pipeline: { id: number; name: string };
  from: string;
  to: string;
  converted_to: string | null;
  rows: Array<Record<string, unknown>>;
}

/** Told what a run will read and its least cost before reading it (the command prints it on stderr). */
export type CostNotice = (what: string, tokens: number) => void;

/** The reads every metric makes: pipelines, stages, the pipeline's deals (the first page of them). */
export const BASE_READS = { text: 'pipelines (5), stages (5), the pipeline\'s deals (10 a page of 500)', tokens: 20 };

/** One or more metrics from one read of the pipeline (and the extra reads only the metrics asked need). */
export async function computeMetrics(reader: Reader, metrics: readonly Metric[], o: AnalyticsOptions, notice: CostNotice = () => {}): Promise<{ data: PipelineData; results: MetricResult[] }> {
  const needUsers = metrics.includes('scorecard') || metrics.includes('coverage');
  const extra: Array<[string, number]> = [
    ...(o.convertTo ? [['currencies (20)', 20] as [string, number]] : []),
    ...(needUsers ? [['users (20)', 20] as [string, number]] : []),
    ...(metrics.includes('coverage') ? [['goals (20)', 20], ['currencies (20)', 20]] as Array<[string, number]> : []),
  ];
  notice([BASE_READS.text, ...extra.map(([t]) => t)].join(', '), extra.reduce((n, [, c]) => n + c, BASE_READS.tokens));
  const data = await loadPipelineData(reader, o);
  const users = needUsers ? await loadUserNames(reader) : new Map<number, string>();
  let logs: Map<number, FieldChange[]> = new Map();
  if (metrics.some((m) => HISTORY_METRICS.includes(m))) {
    const scope = historyScope(data);
    notice(`the changelog of ${scope.length} deals for ${metrics.filter((m) => HISTORY_METRICS.includes(m)).join(' and ')} (20 each)`, scope.length * 20);
    logs = await loadChangelogs(reader, scope.map((x) => x.id));
  }
  let goals: Goal[] = [];
  let codes = new Map<number, string>();
  if (metrics.includes('coverage')) ({ goals, codes } = await loadGoals(reader));
  const results = metrics.map((metric): MetricResult => {
    const rows = ((): object[] => {
      switch (metric) {
        case 'funnel': return funnel(data);
        case 'forecast': return forecast(data);
        case 'velocity': return velocity(data, logs);
        case 'aging': return aging(data);
        case 'slippage': return slippage(data, logs);
        case 'coverage': return coverage(data, goals, codes, users);
        case 'scorecard': return scorecard(data, users);
      }
    })();
    return { metric, pipeline: { id: data.pipeline.id, name: data.pipeline.name }, from: data.from, to: data.to, converted_to: data.conv?.to ?? null, rows: rows as Array<Record<string, unknown>> };
  });
  return { data, results };
}

/** Active goals that count won deals, of everyone (a type filter returns every assignee's), and the currency codes by id. */
async function loadGoals(reader: Reader): Promise<{ goals: Goal[]; codes: Map<number, string> }> {
  const [{ goalOps }, { currencyOps }] = await Promise.all([import('../../api/operations/goals.js'), import('../../api/operations/currencies.js')]);
  const goals: Goal[] = [];
  for await (const g of readAll(reader, goalOps.find, { query: { 'type.name': 'deals_won', is_active: true } })) goals.push(g as Goal);
  const codes = new Map<number, string>();
  for await (const c of readAll(reader, currencyOps.list, {})) codes.set((c as { id: number }).id, String((c as { code: string }).code));
  return { goals, codes };
}
