import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { operationFields } from '../input/operation-input.js';
import type { Link } from '../names/links/table-names.js';
import type { CallView } from './operation-command.js';
import { derivedView } from './table-view.js';

export type { Link } from '../names/links/table-names.js';

/** A column that shows money with its currency ("24000 EUR") in place of the field the service sends. */
export interface Money {
  column: string;
  /** The amount (a number, `{amount, currency}` of a lead, or a product's `prices` list). */
  field: string;
  /** The field holding the currency when the amount is a bare number (a deal's `currency`). */
  currency?: string;
}

export interface LinkedViewOptions {
  /** The columns to show, in place of the operation's default columns with each id replaced by its name. */
  columns?: string[];
  money?: Money[];
  /** One record shown whole (a get): its custom fields by name are columns too. */
  oneRecord?: boolean;
  /**
   * Query parameters the read takes when a link's column is shown (a person's `include_labels`, so
   * its labels come with it by name); sent only when the operation takes them.
   */
  query?: Record<string, unknown>;
}

/**
 * Person, organization, activity and lead tables show owner, organization and person by name
 * (issue 20), and single records (`deals get 1`) also stage and pipeline, and money with its currency:
 * each id column of the operation's default columns is replaced by its name column, and --fields may
 * name those columns in table, TSV and CSV; json and ndjson keep the service's records.
 * Names cost one read per linked kind for each 100 records, only for kinds with an id on them: users,
 * stages, pipelines and boards (the whole list, read once), phases (the list of each board shown, read once),
 * organizations, persons and deals (`ids=` the ids shown, 10 units).
 */
export function linkedNamesView(links: Link[], opts: LinkedViewOptions = {}): (ctx: Context, op: Operation) => CallView | undefined {
  return (ctx, op) => {
    const defaults = op.cli.columns ?? [];
    // A form whose columns don't show these ids (persons list --v1 has org_name, owner_name) stays as it is.
    if (!opts.columns && !links.some((l) => defaults.includes(l.idField))) return undefined;
    const money = opts.money ?? [];
    // A currency shown beside its amount is no column of its own.
    const shownWith = new Set(money.map((m) => m.currency).filter((c): c is string => c !== undefined));
    // A name column the record also has (a person's `labels` beside `label_ids`) is shown once.
    const columns = opts.columns ?? [...new Set(defaults.filter((c) => !shownWith.has(c)).map((c) => links.find((l) => l.idField === c)?.column ?? c))];
    const derived = [...links.map((l) => l.column), ...money.map((m) => m.column)];
    // Only the links whose column is shown cost a read (labels asked with --fields, not otherwise).
    const shown = new Set(ctx.globals.fields ?? columns);
    const used = links.filter((l) => shown.has(l.column));
    const view = derivedView({ columns, derived, present: (c, records) => namedLinks(c, records, used, (r) => withMoney(r, money)) })(ctx, op);
    if (!view) return view;
    const query = used.some((l) => l.kind.endsWith('-label')) ? acceptedQuery(op, opts.query) : undefined;
    return { ...view, ...(opts.oneRecord ? { allCustomFields: true } : {}), ...(query ? { query } : {}) };
  };
}

/**
 * Records with linked records by name (src/names/links: one resolver per command, so each list is
 * read once however many pages are shown).
 */
export async function* namedLinks(ctx: Context, records: AsyncIterable<unknown>, links: Link[], shown?: (r: unknown) => unknown): AsyncGenerator<unknown> {
  const [{ checkReader }, { linkNames }, { withLinkNames }] = await Promise.all([import('../entry/prepare.js'), import('../names/links/resolver.js'), import('../names/links/table-names.js')]);
  yield* withLinkNames(linkNames(checkReader(ctx), ctx), records, links, shown);
}

/** The parameters of `query` the operation's query schema has a member for. */
function acceptedQuery(op: Operation, query: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!query) return undefined;
  const { fields } = operationFields(op);
  const accepted = Object.entries(query).filter(([k]) => fields.some((f) => f.location === 'query' && f.key === k));
  return accepted.length ? Object.fromEntries(accepted) : undefined;
}

function withMoney(r: unknown, money: Money[]): unknown {
  if (!money.length || !r || typeof r !== 'object') return r;
  const out: Record<string, unknown> = { ...(r as Record<string, unknown>) };
  for (const m of money) out[m.column] = moneyText(out[m.field], m.currency === undefined ? undefined : out[m.currency]);
  return out;
}

/** "24000 EUR" from a number and its currency, a lead's {amount, currency}, or a product's prices ("800 EUR, 900 USD"). */
export function moneyText(v: unknown, currency?: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  if (Array.isArray(v)) return v.map((p) => moneyText((p as { price?: unknown })?.price, (p as { currency?: unknown })?.currency)).filter(Boolean).join(', ');
  if (typeof v === 'object') return moneyText((v as { amount?: unknown }).amount, (v as { currency?: unknown }).currency);
  return `${String(v)} ${currency === null || currency === undefined ? '' : String(currency)}`.trim();
}

