import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';

/** `crmctl pull`: the account's configuration → YAML files that `plan` and `apply` take. */
const pull = defineCommand({
  path: ['pull'],
  summary: 'Write the account\'s configuration (pipelines, stages, custom fields, labels, roles, webhooks, ...) as YAML files',
  description: [
    'One file per group (pipelines.yaml, fields.yaml, labels.yaml, activity-types.yaml, roles.yaml, teams.yaml, webhooks.yaml, filters.yaml, projects.yaml), in a stable order so a re-pull diffs cleanly. Records refer to each other by name (${ref:<name>.id}), users by e-mail (${user:<email>}), never by id, so the same files apply to an account where every id differs: crmctl plan -f <dir> shows the differences, crmctl apply -f <dir> makes them.',
    'Only custom fields are written (not the built-in ones). Filter conditions are written by field name (where: ["Lead score >= 40"]). Text is written as it is: a `${` of the account is written `$${`, never a reference. Webhook passwords are never written. Read-only settings (currencies, users, project templates), records that share a natural key (two lead labels called the same) and what cannot be written by name go to reference.yaml, which is never applied. Guide: docs/config-as-code.md.',
    'With --sample, the names, e-mails and phones the sample replaces are replaced wherever they appear in the directory (filters\' conditions, goal titles, any text), with the same fakes.',
  ].join('\n\n'),
  examples: [
    'crmctl pull --out config/',
    'crmctl pull --profile staging --out config/ && crmctl plan --profile prod -f config/',
    'crmctl pull --out config/ --sample 50',
  ],
  flags: {
    out: flag.string({ value: 'dir', description: 'directory to write the files into (created if missing; files of the same names are replaced)' }),
    sample: flag.int({ min: 1, description: 'also write a sample of this many records per item type as CSV files under <dir>/sample/, people\'s data replaced in the whole directory' }),
  },
  async run(ctx, { flags }) {
    if (!flags.out) throw new UsageError('--out: is required (the directory to write the configuration into)', 'Example: crmctl pull --out config/');
    const { runPull } = await import('./run.js');
    if (flags.sample === undefined) {
      await runPull(ctx, { dir: flags.out });
      return;
    }
    // The sample's names are replaced in every file of the directory, so it is picked first.
    const sample = await (await import('./sample.js')).prepareSample(ctx, flags.sample);
    await runPull(ctx, { dir: flags.out, scrub: sample.scrub });
    const r = await sample.write(flags.out);
    ctx.info(`Sample: ${r.records} records in ${r.files.length} files under ${flags.out}/sample/.`);
  },
});

export const area: AreaModule = { commands: [pull] };
