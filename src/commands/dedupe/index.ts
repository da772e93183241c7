import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';

/** `crmctl dedupe`: the plan of merging duplicates (read-only for now; the merges come with their undo record). */
const dedupe = defineCommand({
  path: ['dedupe'],
  summary: 'Group duplicate persons or organizations and show the merge plan (--dry-run; merging comes later)',
  description: [
    'Reads every person (or organization) once, groups duplicates as crmctl audit does (the same e-mail or phone, a name nearly the same; for organizations the same name without its legal form, or the same website; thresholds from the audit settings) and shows each group side by side: the fields whose values differ, the record a rule keeps (--keep oldest: the first added; most-complete: the most fields filled) and the merges that would run, PUT /v1/persons/{id}/merge (cost 40 each; the service keeps merge_with_id).',
    'Only --dry-run runs today: merging needs the undo record, which is not yet available, so without --dry-run the command stops with exit 2 and reads nothing. --json prints the plan as one document. Guide: docs/health.md.',
  ].join('\n\n'),
  examples: [
    'crmctl dedupe persons --dry-run',
    'crmctl dedupe organizations --dry-run --keep most-complete',
    'crmctl dedupe persons --dry-run --json --region EE',
  ],
  args: [{ name: 'kind', description: 'persons or organizations', required: true, complete: { words: ['persons', 'organizations'] } }],
  flags: {
    dryRun: flag.bool({ description: 'show the plan and change nothing (required for now: merging needs the undo record)' }),
    keep: flag.enum(['oldest', 'most-complete'], { value: 'rule', default: 'oldest', description: 'which record of a group is kept' }),
    similarity: flag.string({ value: 'n', description: 'how alike two names must be, 0.5 to 1 (default: the audit settings\' name_similarity, 0.88)' }),
    config: flag.string({ value: 'file', description: 'audit settings whose duplicate checks say what matches (default: .crmctl/audit.yaml when it exists)' }),
    region: flag.string({ value: 'CC', description: 'country of phone numbers written without a country code, e.g. EE' }),
  },
  async run(ctx, { args, flags }) {
    const kind = args[0];
    if (kind !== 'persons' && kind !== 'organizations') throw new UsageError(`<kind>: must be persons or organizations (got ${JSON.stringify(kind)})`);
    if (!flags.dryRun) {
      throw new UsageError('merging needs the undo record; not yet available', `Run with --dry-run to see the plan (nothing is changed); merge one pair by hand with crmctl ${kind} merge <id> --merge-with-id <keep> --yes.`);
    }
    const { runDedupe } = await import('./run.js');
    await runDedupe(ctx, kind, flags);
  },
});

export const area: AreaModule = { commands: [dedupe] };
