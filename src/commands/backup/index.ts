import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { NEW_RUN_FLAG, RUN_POLICY_HELP } from '../../runs/policy-text.js';
import { pullConfig } from './config-steps.js';

/** `crmctl backup --out DIR`: the whole account into a directory restore, diff and sandbox --from read. */
const backup = defineCommand({
  path: ['backup'],
  summary: 'Write the whole account into a directory: configuration, every record kind, files (resumable)',
  description: [
    'DIR gets config/ (exactly what crmctl pull writes), fields/ (each item type\'s field catalog, so custom fields and',
    'options read by name elsewhere), records/<kind>.ndjson (one record per line as the service returned it: organizations,',
    'persons, products and their variations, deals and archived deals with their products, discounts, installments,',
    'participants and followers, leads and archived leads, projects and archived projects, tasks, activities, notes and',
    'their comments, files, call logs, followers of persons and organizations; users, pipelines, stages, labels, boards',
    'and phases for their ids), files/<id> (each file\'s bytes), and manifest.json last: counts, sha256 of every file, the',
    'account and the service\'s time. The format: docs/migrations.md ("What backup writes").',
    'Memory stays flat (one page at a time, files streamed to disk). Before the rest, it reads the deals\' count',
    '(GET /api/v1/deals/summary) and the first page of every list, and prints the estimated cost against what is left',
    'of the daily budget. A spent budget stops it (exit 6) with its journal kept: --resume continues after the reset.',
    'v1 is used where no v2 list exists: leads, notes and comments, files, call logs, deal participants, users.',
    'Child lists served per record cost one read each; counts on the lists say which records have any (--thorough:',
    'followers of every record that has one, discounts of every deal).',
    ...RUN_POLICY_HELP,
  ].join('\n'),
  examples: [
    'crmctl backup --out backups/2026-11-27',
    'crmctl backup --out backups/2026-11-27 --resume',
    'crmctl backup --out acct --skip call-logs,note-comments --no-file-bytes',
    'crmctl backup --profile prod --out prod-copy && crmctl diff prod-copy --profile prod',
  ],
  flags: {
    out: flag.string({ value: 'dir', description: 'the directory to write (new or empty; the journal lives in <dir>/.run)' }),
    resume: flag.bool({ description: 'continue a stopped backup from its journal' }),
    newRun: flag.bool({ description: NEW_RUN_FLAG }),
    skip: flag.csv({ value: 'kinds', description: 'leave these record kinds out (a list\'s children go with it), e.g. call-logs,note-comments' }),
    fileBytes: flag.negated({ description: 'keep files\' metadata only, not their bytes (each download costs 20)' }),
    thorough: flag.bool({ description: 'read followers of every record that has any, and discounts of every deal (one read each)' }),
  },
  async run(ctx, { flags }) {
    if (!flags.out) throw new UsageError('--out: is required (the directory to write the backup into)', 'Example: crmctl backup --out backups/today');
    const { runBackup } = await import('../../backup/run.js');
    const manifest = await runBackup(ctx, { out: flags.out, resume: flags.resume, newRun: flags.newRun, skip: flags.skip ?? [], fileBytes: flags.fileBytes, thorough: flags.thorough, pull: pullConfig });
    const { summaryLines } = await import('../../backup/summary.js');
    const { renderDocument } = await import('../../output/report.js');
    await renderDocument(ctx, { text: summaryLines(flags.out, manifest).join('\n'), json: manifest as unknown as Record<string, unknown>, columns: ['format', 'started_at', 'finished_at'] });
  },
});

export const area: AreaModule = { commands: [backup] };
