import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';

/** `crmctl apply`: fixture files → records in the account, remembered in a state file. */
const apply = defineCommand({
  path: ['apply'],
  summary: 'Create or update records from fixture files (YAML or JSON); re-runs change only what changed',
  // Paragraphs without manual line breaks: commander wraps them to the terminal.
  description: [
    'Each file is a list of records { kind, name, spec }: kind is what to create, name a handle unique across the files, spec the body of the create operation. ${ref:<name>.<field>} uses a field of another record (created first), ${env:VAR} an environment variable (${env:VAR:-default} with a default). Every spec is checked with the create schema before anything is sent.',
    'The state file remembers what was created: a re-run sends nothing for unchanged records and an update for changed ones (PATCH: only the changed fields); records removed from the files are left alone unless --prune.',
    'Kinds: lead-label, lead, note, note-comment, role, role-assignment, role-setting, webhook, activity-type, org-field, team, goal, project, phase, installment, recurring-subscription, installment-subscription. Guide: docs/fixtures.md.',
  ].join('\n\n'),
  examples: [
    'crmctl apply -f fixtures/labels.yaml -f fixtures/leads.yaml -f fixtures/admin.yaml',
    'crmctl apply -f fixtures/ --dry-run',
    'crmctl apply -f fixtures/ --state ci-state.json --prune --json',
  ],
  flags: {
    file: flag.list({ short: 'f', value: 'path', description: 'fixture file (YAML or JSON) or a directory of them; repeat for several' }),
    state: flag.string({ value: 'file', description: 'state file (default: .crmctl-state.json beside the first file)' }),
    dryRun: flag.bool({ description: 'print the plan (create / update / replace / unchanged / delete) and its total cost; send nothing' }),
    prune: flag.bool({ description: 'delete records an earlier apply created that the files no longer hold' }),
  },
  async run(ctx, { flags }) {
    const { runApply } = await import('./run.js');
    await runApply(ctx, {
      files: flags.file,
      state: flags.state,
      dryRun: flags.dryRun,
      prune: flags.prune,
    });
  },
});

export const area: AreaModule = { commands: [apply] };
