import { read, readAll, type Reader } from '../entry/prepare.js';
import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { NotFoundError, UsageError, ValidationError } from '../core/errors.js';
import { coerceField } from '../input/coerce.js';
import type { FieldSpec } from '../input/fields.js';
import { validateParams } from '../input/operation-input.js';
import { readInputText } from '../input/sources.js';

export type RecordId = string | number;
type Rec = Record<string, unknown>;

/** How the records were chosen: ids given, a saved filter, the list's own filters, or conditions by name. */
export type Selection =
  | { kind: 'ids'; ids: RecordId[] }
  | { kind: 'filter'; query: Rec; describe: string }
  | { kind: 'where'; type: string; where: string[]; describe: string };

/** The service's filter type of each area a saved filter can select (its filters do not cover leads). */
const FILTER_TYPES: Readonly<Record<string, string>> = { deals: 'deals', persons: 'people', organizations: 'org', products: 'products', activities: 'activity' };

const camel = (flag: string) => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The one selection a command line makes. Exactly one of --ids, --filter-id and the list filters is
 * required: two would leave unclear whether they narrow or add, and none would update the whole account.
 */
export async function selectionOf(
  ctx: Context, o: { area: string; noun: string; update: Operation; filters: FieldSpec[]; ids?: string; filterId?: number; where: string[]; tableOpts: Record<string, unknown> },
): Promise<Selection> {
  const filters = o.filters.filter((f) => o.tableOpts[camel(f.flag)] !== undefined);
  const type = FILTER_TYPES[o.area];
  if (o.where.length && !type) throw new ValidationError([{ field: '--where', rule: `is not available for ${o.area}: the service's saved filters do not cover them; select by --ids or the list's filters` }]);
  const given = [o.ids !== undefined ? '--ids' : undefined, o.filterId !== undefined ? '--filter-id' : undefined, o.where.length ? '--where' : undefined, filters.length ? filters.map((f) => `--${f.flag}`).join(' ') : undefined].filter((x): x is string => x !== undefined);
  const names = ['--ids', '--filter-id', ...(type ? ['--where'] : []), ...o.filters.map((f) => `--${f.flag}`)].join(', ');
  if (given.length === 0) throw new UsageError(`select the ${o.noun}s to update with exactly one of: ${names}`, 'Example: --ids 1,2,3, --ids - (ids on stdin) or --filter-id 12.');
  if (given.length > 1) throw new UsageError(`select the ${o.noun}s with exactly one of ${names}; got ${given.join(' and ')}`, 'List filters may be combined with each other, --where clauses with each other; not one kind with another (the service ignores list filters beside a saved filter).');
  if (o.ids !== undefined) return { kind: 'ids', ids: await idsOf(ctx, o.update, o.ids) };
  if (o.filterId !== undefined) return { kind: 'filter', query: { filter_id: o.filterId }, describe: `--filter-id ${o.filterId}` };
  if (o.where.length && type) return { kind: 'where', type, where: o.where, describe: o.where.map((w) => `--where ${JSON.stringify(w)}`).join(' ') };
  const query: Rec = {};
  for (const f of filters) query[f.key] = coerceField(f, o.tableOpts[camel(f.flag)]);
  return { kind: 'filter', query, describe: filters.map((f) => `--${f.flag} ${String(o.tableOpts[camel(f.flag)])}`).join(' ') };
}

/** `1,2,3`, or `-`: stdin with one id a line, a JSON array (of ids or records), or NDJSON records with `id`. */
async function idsOf(ctx: Context, update: Operation, value: string): Promise<RecordId[]> {
  const raw: unknown[] = [];
  if (value === '-') {
    const text = (await readInputText(ctx.io.stdin, '-', '--ids')).trim();
    if (text.startsWith('[')) {
      try {
        raw.push(...(JSON.parse(text) as unknown[]));
      } catch (err) {
        throw new ValidationError([{ field: '--ids', rule: `stdin is not a JSON array: ${(err as Error).message}` }]);
      }
    } else {
      for (const [i, line] of text.split(/\r?\n/).entries()) {
        const t = line.trim();
        if (!t) continue;
        if (!t.startsWith('{')) raw.push(t);
        else {
          try {
            raw.push(JSON.parse(t));
          } catch {
            throw new ValidationError([{ field: '--ids', rule: `stdin line ${i + 1} is neither an id nor a JSON record` }]);
          }
        }
      }
    }
  } else raw.push(...value.split(',').map((s) => s.trim()).filter(Boolean));
  const ids: RecordId[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const v = item && typeof item === 'object' ? (item as Rec).id : item;
    if (v === undefined || v === null || v === '') throw new ValidationError([{ field: '--ids', rule: `every record on stdin needs an id (got ${JSON.stringify(item)})` }]);
    let id: RecordId;
    try {
      id = validateParams(update, { id: v }).id as RecordId;
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      throw new ValidationError([{ field: '--ids', rule: `${JSON.stringify(v)}: ${err.issues[0]?.rule ?? 'not an id'}` }]);
    }
    if (seen.has(String(id))) continue;
    seen.add(String(id));
    ids.push(id);
  }
  if (!ids.length) throw new ValidationError([{ field: '--ids', rule: value === '-' ? 'stdin holds no ids' : 'give at least one id' }]);
  return ids;
}

/** The records a filter selects, every page (the list's own paging, its largest pages). */
export async function recordsOfFilter(reader: Reader, list: Operation, query: Rec): Promise<Rec[]> {
  const out: Rec[] = [];
  for await (const r of readAll(reader, list, { query }, { all: true })) out.push(r as Rec);
  return out;
}

/**
 * The records of these ids as they are now: by the list's `ids` filter (100 a request) where the list
 * has one, else one get each (leads). Ids missing from the answer are not found (or not visible).
 */
export async function recordsByIds(reader: Reader, ops: { list: Operation; get: Operation }, ids: RecordId[], hasIdsFilter: boolean): Promise<Map<string, Rec>> {
  const out = new Map<string, Rec>();
  if (hasIdsFilter) {
    for (let i = 0; i < ids.length; i += 100) {
      for await (const r of readAll(reader, ops.list, { query: { ids: ids.slice(i, i + 100) } }, { all: true })) out.set(String((r as Rec).id), r as Rec);
    }
    return out;
  }
  for (const id of ids) {
    try {
      const r = (await read(reader, ops.get, { params: { id } })) as Rec | null;
      if (r) out.set(String(id), r);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  return out;
}
