import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';

// Linked records by name (issue 20): the ids a record carries (owner_id, a project's deal_ids, a user
// custom field) turned into the names the web app shows, each linked list read as few times as it can.

/** A record kind another record links to by id, and the one list that names it. */
export type LinkedKind = 'user' | 'organization' | 'person' | 'deal' | 'stage' | 'pipeline' | 'board' | 'phase' | LabelKind;

/**
 * Labels of leads (their own list, UUIDs) and of deals, persons and organizations (the options of the
 * item type's label field, or the `labels` the record carries when the read asked include_labels).
 */
export type LabelKind = 'lead-label' | 'deal-label' | 'person-label' | 'organization-label';

/** The field whose options name an item type's labels (deals keep the v1 key `label`). */
const LABEL_FIELD: Record<Exclude<LabelKind, 'lead-label'>, { itemType: 'deal' | 'person' | 'organization'; field: string }> = {
  'deal-label': { itemType: 'deal', field: 'label' },
  'person-label': { itemType: 'person', field: 'label_ids' },
  'organization-label': { itemType: 'organization', field: 'label_ids' },
};

/** Kinds whose whole list is read once (few records, no `ids=` filter); the others are read by the ids shown. */
const WHOLE_LIST: ReadonlySet<LinkedKind> = new Set(['user', 'stage', 'pipeline', 'board', 'lead-label', 'deal-label', 'person-label', 'organization-label']);

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
  /** Names by id as text (ids are integers, or UUIDs for lead labels). */
  private readonly known = new Map<LinkedKind, Map<string, string>>();
  /** Lists read whole: a kind, or a kind under one parent ("phase:1"). */
  private readonly wholeRead = new Set<string>();

  constructor(private readonly ctx: Context) {}

  async apply(records: unknown[], links: Link[]): Promise<unknown[]> {
    // What to read: per kind (and parent, for kinds listed under one), the ids not named yet.
    const wanted = new Map<string, { kind: LinkedKind; parent?: string; ids: Set<string> }>();
    for (const r of records) {
      for (const l of links) {
        if (isLabel(l.kind)) this.carried(l.kind, field(r, 'labels'));
        const under = LISTED_UNDER[l.kind];
        const parent = under === undefined ? undefined : idsOf(field(r, under))[0];
        if (under !== undefined && parent === undefined) continue;
        for (const id of idsOf(field(r, l.idField))) {
          if (this.known.get(l.kind)?.has(id)) continue;
          const key = parent === undefined ? l.kind : `${l.kind}:${parent}`;
          const entry = wanted.get(key) ?? { kind: l.kind, parent, ids: new Set<string>() };
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

  /** The names a record carries itself (`labels: [{id, label}]` of a read with include_labels). */
  private carried(kind: LinkedKind, labels: unknown): void {
    if (!Array.isArray(labels)) return;
    const map = this.names(kind);
    for (const l of labels as Array<{ id?: unknown; label?: unknown }>) if (l && l.id !== undefined && typeof l.label === 'string') map.set(String(l.id), l.label);
  }

  private names(kind: LinkedKind): Map<string, string> {
    const map = this.known.get(kind) ?? new Map<string, string>();
    this.known.set(kind, map);
    return map;
  }

  /** A list the token may not read (scope) leaves ids in place, said under --debug. */
  private async load(kind: LinkedKind, ids: string[], parent?: string): Promise<void> {
    const under = LISTED_UNDER[kind];
    const whole = WHOLE_LIST.has(kind) || under !== undefined;
    const readKey = parent === undefined ? kind : `${kind}:${parent}`;
    if (whole && this.wholeRead.has(readKey)) return;
    const map = this.names(kind);
    if (whole) this.wholeRead.add(readKey);
    if (kind !== 'lead-label' && isLabel(kind)) return this.loadLabelOptions(kind, map);
    const [{ readAll }, op] = await Promise.all([import('../entry/prepare.js'), listOf(kind)]);
    const query: Record<string, unknown> =
      under !== undefined ? { [under]: Number(parent) }
      : kind === 'user' || kind === 'board' || kind === 'lead-label' ? {}
      : kind === 'stage' || kind === 'pipeline' ? { limit: 500 }
      : { ids: ids.map(Number), limit: ids.length };
    try {
      for await (const rec of readAll(this.ctx, op, { query }, { all: whole })) {
        const x = rec as { id?: unknown; name?: unknown; title?: unknown };
        const label = kind === 'deal' ? x.title : x.name;
        if ((typeof x.id === 'number' || typeof x.id === 'string') && typeof label === 'string') map.set(String(x.id), label);
      }
    } catch (err) {
      this.ctx.debug(`table: names from ${op.id} unavailable (${err instanceof Error ? err.message : String(err)}); showing ids`);
    }
  }

  /** Deal, person and organization labels: the options of the item type's label field (the field catalog, cached per profile). */
  private async loadLabelOptions(kind: Exclude<LabelKind, 'lead-label'>, map: Map<string, string>): Promise<void> {
    const { itemType, field: key } = LABEL_FIELD[kind];
    try {
      const [{ checkReader }, { fieldCatalog }] = await Promise.all([import('../entry/prepare.js'), import('../names/catalog.js')]);
      const cat = await fieldCatalog(checkReader(this.ctx), itemType, this.ctx);
      for (const o of cat.field(key)?.options ?? []) if (!map.has(String(o.id))) map.set(String(o.id), o.label);
    } catch (err) {
      this.ctx.debug(`table: ${itemType} label names unavailable (${err instanceof Error ? err.message : String(err)}); showing ids`);
    }
  }
}

function isLabel(kind: LinkedKind): kind is LabelKind {
  return kind.endsWith('-label');
}

/** Kinds named by reading a list (the other label kinds are named by a field's options). */
type ListedKind = Exclude<LinkedKind, keyof typeof LABEL_FIELD>;

async function listOf(kind: ListedKind): Promise<Operation> {
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
    case 'lead-label':
      return (await import('../api/operations/lead-labels.js')).leadLabelOps.list;
  }
}

function field(r: unknown, key: string): unknown {
  return r && typeof r === 'object' ? (r as Record<string, unknown>)[key] : undefined;
}

/**
 * A link as records give it: the id, an object holding it ({value}, {id}) as v1 records do, or a list of
 * them (deal_ids); as text, so integer ids and UUIDs (lead labels) are looked up alike.
 */
function idsOf(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.flatMap(idsOf);
  if (typeof v === 'object') return idsOf((v as Record<string, unknown>).value ?? (v as Record<string, unknown>).id);
  if (typeof v === 'string' && UUID.test(v)) return [v];
  const n = Number(v);
  return Number.isInteger(n) ? [String(n)] : [];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
