import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';

/** `crmctl plan`: configuration files compared with the live account. */
const plan = defineCommand({
  path: ['plan'],
  summary: 'Compare configuration files (crmctl pull) with the live account: what apply would create, change and delete',
  description: [
    'Reads the account (not a state file), matches each record of the files by its natural key (a pipeline by name, a stage by pipeline and name, a custom field by item type and name, a webhook by event and URL) and prints what apply would do, field by field: `~ stage Sales/Qualified: deal_probability 20 -> 30`; a value the files give with ${env:…} or a reference is shown as what it stands for, secrets masked. Records of the account that the files do not hold are deleted only for the kinds named by --prune.',
    'Exit code 0: no changes; 8: changes (as terraform plan -detailed-exitcode); 2: a problem in the files (nothing is read or sent). --json prints the plan as one document; --out saves it for crmctl apply --plan, which refuses when the account or the files changed since. Guide: docs/config-as-code.md.',
  ].join('\n\n'),
  examples: [
    'crmctl plan -f config/',
    'crmctl plan -f config/ --prune lead-label,webhook',
    'crmctl plan --profile prod -f config/ --out plan.json --json',
  ],
  flags: {
    file: flag.list({ short: 'f', value: 'path', description: 'configuration file or directory (crmctl pull --out); repeat for several' }),
    prune: flag.list({ value: 'kinds', description: 'also delete records of these kinds that the files do not hold (comma-separated or repeated; all for every kind)' }),
    out: flag.string({ value: 'file', description: 'save the plan as JSON for crmctl apply --plan' }),
  },
  async run(ctx, { flags }) {
    const { runPlan } = await import('./run.js');
    await runPlan(ctx, { files: flags.file, prune: flags.prune, out: flags.out });
  },
});

export const area: AreaModule = { commands: [plan] };
