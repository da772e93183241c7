import type { Operation } from '../../api/operation.js';
import type { CommandSpec, OptionSpec } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { operationFields } from '../../input/operation-input.js';
import { NEW_RUN_FLAG, RUN_POLICY_HELP } from '../../runs/policy-text.js';

/** The operations one area's bulk update reads and writes. */
export interface BulkTable {
  list: Operation;
  get: Operation;
  update: Operation;
}

/**
 * List query members that select nothing (paging, order, what a record includes) or that bulk-update
 * declares itself (`--ids`, `--filter-id`): the rest of the list's query are selection flags.
 */
const NOT_FILTERS = new Set(['ids', 'filter_id', 'limit', 'start', 'cursor', 'sort', 'sort_by', 'sort_direction', 'include_fields', 'custom_fields', 'include_option_labels', 'include_labels']);

/** The list's filters as bulk-update offers them: the list row's own query fields, read back by `selectionFilters`. */
export function filterFields(list: Operation) {
  return operationFields(list).fields.filter((f) => f.location === 'query' && !NOT_FILTERS.has(f.key));
}

function filterOptions(list: Operation): OptionSpec[] {
  return filterFields(list).map((f) => ({
    flags: `--${f.flag} ${f.kind === 'boolean' ? '[bool]' : '<value>'}`,
    description: `select by ${f.key.replace(/_/g, ' ')}${f.description ? `: ${f.description}` : ''}`,
    choices: f.kind === 'enum' ? f.choices : undefined,
  }));
}

/**
 * `crmctl <area> bulk-update`: one implementation for every area that has a list, a get and an update.
 * The module stays light (the area's index loads it for every command of the area); the work is in
 * src/automation/bulk-update*.ts, loaded when the command runs.
 */
export function bulkUpdateCommand(area: string, noun: string, ops: BulkTable, sampleIds = '1,2,3'): CommandSpec {
  const { list, get, update } = ops;
  const custom = update.cli.customFields ? '"Segment=Enterprise"' : 'owner_id=7';
  const spec = defineCommand({
    path: [area, 'bulk-update'],
    summary: `Change many ${area} at once: select by ids, a saved filter, conditions by name or list filters; plan, confirm, paced, resumable`,
    description: [
      `Selects ${area} by --ids (a list, or - for ids on stdin), --filter-id (a saved filter), --where conditions`,
      `by field name (through a temporary saved filter, deleted before the plan) or the list's filters (exactly one of these),`,
      `and sets the fields given by --field NAME=VALUE (a field key such as owner_id, or a custom`,
      `field by name) and --data, and prints the plan on stderr first: how many records, which fields change from`,
      `what to what, records already at the value (left alone), and the cost. A terminal asks; elsewhere --yes is`,
      `needed. --dry-run prints the plan and writes nothing (so it cannot go with --where, which writes a filter). Each record is one ${update.method} ${update.path} (the`,
      `service has no bulk update for ${area}), paced to the cost budget and journaled, so --resume after Ctrl-C or`,
      `kill -9 changes no record twice: an answer lost after sending is settled by reading the record back.`,
      `Results per record (id, status updated/unchanged/failed, error) go to the results file; exit 7 when some failed.`,
      'The journal is kept when the run finishes: it holds each record\'s values before the update.',
      ...RUN_POLICY_HELP,
      'See docs/bulk.md.',
    ].join('\n'),
    examples: [
      `crmctl ${area} bulk-update --ids ${sampleIds} --field owner_id=7 --dry-run`,
      `crmctl ${area} bulk-update --filter-id 12 --field ${custom} --yes`,
      ...(['deals', 'persons', 'organizations', 'products'].includes(area) ? [`crmctl ${area} bulk-update --where "Owner = Ada Admin" --field owner_id=7`] : []),
      `crmctl ${area} list --owner-id 5 --all --output ndjson | crmctl ${area} bulk-update --ids - --field owner_id=7 --yes`,
      `crmctl ${area} bulk-update --ids ${sampleIds} --field owner_id=7 --yes --resume`,
    ],
    operations: [list, get, update],
    flags: {
      ids: flag.string({ value: 'ids', description: `${noun} ids, comma-separated, or - to read them from stdin (one a line, a JSON array, or NDJSON records with id)` }),
      filterId: flag.int({ min: 1, description: 'select the records of this saved filter (crmctl filters list)' }),
      where: flag.list({ value: 'condition', description: 'select by a condition NAME OP VALUE, all of which must hold (repeatable), as filters create --where takes it ("Budget > 1000", "Stage = Qualified"); evaluated by the service through a temporary saved filter, created and deleted before the plan (not for leads)' }),
      field: flag.list({ value: 'NAME=VALUE', description: `a field to set: a key of ${update.method} ${update.path} (owner_id=7) or a custom field by name ("Segment=Enterprise"); an empty value clears it; repeat for more` }),
      data: flag.string({ value: 'json', description: 'fields to set as JSON, @file; --field values override its keys' }),
      dryRun: flag.bool({ description: 'print the plan (records, changes, cost) and write nothing (not with --where)' }),
      concurrency: flag.int({ min: 1, max: 16, description: 'updates in flight (default 4)' }),
      state: flag.string({ value: 'file', description: `journal for --resume (default ./${area}.bulk-update-state.ndjson)` }),
      results: flag.string({ value: 'file', description: `results per record, ndjson {id, status, error} (default beside the journal: ${area}.bulk-update.results.ndjson)` }),
      resume: flag.bool({ description: 'continue an interrupted bulk update from its journal (the records it selected, the changes it made)' }),
      newRun: flag.bool({ description: NEW_RUN_FLAG }),
    },
    async run(ctx, { flags, tableOpts }) {
      const { runBulkUpdate } = await import('../../automation/bulk-update.js');
      await runBulkUpdate(ctx, { area, noun, list, get, update, filters: filterFields(list), flags, tableOpts });
    },
  });
  // The filters come from the list row's schemas: worked out only when this command is wired or documented.
  const own = spec.options ?? [];
  let options: OptionSpec[] | undefined;
  return Object.defineProperty(spec, 'options', { get: () => (options ??= [...filterOptions(list), ...own]), enumerable: true });
}
