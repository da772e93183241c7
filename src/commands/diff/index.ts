import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';

/** `crmctl diff DIR [DIR2]`: a backup against the account (through a restore's id map) or against another backup. */
const diff = defineCommand({
  path: ['diff'],
  summary: 'Compare a backup with this account (after a restore) or with another backup: per kind identical, changed, only in one (exit 8: different)',
  description: [
    'crmctl diff DIR reads this account as a backup would (a fresh backup into a temporary directory, removed after; it',
    'costs what crmctl backup --no-file-bytes costs) and compares it with DIR. Records are paired through the id map a',
    'restore of DIR into this account kept (DIR/restore/<account>/idmap), or by id when DIR is a backup of this same',
    'account. crmctl diff DIR1 DIR2 compares two backups and sends nothing: through DIR1\'s id map into DIR2\'s account',
    'when DIR1 was restored there, else by id.',
    'Compared field by field in a form that holds across accounts: users by e-mail, labels, stages and options by name,',
    'custom fields by field name; service-set fields (ids, times, counts, the creator) and the fields the restore\'s',
    'report lists as not carried are left out and named. Kinds a restore does not write are named, not compared.',
    'Exit code 0: identical; 8: different (as crmctl plan); 2: a directory is not a finished backup. --json for scripts.',
  ].join('\n'),
  examples: [
    'crmctl diff backups/acme --profile new-account',
    'crmctl diff backups/monday backups/friday --json',
  ],
  args: [
    { name: 'dir', description: 'a backup directory (crmctl backup --out)', required: true },
    { name: 'dir2', description: 'a second backup: compare the two, no API calls', required: false },
  ],
  async run(ctx, { args }) {
    const [a, b] = args;
    if (!a) throw new UsageError('diff: give a backup directory (DIR), and a second one to compare two backups', 'Example: crmctl diff backups/acme');
    const { runDiff } = await import('./run.js');
    await runDiff(ctx, a, b);
  },
});

export const area: AreaModule = { commands: [diff] };
