import type { AreaModule, CommandSpec } from '../../core/command.js';
import { UsageError } from '../../core/errors.js';
import { EXPORT_FORMATS, formatFor } from '../../output/format.js';

const exportCommand: CommandSpec = {
  path: ['export'],
  summary: 'Export every record of a resource as ndjson, json or csv (resumable)',
  description: [
    'Pages through the whole list in constant memory and writes each page as it arrives.',
    'With --out, a checkpoint (<out>.checkpoint.json) is replaced after every page; if the run is',
    'killed, the same command with --resume continues exactly where it stopped.',
    'Resources: run `crmctl export --list`. Lists that need an id or a filter take --param key=value.',
  ].join('\n'),
  examples: [
    'crmctl export leads --out leads.ndjson',
    'crmctl export leads --format csv --out leads.csv --resume',
    'crmctl export installments --param deal_ids=1,2 --format json',
    'crmctl export mailbox-threads --param folder=archive > threads.ndjson',
  ],
  args: [{ name: 'resource', description: 'what to export (see --list)', required: false }],
  options: [
    { flags: '--out <file>', description: 'write here instead of stdout (needed for --resume)' },
    { flags: '--format <format>', description: 'ndjson (default), json (one array) or csv; default from --out extension', choices: EXPORT_FORMATS },
    { flags: '--param <key=value>', description: 'path or query parameter of the list (repeatable), e.g. deal_ids=1,2', repeatable: true },
    { flags: '--resume', description: 'continue a killed export from <out>.checkpoint.json' },
    { flags: '--columns <list>', description: 'CSV columns (dotted paths allowed); default: the fields of the first page' },
    { flags: '--page-size <n>', description: 'records per request (default: the largest the list allows)' },
    { flags: '--list', description: 'list the resources that can be exported' },
  ],
  async run(ctx, { args, opts }) {
    const { exportResources, findExportResource } = await import('../../automation/resources.js');
    if (opts.list) {
      const { renderRecords } = await import('../../output/render.js');
      const rows = exportResources().map((r) => ({ resource: r.name, aliases: r.aliases.join(','), operation: `${r.op.method} ${r.op.path}`, cost: r.op.cost, params: r.required.join(',') }));
      await renderRecords(ctx, rows, { columns: ['resource', 'operation', 'cost', 'params', 'aliases'] });
      return;
    }
    const name = args[0];
    if (!name) throw new UsageError('missing argument <resource>', 'See `crmctl export --list` for what can be exported.');
    const resource = findExportResource(name);
    if (!resource) throw new UsageError(`unknown resource "${name}"`, `Exportable: ${exportResources().map((r) => r.name).join(', ')}`);
    const format = formatFor(ctx, 'export', { format: opts.format as string | undefined, out: opts.out as string | undefined });
    const pageSize = opts.pageSize === undefined ? undefined : Number(opts.pageSize);
    if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1)) throw new UsageError('--page-size: must be a positive integer');
    const columns = opts.columns === undefined ? undefined : String(opts.columns).split(',').map((c) => c.trim()).filter(Boolean);
    if (columns && format !== 'csv') throw new UsageError('--columns: only for --format csv');
    const { listInput } = await import('../../automation/params.js');
    const { params, query } = await listInput(ctx, resource.op, resource.name, (opts.param as string[] | undefined) ?? []);
    const { runExport } = await import('../../automation/export.js');
    await runExport(ctx, { resource, params, query, format, out: opts.out as string | undefined, resume: Boolean(opts.resume), columns, pageSize });
  },
};

export const area: AreaModule = { commands: [exportCommand] };
