import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';

// Linked records by name (issue 20): the ids a record carries (owner_id, a project's deal_ids, a user
// custom field) turned into the names the web app shows, each linked list read as few times as it can.

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

/** The records with each link's column set to the linked records' names (read per 100 records), then `shown` applied. */
export async function* withNames(ctx: Context, records: AsyncIterable<unknown>, links: Link[], shown: (r: unknown) => unknown = (r) => r): AsyncGenerator<unknown> {
  const names = new Names(ctx);
  let held: unknown[] = [];
  for await (const r of records) {
    held.push(r);
    if (held.length < CHUNK) continue;
    yield* (await names.apply(held, links)).map(shown);
    held = [];
  }
  if (held.length) yield* (await names.apply(held, links)).map(shown);
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
    const [{ readAll }, op] = await Promise.all([import('../entry/prepare.js'), listOf(kind)]);
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
