import type { CheckReader } from '../api/entry-types.js';
import { ValidationError } from '../core/errors.js';
import type { RawInput } from '../input/operation-input.js';

// A filter's conditions by field name, at every door: `where` / `or_where` in a body (a command's
// --where / --or-where, a `where` key of --data, an MCP call's arguments) become the
// service's condition tree here, run by the entry (src/entry/prepare.ts) before its checks, so the tree then
// meets the same schema, limits and account rules as one given as JSON in `conditions`.

type Body = Record<string, unknown>;

/**
 * The body with `where`/`or_where` replaced by `conditions`. The item type the names are about is the
 * body's `type` (a new filter) or the filter's own (one read of it, for an update). Refusals name the
 * input as its door does: `--where "Budget > 1000"` on a command line, `arguments.where[0] "..."` in an MCP call.
 */
export async function conditionsFromNames(reader: CheckReader, raw: RawInput, naming: 'flags' | 'keys' = 'flags', container?: string): Promise<RawInput> {
  const body = { ...(raw.body as Body) };
  const prefix = naming === 'keys' && container ? `${container}.` : '';
  const keyLabel = (key: 'where' | 'or_where' | 'conditions' | 'type') => (naming === 'flags' ? `--${key.replace('_', '-')}` : `${prefix}${key}`);
  const clauses = (key: 'where' | 'or_where') => {
    const v = body[key];
    delete body[key];
    if (v === undefined || v === null) return [];
    const list = Array.isArray(v) ? v : [v];
    if (!list.every((x) => typeof x === 'string')) throw new ValidationError([{ field: keyLabel(key), rule: 'must be a condition NAME OP VALUE or a list of them, e.g. ["Budget > 1000", "Stage = Qualified"]' }]);
    return (list as string[]).map((text, i) => ({ text, label: naming === 'flags' ? keyLabel(key) : Array.isArray(v) ? `${keyLabel(key)}[${i}]` : keyLabel(key) }));
  };
  if (body.conditions !== undefined) throw new ValidationError([{ field: keyLabel(body.where !== undefined ? 'where' : 'or_where'), rule: `cannot be combined with ${keyLabel('conditions')} (give the conditions one way)` }]);
  const where = clauses('where');
  const orWhere = clauses('or_where');
  if (!where.length && !orWhere.length) return { ...raw, body };
  const type = await typeOf(reader, raw, body, keyLabel('type'));
  const { conditionsFromWhere } = await import('./where-resolve.js');
  return { ...raw, body: { ...body, conditions: await conditionsFromWhere(reader, type, where, orWhere, keyLabel('conditions')) } };
}

/** The item type the names are about: `type` of a new filter; an existing one's own type (one read of it). */
async function typeOf(reader: CheckReader, raw: RawInput, body: Body, typeLabel: string): Promise<string> {
  if (raw.params.id === undefined) {
    if (typeof body.type !== 'string') throw new ValidationError([{ field: typeLabel, rule: 'is required with conditions by name: the item type decides which fields the names mean' }]);
    return body.type;
  }
  // Only the filter table's writes declare `where` (the entry translates only for those): read the filter.
  const { filterOps } = await import('../api/operations/filters.js');
  const filter = (await reader.read(filterOps.get, { params: { id: raw.params.id } })) as { type?: unknown };
  return String(filter.type);
}
