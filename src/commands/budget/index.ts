import { userOps } from '../../api/operations/users.js';
import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';

const FIELDS = ['limit', 'remaining', 'used', 'percentLeft', 'resetsAt', 'resetsInSeconds'];

const budget = defineCommand({
  path: ['budget'],
  summary: 'Show the daily token budget left; exit 6 below a threshold (a gate for CI)',
  description: [
    'The service charges every call against one daily token budget shared by the whole company; it resets at 00:00 UTC and, once spent, every request is refused until then.',
    'Prints the limit, what is left and when it resets, from the headers of one GET /api/v1/users/me (cost 2).',
    'Exit code 6 when less is left than --min tokens or --min-percent of the limit (without either: when nothing is left), so a CI job can stop before a run that would not fit.',
  ].join('\n\n'),
  examples: ['crmctl budget', 'crmctl budget --min 5000', 'crmctl budget --min-percent 20 --json'],
  operations: [userOps.me],
  fields: FIELDS,
  flags: {
    min: flag.int({ min: 0, value: 'tokens', description: 'exit 6 when fewer tokens than this are left today' }),
    minPercent: flag.int({ min: 0, max: 100, value: 'percent', description: 'exit 6 when less than this share of the daily limit is left' }),
  },
  async run(ctx, { flags }) {
    const { runBudget } = await import('./run.js');
    await runBudget(ctx, flags);
  },
});

export const area: AreaModule = { commands: [budget] };
