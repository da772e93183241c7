import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import type { CallView } from './operation-command.js';
import { derivedView } from './table-view.js';

/** A record kind another record links to by id, and the one list that names it. */
export type LinkedKind = 'user' | 'organization' | 'person' | 'deal';

/** A table column that shows a linked record by name in place of the id field the service sends. */
export interface Link {
  column: string;
  idField: string;
  kind: LinkedKind;
}

/** Records held before their names are read: the `ids=` filter of the v2 lists takes at most 100. */
const CHUNK = 100;

/**
 * Person, organization, activity and lead tables show owner, organization, person and deal by name
 * (issue 20): each id column of the operation's default columns is replaced by its name column, and
 * --fields may name those columns in table, TSV and CSV; json and ndjson keep the service's records.
 * Names cost one read per linked kind for each 100 records, only for kinds with an id on them: users
 * (the whole list, 20 units, read once), organizations, persons and deals (`ids=` the ids shown, 10 units).
 */
export function linkedNamesView(links: Link[]): (ctx: Context, op: Operation) => CallView | undefined {
  return (ctx, op) => {
    const defaults = op.cli.columns ?? [];
    // A form whose columns don't show these ids (persons list --v1 has org_name, owner_name) stays as it is.
    if (!links.some((l) => defaults.includes(l.idField))) return undefined;
    const columns = defaults.map((c) => links.find((l) => l.idField === c)?.column ?? c);
    return derivedView({ columns, derived: links.map((l) => l.column), present: (c, records) => withNames(c, records, links) })(ctx, op);
  };
}

async function* withNames(ctx: Context, records: AsyncIterable<unknown>, links: Link[]): AsyncGenerator<unknown> {
  const names = new Names(ctx);
  let held: unknown[] = [];
  for await (const r of records) {
    held.push(r);
    if (held.length < CHUNK) continue;
    yield* await names.apply(held, links);
    held = [];
  }
  if (held.length) yield* await names.apply(held, links);
}

class Names {
  private readonly known = new Map<LinkedKind, Map<number, string>>();
  private usersRead = false;

  constructor(private readonly ctx: Context) {}

  async apply(records: unknown[], links: Link[]): Promise<unknown[]> {
    const wanted = new Map<LinkedKind, Set<number>>();
    for (const r of records) {
      for (const l of links) {
        const id = idOf(field(r, l.idField));
        if (id === undefined || this.known.get(l.kind)?.has(id)) continue;
        if (!wanted.has(l.kind)) wanted.set(l.kind, new Set());
        wanted.get(l.kind)?.add(id);
      }
    }
    await Promise.all([...wanted].map(([kind, ids]) => this.load(kind, [...ids])));
    return records.map((r) => {
      if (!r || typeof r !== 'object') return r;
      const out: Record<string, unknown> = { ...(r as Record<string, unknown>) };
      for (const l of links) {
        const raw = out[l.idField];
        const id = idOf(raw);
        out[l.column] = id === undefined ? '' : (this.known.get(l.kind)?.get(id) ?? id);
      }
      return out;
    });
  }

  /** A list the token may not read (scope) leaves ids in place, said under --debug. */
  private async load(kind: LinkedKind, ids: number[]): Promise<void> {
    if (kind === 'user' && this.usersRead) return;
    const map = this.known.get(kind) ?? new Map<number, string>();
    this.known.set(kind, map);
    const [{ readAll }, op] = await Promise.all([import('../api/prepare.js'), listOf(kind)]);
    const query: Record<string, unknown> = kind === 'user' ? {} : { ids, limit: ids.length };
    if (kind === 'user') this.usersRead = true;
    try {
      for await (const rec of readAll(this.ctx, op, { query }, { all: kind === 'user' })) {
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
  }
}

function field(r: unknown, key: string): unknown {
  return r && typeof r === 'object' ? (r as Record<string, unknown>)[key] : undefined;
}

/** A link as records give it: the id, or an object holding it ({value}, {id}) as v1 records do. */
function idOf(v: unknown): number | undefined {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'object') return idOf((v as Record<string, unknown>).value ?? (v as Record<string, unknown>).id);
  const n = Number(v);
  return Number.isInteger(n) ? n : undefined;
}
