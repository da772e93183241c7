import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';

/** `crmctl diff DIR [DIR2]` / `--from P --to P`: a backup against the account (through a restore's id map), two backups, or two accounts. */
const diff = defineCommand({
  path: ['diff'],
  summary: 'Compare a backup with this account (after a restore), two backups, or two accounts: per kind identical, changed, only in one (exit 8: different)',
  description: [
    'crmctl diff DIR reads this account as a backup would (a fresh backup into a temporary directory, removed after; it',
    'costs what crmctl backup --no-file-bytes costs) and compares it with DIR. Records are paired through the id map a',
    'restore of DIR into this account kept (DIR/restore/<account>/idmap), or by id when DIR is a backup of this same',
    'account. crmctl diff DIR1 DIR2 compares two backups and sends nothing: through DIR1\'s id map into DIR2\'s account',
    'when DIR1 was restored there, else by id.',
    'crmctl diff --from PROFILE --to PROFILE compares two accounts: each is read into a temporary backup (as crmctl diff',
    'DIR reads one), and, with no id map between them, records are paired by a natural key per kind: the name or title',
    'and the names of what the record links to (a person by name and organization, a deal by title, organization and',
    'person, an activity by subject, type, date and links). Records sharing a key pair in id order.',
    'Compared field by field in a form that holds across accounts: users by e-mail, labels, stages and options by name,',
    'custom fields by field name; service-set fields (ids, times, counts, the creator) and the fields the restore\'s',
    'report lists as not carried are left out and named. Kinds a restore does not write are named, not compared.',
    'Exit code 0: identical; 8: different (as crmctl plan); 2: a directory is not a finished backup. --json for scripts.',
  ].join('\n'),
  examples: [
    'crmctl diff backups/acme --profile new-account',
    'crmctl diff backups/monday backups/friday --json',
    'crmctl diff --from staging --to prod',
  ],
  flags: {
    from: flag.string({ value: 'profile', description: 'compare two accounts: this profile\'s (A) with --to\'s (B)' }),
    to: flag.string({ value: 'profile', description: 'the second account of --from (B)' }),
  },
  args: [
    { name: 'dir', description: 'a backup directory (crmctl backup --out); none with --from/--to', required: false },
    { name: 'dir2', description: 'a second backup: compare the two, no API calls', required: false },
  ],
  async run(ctx, { args, flags }) {
    const [a, b] = args;
    if (flags.from !== undefined || flags.to !== undefined) {
      if (a !== undefined) throw new UsageError(`diff: give backup directories (DIR [DIR2]) or two profiles (--from, --to), not both (got ${a})`);
      if (flags.from === undefined) throw new UsageError('--from: is required with --to (the profile of the first account)', 'Example: crmctl diff --from staging --to prod');
      if (flags.to === undefined) throw new UsageError('--to: is required with --from (the profile of the second account)', 'Example: crmctl diff --from staging --to prod');
      const { runDiffAccounts } = await import('./run.js');
      await runDiffAccounts(ctx, flags.from, flags.to);
      return;
    }
    if (!a) throw new UsageError('diff: give a backup directory (DIR), and a second one to compare two backups', 'Example: crmctl diff backups/acme');
    const { runDiff } = await import('./run.js');
    await runDiff(ctx, a, b);
  },
});

export const area: AreaModule = { commands: [diff] };
