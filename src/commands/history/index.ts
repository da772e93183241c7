import { dealOps } from '../../api/operations/deals.js';
import { organizationOps } from '../../api/operations/organizations.js';
import { personOps } from '../../api/operations/persons.js';
import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { HISTORY_FIELDS, HISTORY_KINDS } from './views.js';

/** `crmctl history <kind> <id>`: the service's change log of one record, crmctl's own writes marked. */
const history = defineCommand({
  path: ['history'],
  summary: 'What changed on a deal, person or organization, and which changes crmctl made (run, door)',
  description: [
    'Reads the record\'s field changelog from the service (GET /api/v1/{kind}/{id}/changelog, every page: a v1 read, the vendor has no v2 form; 20 tokens a page of 500) and merges it with the runs crmctl made on this account (imports, bulk updates, restores, undos, normalize, dedupe, and every other kind of run). One line per change, oldest first: time, field, old value, new value, the user the service names, and who made it.',
    'A change is crmctl\'s when a run of this account wrote the same field of the same record to the same value while it ran (its start to its end, two minutes either side for the clocks): "crmctl bulk update (run 3f2a9c81b7d0)". Anything else says "others" and the service\'s source (app, mobile, api): people, or tools other than crmctl. A record a run created or deleted gets a line of its own ("(created)", "(deleted)"); the changelog logs only field changes. --with-flow adds the flow\'s other events (a note, an activity, a file, a follower, a mail) as lines of their own, crmctl\'s when a run of this account created that record.',
    `Kinds: ${HISTORY_KINDS.join(', ')}. Output: a table on a terminal, TSV in a pipe, --json or --output ndjson for scripts. The cost is said on stderr before the read.`,
  ].join('\n\n'),
  examples: ['crmctl history deals 42', 'crmctl history persons 7 --json', 'crmctl history organizations 3 --with-flow --output ndjson'],
  args: [
    { name: 'kind', description: HISTORY_KINDS.join(' | '), required: true },
    { name: 'id', description: 'the record\'s id', required: true },
  ],
  operations: [dealOps.changelog, personOps.changelog, organizationOps.changelog, dealOps.flow, personOps.flow, organizationOps.flow],
  fields: HISTORY_FIELDS,
  flags: {
    withFlow: flag.bool({ description: 'also read the record\'s flow (GET /api/v1/{kind}/{id}/flow, 40 tokens a page) for what else happened on it: notes, activities, files, followers, mail; one a line, "(note)" as its field' }),
  },
  async run(ctx, { args, flags }) {
    const { runHistory } = await import('./run.js');
    await runHistory(ctx, args[0]!, args[1]!, flags);
  },
});

export const area: AreaModule = { commands: [history] };
