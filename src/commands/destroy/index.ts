import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';

/** `crmctl destroy`: removes what `crmctl apply` created, as its state file lists it. */
const destroy = defineCommand({
  path: ['destroy'],
  summary: 'Delete the records crmctl apply created (from its state file), dependents first',
  description: [
    'Removes every record of the state file in reverse dependency order (a lead before its label). A record already gone (404) counts as deleted. The state file is rewritten after each record, so an interrupted destroy is finished by running it again.',
    'Projects are archived and legacy teams marked deleted (the interface has no delete for them); role settings go with their role.',
    'A step that changed a record the fixtures did not create (a user\'s role, a setting of an existing role) is undone by putting back the value apply found (a "restored" line names the record and the value: role 6 -> 3).',
    'A destroy is a run of the record of changes: crmctl undo --last creates again the records it deleted that crmctl can read one of (leads, notes, roles…), with new ids (docs/undo.md).',
  ].join('\n\n'),
  examples: ['crmctl destroy --state fixtures/.crmctl-state.json --yes', 'crmctl destroy --state ci-state.json --dry-run'],
  flags: {
    state: flag.string({ value: 'file', description: 'state file written by crmctl apply (required)' }),
    dryRun: flag.bool({ description: 'list what would be deleted and the cost; send nothing' }),
  },
  async run(ctx, { flags }) {
    const { runDestroy } = await import('./run.js');
    await runDestroy(ctx, { state: flags.state, dryRun: flags.dryRun });
  },
});

export const area: AreaModule = { commands: [destroy] };
