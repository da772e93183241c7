import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag, type Flag } from '../../core/flags.js';

/**
 * `--prune` alone (fixtures: records an earlier apply created) or `--prune <kinds>` (configuration:
 * records of those kinds the account holds and the files do not).
 */
const pruneFlag: Flag<boolean | string[]> = {
  option: (name) => ({ flags: `--${name} [kinds]`, description: 'delete what the files no longer hold: fixtures, records an earlier apply created; configuration, records of the kinds named (comma-separated, or all)', repeatable: false }),
  parse: (raw) => (raw === undefined || raw === false ? false : raw === true ? true : String(raw).split(',').map((s) => s.trim()).filter(Boolean)),
};

/** `crmctl apply`: fixture files → records in the account, remembered in a state file. */
const apply = defineCommand({
  path: ['apply'],
  summary: 'Create or update records from fixture or configuration files (YAML or JSON); re-runs change only what changed',
  // Paragraphs without manual line breaks: commander wraps them to the terminal.
  description: [
    'Each file is a list of records { kind, name, spec }: kind is what to create, name a handle unique across the files, spec the body of the create operation. ${ref:<name>.<field>} uses a field of another record (created first), ${env:VAR} an environment variable (${env:VAR:-default} with a default). Every spec is checked with the create schema before anything is sent.',
    'The state file remembers what was created: a re-run sends nothing for unchanged records and an update for changed ones (PATCH: only the changed fields); records removed from the files are left alone unless --prune.',
    'Configuration files (written by crmctl pull, `config:` at the top) are matched with the live account by natural key instead of a state file: apply prints the plan (as crmctl plan does) and carries out exactly that plan; --plan <file> carries out a plan saved by crmctl plan --out and refuses if the files or the account changed since. Guide: docs/config-as-code.md.',
    'An apply is a run of the record of changes (crmctl runs list): crmctl undo --last deletes what it created and sets back what it changed, for the kinds crmctl can read one of (leads, notes, roles…); crmctl destroy removes every record of a state file (docs/undo.md).',
    'Kinds: lead-label, lead, note, note-comment, role, role-assignment, role-setting, role-pipelines, webhook, activity-type, org-field, deal-field, person-field, product-field, project-field, filter, board, team, goal, project, phase, installment, recurring-subscription, installment-subscription, pipeline, stage, product, organization, person, deal, deal-product, activity. Guide: docs/fixtures.md.',
  ].join('\n\n'),
  examples: [
    'crmctl apply -f fixtures/labels.yaml -f fixtures/leads.yaml -f fixtures/admin.yaml',
    'crmctl apply -f fixtures/ --dry-run',
    'crmctl apply -f fixtures/ --state ci-state.json --prune --json',
    'crmctl apply -f config/ --prune webhook,lead-label --yes',
    'crmctl apply --plan plan.json',
  ],
  flags: {
    file: flag.list({ short: 'f', value: 'path', description: 'fixture file (YAML or JSON) or a directory of them; repeat for several' }),
    state: flag.string({ value: 'file', description: 'state file (default: .crmctl-state.json beside the first file)' }),
    dryRun: flag.bool({ description: 'print the plan (create / update / replace / unchanged / delete) and its total cost; send nothing' }),
    prune: pruneFlag,
    plan: flag.string({ value: 'file', description: 'carry out a plan saved by crmctl plan --out (configuration files)' }),
  },
  async run(ctx, { flags }) {
    const { runApply } = await import('./run.js');
    await runApply(ctx, {
      files: flags.file,
      state: flags.state,
      dryRun: flags.dryRun,
      prune: flags.prune,
      plan: flags.plan,
    });
  },
});

export const area: AreaModule = { commands: [apply] };
