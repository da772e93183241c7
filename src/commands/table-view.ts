import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { formatFor } from '../output/format.js';
import type { CallView } from './operation-command.js';

/**
 * Columns a table computes from the service's records (a deal's stage and owner by name, a user's
 * admin apps). They show by default in table, TSV and CSV, and --fields may name them there like any
 * field; json and ndjson keep the service's records, so naming one there is refused (exit 2).
 */
export interface DerivedColumns {
  /** The default columns of the table (derived and plain). */
  columns: string[];
  /** The names this view computes (a plain field it rewrites for display, like value, counts too). */
  derived: string[];
  present(ctx: Context, records: AsyncIterable<unknown>): AsyncIterable<unknown>;
}

export function derivedView(d: DerivedColumns): (ctx: Context, op: Operation) => CallView | undefined {
  return (ctx, op) => {
    const format = formatFor(ctx, 'records');
    const fields = ctx.globals.fields;
    if (format === 'json' || format === 'ndjson') {
      const named = fields?.filter((f) => d.derived.includes(f) && !op.cli.fields?.includes(f));
      if (named?.length) throw new UsageError(`--fields: ${named.join(', ')} ${named.length > 1 ? 'are table columns' : 'is a table column'} (--output table, tsv or csv); --output ${format} shows the service's fields`);
      return undefined;
    }
    // --fields without a derived column reads nothing more than the list.
    if (fields && !fields.some((f) => d.derived.includes(f))) return undefined;
    return { columns: d.columns, derived: d.derived, present: (records) => d.present(ctx, records) };
  };
}
