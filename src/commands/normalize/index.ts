import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { NEW_RUN_FLAG } from '../../runs/policy-text.js';

/** `crmctl normalize persons`: phone numbers and e-mails before → after, then written as a run `undo` takes back. */
const normalize = defineCommand({
  path: ['normalize'],
  summary: 'Write persons\' phones in E.164 and e-mails in lower case, before → after first; a run undo takes back',
  description: [
    'Reads every person once and works out each phone number and e-mail address with what it becomes: --phones E164 writes a number as +<country><number> when libphonenumber reads it as a valid number (a number without a country code is read in --region; one that is not a valid number is kept, with why); --emails lower trims and lower-cases an address.',
    '--dry-run prints one row per value: id, name, field, before, after, outcome (changed, same, kept) and a note; --changed-only leaves out the rest. Nothing is written.',
    'Without --dry-run the changed values are listed on stderr, a terminal asks (elsewhere --yes is required: without it the command stops with exit 2 and writes nothing), then each person whose values change is one update (PATCH /api/v2/persons/{id}, cost 5) of its whole phones/emails lists (labels and primary kept). The writes are a run: its journal (--state, default ./persons.normalize-state.ndjson) keeps the values each update replaced, so crmctl undo RUN (or undo --last) sets them back, and --resume continues a run that was stopped (a write whose answer was lost is read back, never sent twice). Guide: docs/health.md.',
  ].join('\n\n'),
  examples: [
    'crmctl normalize persons --phones E164 --emails lower --dry-run',
    'crmctl normalize persons --phones E164 --region EE --dry-run --changed-only',
    'crmctl normalize persons --phones E164 --emails lower --region EE --yes',
    'crmctl normalize persons --phones E164 --emails lower --region EE --yes --resume',
  ],
  args: [{ name: 'kind', description: 'persons (the kind with phone numbers and e-mails)', required: true, complete: { words: ['persons'] } }],
  flags: {
    phones: flag.enum(['E164'], { value: 'form', description: 'phone numbers in E.164 (+37255501037)' }),
    emails: flag.enum(['lower'], { value: 'form', description: 'e-mail addresses trimmed and in lower case' }),
    region: flag.string({ value: 'CC', description: 'country of numbers written without a country code, e.g. EE (without it they are kept)' }),
    dryRun: flag.bool({ description: 'show before → after and change nothing' }),
    changedOnly: flag.bool({ description: 'with --dry-run: only the values that would change' }),
    state: flag.string({ value: 'file', description: 'journal of the run, for --resume and undo (default ./persons.normalize-state.ndjson)' }),
    resume: flag.bool({ description: 'continue a stopped normalize run from its journal (persons already written are not written again)' }),
    newRun: flag.bool({ description: NEW_RUN_FLAG }),
  },
  async run(ctx, { args, flags }) {
    if (args[0] !== 'persons') throw new UsageError(`<kind>: must be persons (got ${JSON.stringify(args[0])})`);
    if (!flags.phones && !flags.emails) throw new ValidationError([{ field: '--phones, --emails', rule: 'give at least one: --phones E164 and/or --emails lower' }]);
    const region = flags.region === undefined ? undefined : (await import('../../health/region.js')).parseRegion(flags.region, '--region');
    const o = { phones: flags.phones, emails: flags.emails, region };
    if (flags.dryRun) {
      const { runNormalize } = await import('./run.js');
      await runNormalize(ctx, { ...o, changedOnly: flags.changedOnly });
      return;
    }
    // Off a terminal the confirmation is --yes: without it, stop before anything is read or written.
    if (!ctx.canPrompt) await ctx.confirm('normalize persons writes to the account (one update per person whose values change).');
    const { runNormalizeWrite } = await import('../../health/normalize-write.js');
    await runNormalizeWrite(ctx, o, { state: flags.state ?? 'persons.normalize-state.ndjson', resume: flags.resume, newRun: flags.newRun });
  },
});

export const area: AreaModule = { commands: [normalize] };
