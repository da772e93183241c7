import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { auditFlags } from '../audit/flags.js';

/** `crmctl watch`: the audit, reporting only what is new since the last run on this account. */
const watch = defineCommand({
  path: ['watch'],
  summary: 'Run the audit and report only findings new since the last run (exit 8 when one passes --fail-on)',
  description: [
    'Runs the same checks as crmctl audit (same settings, same reads and cost), then compares the findings with those of the last run on this account (kept in the config directory, one file per account, i.e. API address, company and user, as runs keep theirs: never shared between accounts). Only new findings are printed; a finding fixed and back later is new again. The first run reports everything (--baseline records the current findings without reporting them).',
    'Exit 8 when a new finding is at or above --fail-on (default warning); 0 otherwise. --post URL sends the new findings as JSON ({text, findings}) to an incoming webhook (Slack, Teams): https, or http to this machine only; nothing of the login is sent there. When the post fails, the state is not saved, so the next run reports the same findings again. Guide: docs/health.md.',
  ].join('\n\n'),
  examples: [
    'crmctl watch',
    'crmctl watch --fail-on error --post https://hooks.slack.com/services/T000/B000/XXXX',
    'crmctl watch --baseline',
    'crmctl watch --json --checks duplicate-persons,invalid-emails',
  ],
  flags: {
    ...auditFlags(),
    failOn: flag.enum(['info', 'warning', 'error'], { value: 'severity', default: 'warning', description: 'exit 8 when a new finding is at or above this severity' }),
    post: flag.string({ value: 'url', description: 'send the new findings as JSON {text, findings} to this incoming-webhook URL (https)' }),
    baseline: flag.bool({ description: 'record the current findings as seen, print nothing and exit 0 (start watching an account as it is)' }),
    reset: flag.bool({ description: 'forget what watch saw on this account, then exit (the next run reports everything)' }),
  },
  async run(ctx, { flags }) {
    const { runWatch } = await import('./run.js');
    await runWatch(ctx, flags);
  },
});

export const area: AreaModule = { commands: [watch] };
