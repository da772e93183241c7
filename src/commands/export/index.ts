import type { AreaModule } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { UsageError } from '../../core/errors.js';
import { flag } from '../../core/flags.js';
import { EXPORT_FORMATS, formatFor } from '../../output/format.js';
import { NEW_RUN_FLAG, RUN_POLICY_HELP } from '../../runs/policy-text.js';

const exportCommand = defineCommand({
  path: ['export'],
  summary: 'Export every record of a resource as ndjson, json or csv (resumable)',
  description: [
    'Pages through the whole list in constant memory and writes each page as it arrives.',
    'With --out, the run\'s journal (<out>.checkpoint.json) gets an entry after every page is on disk; if the run',
    'is killed, the same command with --resume continues exactly where it stopped.',
    'Archived deals and leads are not in the plain lists (since 2025-07-15): `export deals` and `export leads` say on',
    'stderr whether they are included; --include-archived reads GET /api/v2/deals/archived (20 a page) or',
    'GET /api/v1/leads/archived (v1: the only list of archived leads; 40 a page) after the plain list.',
    ...RUN_POLICY_HELP,
    'Resources: run `crmctl export --list`. Lists that need an id or a filter take --param key=value.',
    '--since TIME exports only records updated since then (the list\'s updated_since). --incremental keeps',
    '--out FILE in step: a full export first, then only what changed, deleted records removed (docs/changes.md).',
    'A kind that imports (organizations, persons, deals, leads, ...) carries its links by name beside their ids',
    '(org_name, owner_email, stage_name as "Pipeline/Stage", label_names, ...) and its custom fields by name (CSV',
    'columns; a `fields` member in ndjson and json), so the file imports into another account; links it cannot',
    'carry by name are listed in one warning. Products carry their variations (one more read per product).',
    '--raw writes the service\'s records as they are.',
  ].join('\n'),
  examples: [
    'crmctl export leads --out leads.ndjson',
    'crmctl export leads --format csv --out leads.csv --resume',
    'crmctl export installments --param deal_ids=1,2 --format json',
    'crmctl export mailbox-threads --param folder=archive > threads.ndjson',
    'crmctl export deals --since 7d --out recent-deals.ndjson',
    'crmctl export deals --incremental --out deals.ndjson',
    'crmctl export deals --include-archived --out all-deals.ndjson',
  ],
  args: [{ name: 'resource', description: 'what to export (see --list)', required: false }],
  flags: {
    out: flag.string({ value: 'file', description: 'write here instead of stdout (needed for --resume)' }),
    format: flag.enum(EXPORT_FORMATS, { value: 'format', description: 'ndjson (default), json (one array) or csv; default from --out extension' }),
    param: flag.list({ value: 'key=value', description: 'path or query parameter of the list (repeatable), e.g. deal_ids=1,2' }),
    resume: flag.bool({ description: 'continue a killed export from <out>.checkpoint.json' }),
    newRun: flag.bool({ description: NEW_RUN_FLAG }),
    includeArchived: flag.bool({ description: 'deals, leads: also export the archived records (their own list, read after the plain one)' }),
    columns: flag.csv({ description: 'CSV columns (dotted paths allowed); default: the fields of the first page' }),
    pageSize: flag.int({ min: 1, description: 'records per request (default: the largest the list allows)' }),
    list: flag.bool({ description: 'list the resources that can be exported' }),
    since: flag.string({ value: 'time', description: 'only records updated since: RFC 3339 or back from now (24h, 7d)' }),
    incremental: flag.bool({ description: 'keep --out FILE (ndjson) in step: only what changed since the last run (<out>.state.json)' }),
    raw: flag.bool({ description: 'the service\'s records as they are: no names beside link ids, custom fields by key' }),
  },
  async run(ctx, { args, flags }) {
    const { exportResources, findExportResource } = await import('../../automation/resources.js');
    if (flags.list) {
      const { renderRecords } = await import('../../output/render.js');
      const rows = exportResources().map((r) => ({ resource: r.name, aliases: r.aliases.join(','), operation: `${r.op.method} ${r.op.path}`, cost: r.op.cost, params: r.required.join(',') }));
      await renderRecords(ctx, rows, { columns: ['resource', 'operation', 'cost', 'params', 'aliases'] });
      return;
    }
    const name = args[0];
    if (!name) throw new UsageError('missing argument <resource>', 'See `crmctl export --list` for what can be exported.');
    const resource = findExportResource(name);
    if (!resource) throw new UsageError(`unknown resource "${name}"`, `Exportable: ${exportResources().map((r) => r.name).join(', ')}`);
    const format = formatFor(ctx, 'export', { format: flags.format, out: flags.out });
    const { pageSize, columns } = flags;
    if (columns && format !== 'csv') throw new UsageError('--columns: only for --format csv');
    if (flags.incremental) {
      const { runIncremental } = await import('./incremental.js');
      return runIncremental(ctx, resource, format, flags);
    }
    const { listInput } = await import('../../automation/params.js');
    const resumed = flags.resume ? flags.out : undefined;
    const sinceParam = flags.since === undefined ? [] : [(await import('../../automation/incremental-export.js')).sinceParam(resource, flags.since, resumed)];
    const { params, query } = await listInput(ctx, resource.op, resource.name, [...flags.param, ...sinceParam]);
    const { runExport } = await import('../../automation/export.js');
    await runExport(ctx, { resource, params, query, format, out: flags.out, resume: flags.resume, newRun: flags.newRun, includeArchived: flags.includeArchived, columns, pageSize, raw: flags.raw });
  },
});

export const area: AreaModule = { commands: [exportCommand] };
