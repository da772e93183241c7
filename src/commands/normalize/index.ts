import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError, ValidationError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';

/** `crmctl normalize persons`: what phone numbers and e-mails would become (read-only for now). */
const normalize = defineCommand({
  path: ['normalize'],
  summary: 'Show persons\' phones in E.164 and e-mails in lower case, before → after (--dry-run; writes come later)',
  description: [
    'Reads every person once and prints each phone number and e-mail address with what it would become: --phones E164 writes a number as +<country><number> when libphonenumber reads it as a valid number (a number without a country code is read in --region; one that is not a valid number is kept, with why); --emails lower trims and lower-cases an address. One row per value: id, name, field, before, after, outcome (changed, same, kept) and a note; --changed-only leaves out the rest.',
    'Only --dry-run runs today: writing needs the undo record, which is not yet available, so without --dry-run the command stops with exit 2 and reads nothing. Guide: docs/health.md.',
  ].join('\n\n'),
  examples: [
    'crmctl normalize persons --phones E164 --emails lower --dry-run',
    'crmctl normalize persons --phones E164 --region EE --dry-run --changed-only',
    'crmctl normalize persons --emails lower --dry-run --json',
  ],
  args: [{ name: 'kind', description: 'persons (the kind with phone numbers and e-mails)', required: true, complete: { words: ['persons'] } }],
  flags: {
    phones: flag.enum(['E164'], { value: 'form', description: 'phone numbers in E.164 (+37255501037)' }),
    emails: flag.enum(['lower'], { value: 'form', description: 'e-mail addresses trimmed and in lower case' }),
    region: flag.string({ value: 'CC', description: 'country of numbers written without a country code, e.g. EE (without it they are kept)' }),
    dryRun: flag.bool({ description: 'show before → after and change nothing (required for now: writing needs the undo record)' }),
    changedOnly: flag.bool({ description: 'only the values that would change' }),
  },
  async run(ctx, { args, flags }) {
    if (args[0] !== 'persons') throw new UsageError(`<kind>: must be persons (got ${JSON.stringify(args[0])})`);
    if (!flags.phones && !flags.emails) throw new ValidationError([{ field: '--phones, --emails', rule: 'give at least one: --phones E164 and/or --emails lower' }]);
    const region = flags.region === undefined ? undefined : (await import('../../health/region.js')).parseRegion(flags.region, '--region');
    if (!flags.dryRun) throw new UsageError('writing needs the undo record; not yet available', 'Run with --dry-run to see every value before → after (nothing is changed).');
    const { runNormalize } = await import('./run.js');
    await runNormalize(ctx, { phones: flags.phones, emails: flags.emails, region, changedOnly: flags.changedOnly });
  },
});

export const area: AreaModule = { commands: [normalize] };
