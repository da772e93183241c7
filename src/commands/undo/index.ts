import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { NEW_RUN_FLAG } from '../../runs/policy-text.js';

/** `crmctl undo`: takes back what a run (import, bulk update, restore, undo, a single write) wrote, from its journal alone. */
const undo = defineCommand({
  path: ['undo'],
  summary: 'Take back what a run wrote (an import, a bulk update, a single write, an undo): plan, confirm, conflicts left alone, resumable',
  description: [
    'Derived from the run\'s journal alone (crmctl runs show ID lists it): records the run created are deleted, fields it changed are set back to the values it replaced, records it deleted are created again from the content the journal kept (with new ids).',
    'The plan (counts per action and the cost) is printed on stderr first; a terminal asks, elsewhere --yes is needed; --dry-run prints the plan and sends nothing.',
    'Each record is read just before its write: one whose values are no longer those the run wrote (someone changed it since) is a conflict, left alone and listed (field, value the run wrote, value now) unless --force; exit 7 when any is left.',
    'The undo is a run of its own (crmctl runs list shows it): Ctrl-C, SIGTERM or kill -9, then the same command with --resume, writes nothing twice (a write cut off is settled by reading the record). Undoing an undo redoes.',
    'A single write is a run too (crmctl deals update 5 …, persons delete 3, an MCP tool call): its journal keeps what the write replaced, read just before it, so its undo sets the fields back, creates the deleted record again or deletes the created one.',
    'Only runs of the account the credentials act on can be undone (exit 2 naming both accounts otherwise). A dedupe run\'s merges are taken back by re-creating each merged record (a new id) and moving its deals, activities and notes back; a merge made elsewhere, an apply (crmctl destroy takes it back) and what other tools changed cannot be undone. See docs/undo.md.',
  ].join('\n\n'),
  examples: ['crmctl undo --last --dry-run', 'crmctl undo 3f2a9c81b7d0 --yes', 'crmctl undo 3f2a9c81b7d0 --yes --resume'],
  args: [{ name: 'id', description: 'the run to undo (crmctl runs list)', required: false }],
  flags: {
    last: flag.bool({ description: 'undo the newest run of this account that wrote something' }),
    dryRun: flag.bool({ description: 'print the plan (counts per action, cost) and send nothing' }),
    force: flag.bool({ description: 'write over records changed since the run (conflicts) too' }),
    concurrency: flag.int({ min: 1, max: 16, description: 'writes in flight (default 4)' }),
    resume: flag.bool({ description: 'continue an undo that was stopped or killed (what it did is not done again)' }),
    newRun: flag.bool({ description: NEW_RUN_FLAG }),
  },
  async run(ctx, { args, flags }) {
    const { runUndo } = await import('../../automation/undo.js');
    await runUndo(ctx, { id: args[0], ...flags });
  },
});

export const area: AreaModule = { commands: [undo] };
