import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import type { CallView } from './operation-command.js';
import { derivedView } from './table-view.js';

/** A record kind another record links to by id, and the one list that names it. */
export type LinkedKind = 'user' | 'organization' | 'person' | 'deal' | 'stage' | 'pipeline' | 'board' | 'phase';

/** Kinds whose whole list is read once (few records, no `ids=` filter); the others are read by the ids shown. */
const WHOLE_LIST: ReadonlySet<LinkedKind> = new Set(['user', 'stage', 'pipeline', 'board']);

/**
 * Kinds listed only under a parent (the phases of one board): their list is read once per parent id
 * the records carry in the named field, sent as the list's query parameter of the same name.
 */
const LISTED_UNDER: Partial<Record<LinkedKind, string>> = { phase: 'board_id' };

/**
 * A table column that shows a linked record by name in place of the id field the service sends; a
 * field holding several ids (a project's deal_ids) shows their names joined with ", ".
 */
export interface Link {
  column: string;
  idField: string;
  kind: LinkedKind;
}

/** Records held before their names are read: the `ids=` filter of the v2 lists takes at most 100. */
const CHUNK = 100;

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
    const columns = opts.columns ?? defaults.filter((c) => !shownWith.has(c)).map((c) => links.find((l) => l.idField === c)?.column ?? c);
    const derived = [...links.map((l) => l.column), ...money.map((m) => m.column)];
    const view = derivedView({ columns, derived, present: (c, records) => withNames(c, records, links, money) })(ctx, op);
    return view && opts.oneRecord ? { ...view, allCustomFields: true } : view;
  };
}

async function* withNames(ctx: Context, records: AsyncIterable<unknown>, links: Link[], money: Money[]): AsyncGenerator<unknown> {
  const names = new Names(ctx);
  const shown = (r: unknown) => withMoney(r, money);
  let held: unknown[] = [];
  for await (const r of records) {
    held.push(r);
    if (held.length < CHUNK) continue;
    yield* (await names.apply(held, links)).map(shown);
    held = [];
  }
  if (held.length) yield* (await names.apply(held, links)).map(shown);
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

class Names {
  private readonly known = new Map<LinkedKind, Map<number, string>>();
  /** Lists read whole: a kind, or a kind under one parent ("phase:1"). */
  private readonly wholeRead = new Set<string>();

  constructor(private readonly ctx: Context) {}

  async apply(records: unknown[], links: Link[]): Promise<unknown[]> {
    // What to read: per kind (and parent, for kinds listed under one), the ids not named yet.
    const wanted = new Map<string, { kind: LinkedKind; parent?: number; ids: Set<number> }>();
    for (const r of records) {
      for (const l of links) {
        const under = LISTED_UNDER[l.kind];
        const parent = under === undefined ? undefined : idsOf(field(r, under))[0];
        if (under !== undefined && parent === undefined) continue;
        for (const id of idsOf(field(r, l.idField))) {
          if (this.known.get(l.kind)?.has(id)) continue;
          const key = parent === undefined ? l.kind : `${l.kind}:${parent}`;
          const entry = wanted.get(key) ?? { kind: l.kind, parent, ids: new Set<number>() };
          wanted.set(key, entry);
          entry.ids.add(id);
        }
      }
    }
    await Promise.all([...wanted.values()].map((w) => this.load(w.kind, [...w.ids], w.parent)));
    return records.map((r) => {
      if (!r || typeof r !== 'object') return r;
      const out: Record<string, unknown> = { ...(r as Record<string, unknown>) };
      for (const l of links) {
        out[l.column] = idsOf(out[l.idField]).map((id) => this.known.get(l.kind)?.get(id) ?? id).join(', ');
      }
      return out;
    });
  }

  /** A list the token may not read (scope) leaves ids in place, said under --debug. */
  private async load(kind: LinkedKind, ids: number[], parent?: number): Promise<void> {
    const under = LISTED_UNDER[kind];
    const whole = WHOLE_LIST.has(kind) || under !== undefined;
    const readKey = parent === undefined ? kind : `${kind}:${parent}`;
    if (whole && this.wholeRead.has(readKey)) return;
    const map = this.known.get(kind) ?? new Map<number, string>();
    this.known.set(kind, map);
    const [{ readAll }, op] = await Promise.all([import('../api/prepare.js'), listOf(kind)]);
    const query: Record<string, unknown> =
      under !== undefined ? { [under]: parent }
      : kind === 'user' || kind === 'board' ? {}
      : kind === 'stage' || kind === 'pipeline' ? { limit: 500 }
      : { ids, limit: ids.length };
    if (whole) this.wholeRead.add(readKey);
    try {
      for await (const rec of readAll(this.ctx, op, { query }, { all: whole })) {
        const x = rec as { id?: unknown; name?: unknown; title?: unknown };
        const label = kind === 'deal' ? x.title : x.name;
        if (typeof x.id === 'number' && typeof label === 'string') map.set(x.id, label);
      }
    } catch (err) {
      this.ctx.debug(`table: names from ${op.id} unavailable (${err instanceof Error ? err.message : String(err)}); showing ids`);
    }
  }
}

async function listOf(kind: LinkedKind): Promise<Operation> {
  switch (kind) {
    case 'user':
      return (await import('../api/operations/users.js')).userOps.list;
    case 'organization':
      return (await import('../api/operations/organizations.js')).organizationOps.list;
    case 'person':
      return (await import('../api/operations/persons.js')).personOps.list;
    case 'deal':
      return (await import('../api/operations/deals.js')).dealOps.list;
    case 'stage':
      return (await import('../api/operations/stages.js')).stageOps.list;
    case 'pipeline':
      return (await import('../api/operations/pipelines.js')).pipelineOps.list;
    case 'board':
      return (await import('../api/operations/boards.js')).boardOps.list;
    case 'phase':
      return (await import('../api/operations/phases.js')).phaseOps.list;
  }
}

function field(r: unknown, key: string): unknown {
  return r && typeof r === 'object' ? (r as Record<string, unknown>)[key] : undefined;
}

/** A link as records give it: the id, an object holding it ({value}, {id}) as v1 records do, or a list of them (deal_ids). */
function idsOf(v: unknown): number[] {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.flatMap(idsOf);
  if (typeof v === 'object') return idsOf((v as Record<string, unknown>).value ?? (v as Record<string, unknown>).id);
  const n = Number(v);
  return Number.isInteger(n) ? [n] : [];
}
