import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { analyticsFlags } from '../analytics/index.js';
import { auditFlags } from '../audit/flags.js';

/** `crmctl digest`: the week's analytics and audit in one file, for a cron job and a mail. */
const digest = defineCommand({
  path: ['digest'],
  summary: 'The week\'s analytics and audit of a pipeline in one Markdown or HTML file (charts inline)',
  description: [
    'Runs the audit and the analytics of one pipeline (funnel, forecast, aging, coverage, scorecard; velocity and slippage with --with-history, which reads each deal\'s changelog at 20 tokens a deal) for the 7 days up to --as-of (--from for another start) and writes them as one file. The cost is said on stderr before the reads.',
    'The HTML has its charts as inline SVG and no script and no external resource: it opens offline, in a mail, on a phone (it fits a small screen) and prints on A4. --format defaults to the extension of --out (.md, .html); without --out the file goes to stdout. Guide: docs/health.md.',
  ].join('\n\n'),
  examples: [
    'crmctl digest --pipeline Sales --format html --out digest.html',
    'crmctl digest --pipeline Sales --out weekly.md',
    'crmctl digest --pipeline 1 --as-of 2025-02-01 --with-history --format html > digest.html',
  ],
  flags: {
    format: flag.enum(['md', 'html'], { value: 'format', description: 'md or html (default: from the --out extension, else md)' }),
    out: flag.string({ value: 'file', description: 'write the digest here (replaced whole when done) instead of stdout' }),
    withHistory: flag.bool({ description: 'add velocity and slippage (reads each deal\'s changelog: 20 tokens a deal of the period)' }),
    ...analyticsFlags(),
    config: auditFlags().config,
    checks: auditFlags().checks,
    region: auditFlags().region,
  },
  async run(ctx, { flags }) {
    const { runDigest } = await import('./run.js');
    await runDigest(ctx, flags);
  },
});

export const area: AreaModule = { commands: [digest] };
