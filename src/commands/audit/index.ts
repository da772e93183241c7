import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { auditFlags, severityGate } from './flags.js';

/**
 * `crmctl audit`: the account's data health, read-only. The health commands list no `operations:`:
 * importing the operation tables here would make these areas load zod, which moves modules into the
 * table chunk every table command loads (test/ux/bundle-startup.test.ts); their descriptions say what
 * they read and what it costs, and the runs say it again on stderr before reading.
 */
const audit = defineCommand({
  path: ['audit'],
  summary: 'Check the account\'s data: duplicates, deals without a next step, stale deals, bad e-mails and phones (read-only)',
  description: [
    'Reads each kind once, page after page (activities not done, deals, persons, organizations; plus stages and field lists where a check needs them) and prints one finding per problem: its severity, check, records, name and what is wrong. Nothing is changed.',
    'Checks: duplicate-persons, duplicate-organizations, no-next-activity, stale-deals, close-date-past, empty-fields, overdue-activities, missing-currency, invalid-emails, invalid-phones (`--list-checks` shows their severities and thresholds). Severities and thresholds come from .crmctl/audit.yaml in the current directory, or --config FILE; an unknown key there is refused (exit 2). Guide: docs/health.md.',
    'Output: a table on a terminal, TSV in a pipe, --json or --output ndjson for scripts. The cost is said on stderr before the reads start. --strict [severity] exits 8 when a finding is at or above the severity (default warning): a CI gate.',
  ].join('\n\n'),
  examples: [
    'crmctl audit',
    'crmctl audit --checks duplicate-persons,invalid-phones --region EE',
    'crmctl audit --strict error --output ndjson > findings.ndjson',
    'crmctl audit --config ci/audit.yaml --as-of 2025-02-01 --json',
    'crmctl audit --list-checks',
  ],
  flags: {
    ...auditFlags(),
    strict: severityGate(),
    listChecks: flag.bool({ description: 'list the checks with their severity and thresholds (after the file) and exit; reads nothing' }),
  },
  async run(ctx, { flags }) {
    const { runAuditCommand } = await import('./run.js');
    await runAuditCommand(ctx, flags);
  },
});

export const area: AreaModule = { commands: [audit] };
