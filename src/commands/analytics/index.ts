import type { AreaModule, CommandSpec } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';

/** What each metric shows, and what it reads beyond the pipeline's deals. */
const METRIC_HELP = {
  funnel: { summary: 'Deals added in the period that reached each stage, and the conversion to the next', reads: '', more: 'A deal counts as having passed every stage before the one it is in (its history is not read).' },
  forecast: { summary: 'Open deals by expected close month: count, value and weighted value, per currency', reads: '', more: 'Weighted = value × probability: the deal\'s own, else its stage\'s when the pipeline weighs deals by stage, else 100 %.' },
  velocity: { summary: 'Days per stage from the deals\' stage history, and the sales cycle (added → won)', reads: ' Also reads each deal\'s changelog (GET /api/v1/deals/{id}/changelog, cost 20 a deal) for the deals of the period: the cost is said before.', more: '' },
  aging: { summary: 'Open deals by stage: how old they are, days in their stage, and how many in each age band', reads: '', more: '' },
  slippage: { summary: 'Deals whose expected close date was pushed later: how often and by how many days', reads: ' Also reads each deal\'s changelog (cost 20 a deal) for the deals of the period: the cost is said before.', more: '' },
  coverage: { summary: 'Open pipeline against the goals for won deals: won so far, left to win, coverage', reads: ' Also reads the goals (GET /api/v1/goals/find, 20), the currencies (20) and the users (20).', more: 'Each goal\'s current interval holds --as-of; team goals are left out.' },
  scorecard: { summary: 'Per owner and currency: open deals, won and lost in the period, win rate, average won deal', reads: ' Also reads the users (20).', more: '' },
} as const;

type MetricName = keyof typeof METRIC_HELP;

function metricCommand(metric: MetricName): CommandSpec {
  const h = METRIC_HELP[metric];
  return defineCommand({
    path: ['analytics', metric],
    summary: h.summary,
    description: [
      `${h.summary}. ${h.more}`.trim(),
      `Reads the pipeline once: pipelines (5), its stages (5) and every deal of it (10 a page of 500).${h.reads} Money is never added across currencies: one row per currency, unless --convert-to CUR with a --rate for every other currency (the service gives no exchange rates). The period is --from to --as-of (default: the 90 days up to today on the service's clock).`,
      'A table on a terminal, TSV in a pipe, --json for scripts. Guide: docs/health.md.',
    ].join('\n\n'),
    examples: [
      `crmctl analytics ${metric} --pipeline Sales`,
      `crmctl analytics ${metric} --pipeline 1 --as-of 2025-03-31 --json`,
      ...(metric === 'forecast' || metric === 'scorecard' ? [`crmctl analytics ${metric} --pipeline Sales --convert-to EUR --rate USD=0.92 --rate GBP=1.17`] : []),
    ],
    flags: analyticsFlags(),
    async run(ctx, { flags }) {
      const { runAnalytics } = await import('./run.js');
      await runAnalytics(ctx, metric, flags);
    },
  });
}

export function analyticsFlags() {
  return {
    pipeline: flag.string({ value: 'name|id', description: 'the pipeline, by name or id (needed when the account has more than one)' }),
    asOf: flag.string({ value: 'date', description: 'the end of the period and "today" for ages, YYYY-MM-DD (default: today on the service\'s clock)' }),
    from: flag.string({ value: 'date', description: 'the start of the period, YYYY-MM-DD (default: 90 days before --as-of)' }),
    convertTo: flag.string({ value: 'CUR', description: 'show money in this currency of the account, converted with --rate' }),
    rate: flag.list({ value: 'CUR=n', description: 'n units of --convert-to for one CUR (repeat for each other currency), e.g. USD=0.92' }),
  };
}

export const area: AreaModule = {
  commands: (Object.keys(METRIC_HELP) as MetricName[]).map(metricCommand),
  groups: { analytics: 'Pipeline analytics: funnel, forecast, velocity, aging, slippage, coverage, scorecard' },
};
