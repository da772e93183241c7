import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { NEW_RUN_FLAG, RUN_POLICY_HELP } from '../../runs/policy-text.js';

const importCommand = defineCommand({
  path: ['import'],
  summary: 'Create records from an ndjson, json or csv file: validated, paced, resumable',
  description: [
    'Every row is checked with the create command\'s rules before anything is sent; bad rows are listed',
    'by line (exit 2), or left out with --skip-invalid. Rows are sent with bounded concurrency, paced to',
    'the account\'s cost budget. A journal (<file>.import-state.json) records each row before and after',
    'it is sent (with the body as sent), so --resume after Ctrl-C, SIGTERM, a crash or kill -9 creates no duplicate:',
    'rows whose answer was lost are looked up first with what was sent (leads: origin_id marker; labels, roles,',
    'activity types: name; other kinds: content, linked names as the ids they resolved to).',
    'CSV headers: field names (value.amount or value_amount), common aliases, and custom field names',
    '(leads: "Budget" → its deal-field key). Linked records by name: "Organization", "Person", "Owner" (name',
    'or email) columns take a name, looked up once; rows whose name matches no record or several are listed.',
    'Results per row: <file>.results.ndjson. Exit 7 when rows failed.',
    'With --upsert --match-on FIELD (persons, organizations, deals, products) a row updates the record it matches',
    '(only the fields that differ; the list is read once) or creates one; results say created/updated/unchanged.',
    ...RUN_POLICY_HELP,
    'Resources: run `crmctl import --list`.',
  ].join('\n'),
  examples: [
    'crmctl import leads --file leads.csv --dry-run',
    'crmctl import leads --file leads.ndjson --concurrency 8',
    'crmctl import leads --file leads.ndjson --resume',
    'crmctl import lead-labels --file labels.json --skip-invalid --results labels.results.ndjson',
    'crmctl import deals --file deals.csv   # columns title,value,currency,organization,person,owner,stage_id',
    'crmctl import persons --file people.csv --upsert --match-on email   # create or update by email; run again: nothing sent',
  ],
  args: [{ name: 'resource', description: 'what to create (see --list)', required: false }],
  flags: {
    file: flag.string({ value: 'file', description: 'input rows (.ndjson/.jsonl, .json array, .csv)' }),
    format: flag.enum(['ndjson', 'json', 'csv'], { value: 'format', description: 'input format when the extension does not tell' }),
    skipInvalid: flag.bool({ description: 'import the valid rows and list the invalid ones in the results file' }),
    concurrency: flag.int({ min: 1, max: 64, description: 'requests in flight (default 4; 1 for resources without a safe lookup)' }),
    state: flag.string({ value: 'file', description: 'journal for --resume (default <file>.import-state.json)' }),
    results: flag.string({ value: 'file', description: 'per-row results, ndjson {line, id} or {line, error} (default <file>.results.ndjson)' }),
    resume: flag.bool({ description: 'continue an interrupted import from its journal' }),
    newRun: flag.bool({ description: NEW_RUN_FLAG }),
    dryRun: flag.bool({ description: 'check every row and print the plan (rows, cost, time at the current budget); sends no write' }),
    list: flag.bool({ description: 'list the resources that can be imported' }),
    upsert: flag.bool({ description: 'persons, organizations, deals, products: update the record a row matches (only what differs) instead of creating one; see docs/upsert.md' }),
    matchOn: flag.string({ value: 'field', description: 'with --upsert: what identifies a record (email, name, code, or a custom field by name)' }),
  },
  async run(ctx, { args, flags }) {
    const { importResources, findImportResource } = await import('../../automation/resources.js');
    if (flags.list) {
      const { reconcilerFor } = await import('../../automation/reconcile.js');
      const { renderRecords } = await import('../../output/render.js');
      const rows = importResources().map((r) => ({ resource: r.name, operation: `${r.op.method} ${r.op.path}`, cost: r.op.cost, reconcile: reconcilerFor(r.name).kind }));
      await renderRecords(ctx, rows, { columns: ['resource', 'operation', 'cost', 'reconcile'] });
      return;
    }
    const name = args[0];
    if (!name) throw new UsageError('missing argument <resource>', 'See `crmctl import --list` for what can be imported.');
    const resource = findImportResource(name);
    if (!resource) throw new UsageError(`unknown resource "${name}"`, `Importable: ${importResources().map((r) => r.name).join(', ')}`);
    if (flags.matchOn !== undefined && !flags.upsert) throw new UsageError('--match-on: only with --upsert');
    const file = flags.file;
    if (!file) throw new UsageError('--file: is required (the rows to import)', `Example: crmctl import ${resource.name} --file ${resource.name}.ndjson`);
    const concurrency = flags.concurrency ?? 4;
    const { formatOf } = await import('../../automation/rows.js');
    const { runImport, defaultResultsPath, defaultStatePath } = await import('../../automation/import.js');
    await runImport(ctx, {
      resource,
      file,
      format: formatOf(file, flags.format),
      skipInvalid: flags.skipInvalid,
      concurrency,
      statePath: flags.state ?? defaultStatePath(file),
      resultsPath: flags.results ?? defaultResultsPath(file),
      resume: flags.resume,
      newRun: flags.newRun,
      dryRun: flags.dryRun,
      ...(flags.upsert ? { upsert: { matchOn: flags.matchOn } } : {}),
    });
  },
});

export const area: AreaModule = { commands: [importCommand] };
