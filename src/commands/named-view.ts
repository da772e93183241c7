import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { formatFor } from '../output/format.js';
import { CUSTOM_FIELD_LINKS as LINKED } from '../names/links/kinds.js';

/** A call's presentation (operation-command.ts CallView, restated here so the two files import one way). */
interface CallView {
  present: (records: AsyncIterable<unknown>) => AsyncIterable<unknown>;
  columns: string[];
  derived?: string[];
  allCustomFields?: boolean;
}

/**
 * Custom fields by name in what a read shows (docs/custom-fields.md). Tables, TSV and CSV of a list keep
 * their columns (a get's add every custom field by name), and --fields may name custom fields ("Lead score", "Segment") beside the record's fields: the
 * cells show option labels and monetary values with their currency. `--names` adds every custom field
 * to a table, and gives json/ndjson records keyed by field names with option labels; without it json
 * and ndjson keep the service's records (scripts depend on them).
 * Costs one field-metadata read (or none while the per-profile cache is fresh), and only when names are
 * shown: a plain list, and any json, read nothing more. `names`: the command's --names flag.
 */
export async function namedView(ctx: Context, op: Operation, names: boolean, base: CallView | undefined): Promise<CallView | undefined> {
  const itemType = op.cli.customFields;
  if (!itemType) return base;
  const wanted = ctx.globals.fields ?? [];
  const known = new Set([...(op.cli.fields ?? []), ...(base?.derived ?? [])]);
  const asksName = wanted.some((f) => !known.has(f.split('.')[0]!));
  const format = formatFor(ctx, 'records');
  const asText = format !== 'json' && format !== 'ndjson';
  // One record (a get whose view asks) shows every custom field by name in a table, TSV or CSV, as the web
  // app's detail view does; a list adds them only when asked (--names, a name in --fields): they widen every row.
  const oneRecord = asText && !ctx.globals.fields && base?.allCustomFields === true;
  if (!names && !asksName && !oneRecord) return base;
  // json and ndjson name custom fields only with --names (their records keep the service's keys).
  if (!asText && !names) return base;

  const [{ checkReader }, { fieldCatalog }, { namedRecord, withCustomCells }, { linkNames }] = await Promise.all([
    import('../entry/prepare.js'),
    import('../names/catalog.js'),
    import('../names/read.js'),
    import('../names/links/resolver.js'),
  ]);
  const cat = await fieldCatalog(checkReader(ctx), itemType, ctx);
  const fieldNames = cat.custom.map((f) => f.name);
  const columns = base?.columns ?? op.cli.columns ?? [];
  const before = base?.present ?? ((r: AsyncIterable<unknown>) => r);
  if (format === 'json' || format === 'ndjson') {
    return { present: (records) => mapRecords(before(records), (r) => namedRecord(cat, r)), columns, derived: [...(base?.derived ?? []), ...fieldNames] };
  }
  // A name asked in another spelling ("lead score") heads its column as asked.
  const cells = cat.custom.map((f) => ({ ...f, name: wanted.find((w) => cat.customField(w) === f) ?? f.name }));
  // The names stand in for the raw custom_fields object of a record's default columns.
  const withNames = names || oneRecord ? [...new Set([...columns.filter((c) => c !== 'custom_fields'), ...fieldNames])] : columns;
  // User, organization and person fields shown name the record they link to, as owner and organization do.
  const shown = new Set(ctx.globals.fields ?? withNames);
  const links = cells.filter((c) => c.type in LINKED && shown.has(c.name)).map((c) => ({ column: c.name, idField: c.name, kind: LINKED[c.type]! }));
  const namer = links.length ? (await import('../names/links/table-names.js')).withLinkNames : undefined;
  return {
    present: (records) => {
      const named = mapRecords(before(records), (r) => withCustomCells(cat, r, cells));
      return namer ? namer(linkNames(checkReader(ctx), ctx), named, links) : named;
    },
    columns: withNames,
    derived: [...(base?.derived ?? []), ...cells.map((c) => c.name), ...fieldNames],
  };
}


async function* mapRecords(records: AsyncIterable<unknown>, f: (r: unknown) => unknown): AsyncGenerator<unknown> {
  for await (const r of records) yield f(r);
}
