import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { NEW_RUN_FLAG } from '../../runs/policy-text.js';

/** `crmctl dedupe`: the plan of merging duplicates, then the merges as a run (`crmctl undo` re-creates the merged records: the plan says how). */
const dedupe = defineCommand({
  path: ['dedupe'],
  summary: 'Group duplicate persons or organizations, show the merge plan, then merge each group into the record you pick or a rule keeps',
  description: [
    'Reads every person (or organization) once, groups duplicates as crmctl audit does (the same e-mail or phone, a name nearly the same; for organizations the same name without its legal form, or the same website; thresholds from the audit settings) and shows each group side by side: the fields whose values differ, the record a rule keeps (--keep oldest: the first added; most-complete: the most fields filled) and the merges that would run, PUT /v1/persons/{id}/merge (cost 40 each; the service keeps merge_with_id).',
    'Without --keep on a terminal, each group is shown side by side and you pick the record kept (the most complete is the default) or skip the group; off a terminal --keep is required (without it: exit 2, nothing read). --dry-run prints the plan and changes nothing (--json: the plan as one document; without --keep it keeps the oldest). Without it the plan is printed on stderr, a terminal asks (elsewhere --yes is required: without it the command stops with exit 2 and reads nothing), then each merge is sent as a run: its journal (--state, default ./<kind>.dedupe-state.ndjson) records every merge before it goes out, --resume continues a stopped run (a merge whose answer was lost is settled by reading the merged record, never sent twice). The service has no un-merge, so before each merge the run keeps the merged record, the kept record\'s fields the merge changes, the ids of its deals, activities, notes and leads (an organization\'s persons too), the deals it takes part in and both records\' followers, read just before (counted in the plan\'s cost, at least: leads have no count): crmctl undo RUN re-creates each merged record (a new id), moves those links, participations and followers back and sets the kept record\'s fields back; files stay with the kept record (the plan says how many). Guide: docs/health.md.',
  ].join('\n\n'),
  examples: [
    'crmctl dedupe persons --dry-run',
    'crmctl dedupe organizations --dry-run --keep most-complete',
    'crmctl dedupe persons --dry-run --json --region EE',
    'crmctl dedupe persons --keep most-complete --yes',
  ],
  args: [{ name: 'kind', description: 'persons or organizations', required: true, complete: { words: ['persons', 'organizations'] } }],
  flags: {
    dryRun: flag.bool({ description: 'show the plan and change nothing' }),
    keep: flag.enum(['oldest', 'most-complete'], { value: 'rule', description: 'which record of a group is kept (needed off a terminal; on one, without it, you pick per group; --dry-run without it: oldest)' }),
    similarity: flag.string({ value: 'n', description: 'how alike two names must be, 0.5 to 1 (default: the audit settings\' name_similarity, 0.88)' }),
    config: flag.string({ value: 'file', description: 'audit settings whose duplicate checks say what matches (default: .crmctl/audit.yaml when it exists)' }),
    region: flag.string({ value: 'CC', description: 'country of phone numbers written without a country code, e.g. EE' }),
    state: flag.string({ value: 'file', description: 'journal of the run, for --resume (default ./<kind>.dedupe-state.ndjson)' }),
    resume: flag.bool({ description: 'continue a stopped dedupe run from its journal (records already merged are not merged again)' }),
    newRun: flag.bool({ description: NEW_RUN_FLAG }),
  },
  async run(ctx, { args, flags }) {
    const kind = args[0];
    if (kind !== 'persons' && kind !== 'organizations') throw new UsageError(`<kind>: must be persons or organizations (got ${JSON.stringify(kind)})`);
    // Off a terminal nobody can pick the survivors or confirm: the rule is --keep and the confirmation --yes;
    // without them, stop before anything is read or merged, naming what is missing.
    if (!flags.dryRun && !ctx.canPrompt) {
      if (flags.keep === undefined) {
        const yes = ctx.globals.yes ? '' : ', and --yes to confirm the merges';
        throw new UsageError(`missing --keep: which record of each group is kept is asked only on a terminal; pass --keep oldest or --keep most-complete${yes} (no prompt: not a terminal, CI or --no-input)`);
      }
      await ctx.confirm(`dedupe ${kind} merges duplicates (--dry-run shows the plan; crmctl undo re-creates the merged records with new ids).`);
    }
    const { runDedupe } = await import('./run.js');
    await runDedupe(ctx, kind, flags);
  },
});

export const area: AreaModule = { commands: [dedupe] };
