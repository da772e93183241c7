import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { outputFormat } from '../output/render.js';
import type { CallView } from './operation-command.js';

/**
 * Custom fields by name in what a read shows (docs/custom-fields.md). Tables, TSV and CSV keep their
 * columns, and --fields may name custom fields ("Lead score", "Segment") beside the record's fields: the
 * cells show option labels and monetary values with their currency. `--names` adds every custom field
 * to a table, and gives json/ndjson records keyed by field names with option labels; without it json
 * and ndjson keep the service's records (scripts depend on them).
 * Costs one field-metadata read (or none while the per-profile cache is fresh), and only when a name is
 * asked for: a plain list reads nothing more.
 */
export async function namedView(ctx: Context, op: Operation, opts: Record<string, unknown>, base: CallView | undefined): Promise<CallView | undefined> {
  const itemType = op.cli.customFields;
  if (!itemType) return base;
  const wanted = ctx.globals.fields ?? [];
  const known = new Set([...(op.cli.fields ?? []), ...(base?.derived ?? [])]);
  const asksName = wanted.some((f) => !known.has(f.split('.')[0]!));
  if (!opts.names && !asksName) return base;
  const format = outputFormat(ctx);
  // json and ndjson name custom fields only with --names (their records keep the service's keys).
  if ((format === 'json' || format === 'ndjson') && !opts.names) return base;

  const [{ checkReader }, { fieldCatalog }, { namedRecord, withCustomCells }] = await Promise.all([
    import('../api/prepare.js'),
    import('../names/catalog.js'),
    import('../names/read.js'),
  ]);
  const cat = await fieldCatalog(checkReader(ctx), itemType, ctx);
  const names = cat.custom.map((f) => f.name);
  const columns = base?.columns ?? op.cli.columns ?? [];
  const before = base?.present ?? ((r: AsyncIterable<unknown>) => r);
  if (format === 'json' || format === 'ndjson') {
    return { present: (records) => mapRecords(before(records), (r) => namedRecord(cat, r)), columns, derived: [...(base?.derived ?? []), ...names] };
  }
  // A name asked in another spelling ("lead score") heads its column as asked.
  const cells = cat.custom.map((f) => ({ ...f, name: wanted.find((w) => cat.customField(w) === f) ?? f.name }));
  return {
    present: (records) => mapRecords(before(records), (r) => withCustomCells(cat, r, cells)),
    columns: opts.names ? [...columns, ...names] : columns,
    derived: [...(base?.derived ?? []), ...cells.map((c) => c.name), ...names],
  };
}

async function* mapRecords(records: AsyncIterable<unknown>, f: (r: unknown) => unknown): AsyncGenerator<unknown> {
  for await (const r of records) yield f(r);
}
