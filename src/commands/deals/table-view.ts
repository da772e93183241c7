import type { Context } from '../../core/context.js';
import type { Link } from '../../names/links/table-names.js';
import { derivedView } from '../table-view.js';

/**
 * A deal as a person reads it in a table: value with its currency, the stage and owner by name.
 * Table, TSV and CSV show them by default and --fields may name them; json and ndjson keep the
 * service's records. Names come from two reads per command (stages 5, users 20 cost units), not one per deal.
 */
export const DEAL_TABLE_COLUMNS = ['id', 'title', 'value', 'stage', 'status', 'owner'];

export const dealTableView = derivedView({ columns: DEAL_TABLE_COLUMNS, derived: ['value', 'stage', 'owner', 'labels'], present: withLabels });

/** `--fields labels` names a deal's labels (the options of the deal field `label`); otherwise nothing more is read. */
async function* withLabels(ctx: Context, records: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  const { namedLinks } = await import('../linked-names.js');
  const links: Link[] = [{ column: 'stage', idField: 'stage_id', kind: 'stage' }, { column: 'owner', idField: 'owner_id', kind: 'user' }];
  if (ctx.globals.fields?.includes('labels')) links.push({ column: 'labels', idField: 'label_ids', kind: 'deal-label' });
  yield* namedLinks(ctx, records, links, withValue);
}

/** The value with its currency ("24000 EUR"). */
function withValue(r: unknown): unknown {
  if (!r || typeof r !== 'object') return r;
  const d = r as Record<string, unknown>;
  return { ...d, value: d.value === undefined || d.value === null ? '' : `${String(d.value)} ${String(d.currency ?? '')}`.trim() };
}
