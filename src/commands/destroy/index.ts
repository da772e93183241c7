import type { AreaModule, CommandSpec } from '../../core/command.js';

/** `crmctl destroy`: removes what `crmctl apply` created, as its state file lists it. */
const destroy: CommandSpec = {
  path: ['destroy'],
  summary: 'Delete the records crmctl apply created (from its state file), dependents first',
  description: [
    'Removes every record of the state file in reverse dependency order (a lead before its label). A record already gone (404) counts as deleted. The state file is rewritten after each record, so an interrupted destroy is finished by running it again.',
    'Projects are archived and legacy teams marked deleted (the interface has no delete for them); role settings go with their role.',
    'A step that changed a record the fixtures did not create (a user\'s role, a setting of an existing role) is undone by putting back the value apply found (a "restored" line names the record and the value: role 6 -> 3).',
  ].join('\n\n'),
  examples: ['crmctl destroy --state fixtures/.crmctl-state.json --yes', 'crmctl destroy --state ci-state.json --dry-run'],
  options: [
    { flags: '--state <file>', description: 'state file written by crmctl apply (required)' },
    { flags: '--dry-run', description: 'list what would be deleted and the cost; send nothing' },
  ],
  async run(ctx, { opts }) {
    const { runDestroy } = await import('./run.js');
    await runDestroy(ctx, { state: opts.state as string | undefined, dryRun: Boolean(opts.dryRun) });
  },
};

export const area: AreaModule = { commands: [destroy] };
