import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { NEW_RUN_FLAG, RUN_POLICY_HELP } from '../../runs/policy-text.js';
import { applyConfig } from '../backup/config-steps.js';

/** `--map-user old@x=new@y` (repeatable) → old → new, checked before anything is read. */
function userPairs(given: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of given) {
    const m = /^\s*([^=\s]+@[^=\s]+)\s*=\s*([^=\s]+@[^=\s]+)\s*$/.exec(g);
    if (!m) throw new UsageError(`--map-user ${g}: must be OLD_EMAIL=NEW_EMAIL (an e-mail of the backup's account = one of this account's)`, 'Example: --map-user ann@old.example=ann@new.example');
    out[m[1]!.toLowerCase()] = m[2]!.toLowerCase();
  }
  return out;
}

/** `crmctl restore DIR`: a backup (crmctl backup) into the current profile's account, every link kept. */
const restore = defineCommand({
  path: ['restore'],
  summary: 'Write a backup (crmctl backup) into this account: configuration, then records with every link kept (resumable)',
  description: [
    'Configuration first (DIR/config through the apply engine, matched by natural key), then records in dependency order:',
    'organizations, persons, products and variations, deals and archived deals with their products and participants, leads',
    'and archived leads, projects and archived projects, tasks, activities, notes and their comments, call logs. Archived',
    'records are created, then archived. Every link is rewritten through the id map kept in',
    'DIR/restore/<account>/idmap/<kind>.ndjson (old id → new id, fsynced with each create): organizations, persons, deals,',
    'leads, products, projects, participants, notes\' and activities\' targets. Custom fields travel by name, options by',
    'label, labels by name, stages by pipeline and name, users by e-mail: a user this account lacks is mapped with',
    '--map-user OLD=NEW or to --default-user (listed in one warning); without either the restore stops before sending.',
    'Exactly once: each create is journaled ("sending") before it goes out; a create whose answer is lost is looked up by',
    'its content before it is sent again (in the run, and by --resume after a kill).',
    'Not carried (DIR/restore/<account>/report.json lists them): ids, add_time and other service-set times, the creator,',
    'history (changelogs, flow, e-mails), followers, deal discounts and installments, files\' bytes.',
    '--dry-run prints the records per kind, the cost and how many days of the daily budget they need; nothing is sent.',
    'A backup of this same account is refused (exit 2): every record would be created twice. Guide: docs/migrations.md.',
    ...RUN_POLICY_HELP,
  ].join('\n'),
  examples: [
    'crmctl restore backups/acme --profile new-account --dry-run',
    'crmctl restore backups/acme --profile new-account --default-user admin@new.example',
    'crmctl restore backups/acme --profile new-account --map-user ann@old.example=ann@new.example --resume',
  ],
  args: [{ name: 'dir', description: 'the backup directory (crmctl backup --out)', required: true }],
  flags: {
    dryRun: flag.bool({ description: 'print the plan (records per kind, cost, days of the daily budget); send nothing' }),
    mapUser: flag.list({ value: 'old=new', description: 'map a user of the backup to one of this account by e-mail (repeatable)' }),
    defaultUser: flag.string({ value: 'email', description: 'the user of this account that stands for every other user of the backup it lacks' }),
    resume: flag.bool({ description: 'continue a stopped restore from its journal (DIR/restore/<account>/journal)' }),
    newRun: flag.bool({ description: NEW_RUN_FLAG }),
  },
  async run(ctx, { args, flags }) {
    const dir = args[0];
    if (!dir) throw new UsageError('restore: give the backup directory (DIR)', 'Example: crmctl restore backups/acme --dry-run');
    const mapUser = userPairs(flags.mapUser);
    if (flags.defaultUser !== undefined && !/^[^=\s]+@[^=\s]+$/.test(flags.defaultUser)) throw new UsageError(`--default-user ${flags.defaultUser}: must be an e-mail of one of this account's users`);
    const { runRestore } = await import('../../backup/restore.js');
    const report = await runRestore(ctx, { dir, resume: flags.resume, newRun: flags.newRun, dryRun: flags.dryRun, mapUser, defaultUser: flags.defaultUser, apply: applyConfig });
    if (!report) return;
    const { restoreSummary } = await import('../../backup/restore-summary.js');
    const { renderDocument } = await import('../../output/report.js');
    await renderDocument(ctx, { text: restoreSummary(report).join('\n'), json: report as unknown as Record<string, unknown>, columns: ['backup', 'target'] });
  },
});

export const area: AreaModule = { commands: [restore] };
