import { recentOps } from '../../api/operations/recents.js';
import { userOps } from '../../api/operations/users.js';
import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';

const changesCommand = defineCommand({
  path: ['changes'],
  summary: 'What was added, updated or deleted since a time or the last run (NDJSON feed)',
  description: [
    'One line per change: {type, action (added|updated|deleted), id, time, record}, oldest first,',
    'read from the service\'s change list (recents). Without --since, the feed continues from the',
    'last run\'s watermark (per account, i.e. API address, company and user, and per set of --types, in the',
    'config directory); the watermark moves only after every line was written and flushed, and never with --peek.',
    'Times are the service\'s: --since 24h counts back from its clock (its Date header), not this machine\'s.',
    'The first run needs --since. See docs/changes.md for how actions and the watermark are decided.',
  ].join('\n'),
  examples: [
    'crmctl changes --since 24h',
    'crmctl changes --types deals,persons',
    'crmctl changes --peek --output table',
    'crmctl changes --since 2026-11-01T00:00:00Z --out changes.ndjson',
    'crmctl changes --reset --types deals',
  ],
  operations: [userOps.me, recentOps.list],
  flags: {
    since: flag.string({ value: 'time', description: 'start here instead of the watermark: RFC 3339 (2026-11-24T06:00:00Z) or back from the service\'s now (90m, 24h, 7d)' }),
    types: flag.csv({ value: 'kinds', description: 'deals, persons, organizations, activities, products (default: all five)' }),
    peek: flag.bool({ description: 'print the changes but leave the watermark where it is' }),
    reset: flag.bool({ description: 'forget the watermark of this account and these --types (then run only with --since)' }),
    out: flag.string({ value: 'file', description: 'write the NDJSON here (fsynced before the watermark moves) instead of stdout' }),
    pageSize: flag.int({ min: 1, max: 500, description: 'changes per request (default 500, the most the service gives)' }),
  },
  async run(ctx, { flags }) {
    const { runChanges } = await import('../../automation/changes-run.js');
    await runChanges(ctx, flags);
  },
});

export const area: AreaModule = { commands: [changesCommand] };
