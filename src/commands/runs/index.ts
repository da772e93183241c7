import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { LIST_FIELDS, SHOW_FIELDS } from './views.js';

/** `crmctl runs list`: the runs of this config dir (imports, exports, bulk updates, undos, single writes), newest first. */
const list = defineCommand({
  path: ['runs', 'list'],
  summary: 'The runs crmctl made (imports, bulk updates, undos, every single write): when, who, what, records written, cost, status',
  description: [
    'Every import, export, bulk update and undo is a run with a journal tied to its account (API origin, company, user), and so is every single write: a command that writes (kind command), an upsert, an MCP tool call (kind mcp). Lists the runs of the account the credentials act on, newest first: when it started, its kind, who or what ran it (terminal, script, ci, or mcp with the client and the tool), its account, the command line (secrets taken out), the records it wrote, the cost units it spent and its status (running also for a run killed without a chance to say so; stopped: --resume continues it). See docs/undo.md for what is recorded and how long it is kept.',
    '--all-accounts lists the runs of every account this config dir knows, each naming its account, and needs no credentials.',
  ].join('\n\n'),
  examples: ['crmctl runs list', 'crmctl runs list --all-accounts --json'],
  fields: LIST_FIELDS,
  flags: {
    allAccounts: flag.bool({ description: 'list the runs of every account, not only this one\'s' }),
  },
  async run(ctx, { flags }) {
    const { runsList } = await import('./run.js');
    await runsList(ctx, flags);
  },
});

/** `crmctl runs show ID`: one run's summary and what became of each record. */
const show = defineCommand({
  path: ['runs', 'show'],
  summary: 'One run: its summary and the outcome of every record it wrote (from its journal)',
  description: 'The run\'s record (kind, account, command line, times, status, summary) and, per item of its journal, the operation, the record, the outcome and the error. --json prints one document with the items under "items"; piped (TSV) or --output ndjson print the items only.',
  examples: ['crmctl runs show 3f2a9c81b7d0', 'crmctl runs show 3f2a9c81b7d0 --json'],
  args: [{ name: 'id', description: 'a run id (crmctl runs list)', required: true }],
  fields: SHOW_FIELDS,
  async run(ctx, { args }) {
    const { runsShow } = await import('./run.js');
    await runsShow(ctx, args[0]!);
  },
});

export const area: AreaModule = { commands: [list, show] };
