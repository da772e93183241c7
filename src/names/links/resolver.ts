import type { CheckReader, Reader } from '../../api/entry-types.js';
import { type FieldCatalog, fieldCatalog, type ItemType } from '../catalog.js';
import { KINDS, type LinkEntry, type LinkKind } from './kinds.js';
import { ambiguousRule, noMatchRule, optionRule } from './wording.js';

// Linked records by name, both ways, read as few times as it can be: each list at most once per
// resolver (one resolver per command or run), whole lists paged, big lists by `ids=` the ids a table
// shows. See index.ts for the API.

/** A name looked up: what records carry to point at the record (`id`), or the rule the name broke. */
export type Resolved = { id: number | string; entry?: LinkEntry } | { rule: string };

/**
 * `shown`: what the web app shows (a user's name, a stage's name) — for tables.
 * `key`: the name that finds the record again in another account (a user's e-mail, "Pipeline/Stage",
 * "Board/Phase") — for export name columns, backups and pulled configuration.
 */
export type NameStyle = 'shown' | 'key';

export interface NamesOptions {
  style?: NameStyle;
  /** Read the kind's whole list instead of `ids=` the ids asked (an export names every page's links). */
  whole?: boolean;
  /** The record the ids live under when its list is read per parent (a phase's board). */
  parent?: unknown;
  /** A list the token may not read leaves the ids unnamed (said under --debug) instead of failing: tables. */
  bestEffort?: boolean;
}

/** Records held before their names are read: the `ids=` filter of the v2 lists takes at most 100. */
const IDS_PER_READ = 100;

export const normName = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The ids a link value holds, as text: an id, an object holding it ({value}, {id}) as v1 records
 * give links, or a list of them (a project's deal_ids); integers and UUIDs (lead labels) alike.
 */
export function linkIds(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.flatMap(linkIds);
  if (typeof v === 'object') return linkIds((v as Record<string, unknown>).value ?? (v as Record<string, unknown>).id);
  if (typeof v === 'string' && UUID.test(v)) return [v];
  const n = Number(v);
  return Number.isInteger(n) ? [String(n)] : [];
}

/** Kinds whose records carry something other than an integer id (so a number in a name cell is not taken as the id). */
const NOT_INT: ReadonlySet<LinkKind> = new Set(['lead', 'lead-label', 'activity-type', 'currency']);

export class LinkNames {
  /** Whole lists read (or being read): a kind, or a kind under one parent ("phase:3"). */
  private readonly lists = new Map<string, Promise<LinkEntry[]>>();
  /** Every record seen, by kind and id. */
  private readonly known = new Map<LinkKind, Map<string, LinkEntry>>();
  /** Ids asked by `ids=` and not found (deleted, or not visible): not asked again. */
  private readonly missing = new Map<LinkKind, Set<string>>();
  private readonly catalogs = new Map<ItemType, Promise<FieldCatalog>>();
  private readonly indexes = new Map<LinkKind, Promise<Map<string, LinkEntry[]>>>();
  private readonly keyedKinds = new Map<LinkKind, Promise<void>>();

  /** `owner` is what the field catalog's cache belongs to (a CLI Context; src/names/catalog.ts). */
  constructor(readonly reader: CheckReader, private readonly owner: Reader = reader) {}

  // ---- id → name ----------------------------------------------------------------------------

  /** The names of some records of a kind, by id (as text). Ids no record has are left out. */
  async namesOf(kind: LinkKind, ids: Iterable<unknown>, opts: NamesOptions = {}): Promise<Map<string, string>> {
    const wanted = [...new Set([...ids].flatMap(linkIds))];
    const out = new Map<string, string>();
    if (!wanted.length) return out;
    try {
      await this.load(kind, wanted, opts);
    } catch (err) {
      if (!opts.bestEffort) throw err;
      this.reader.debug(`names of ${KINDS[kind].plural} unavailable (${err instanceof Error ? err.message : String(err)}); showing ids`);
    }
    if (opts.style === 'key') await this.keyed(kind);
    const map = this.map(kind);
    for (const id of wanted) {
      const e = map.get(id);
      if (e) out.set(id, opts.style === 'key' ? e.key : e.shown);
    }
    return out;
  }

  /** The name of one record (see NameStyle), or undefined when no record of the kind has that id. */
  async nameOf(kind: LinkKind, id: unknown, opts: NamesOptions = {}): Promise<string | undefined> {
    const [first] = linkIds(id);
    return first === undefined ? undefined : (await this.namesOf(kind, [first], opts)).get(first);
  }

  /** Names a record carries itself (`labels: [{id, label}]` of a read with include_labels): kept, never read again. */
  remember(kind: LinkKind, carried: unknown): void {
    if (!Array.isArray(carried)) return;
    const map = this.map(kind);
    for (const l of carried as Array<{ id?: unknown; label?: unknown; name?: unknown }>) {
      const label = typeof l?.label === 'string' ? l.label : typeof l?.name === 'string' ? l.name : undefined;
      if (l && l.id !== undefined && label !== undefined && !map.has(String(l.id))) map.set(String(l.id), { id: String(l.id), ref: l.id as number | string, shown: label, key: label, aliases: [] });
    }
  }

  // ---- name → id ----------------------------------------------------------------------------

  /**
   * The record a name stands for. Names match whole, without regard to case or repeated spaces: a
   * record's name (title), its key ("Pipeline/Stage", a user's e-mail) or an alias (a user's name, an
   * activity type's key_string, a currency's name). A number is the id itself (a UUID for leads and
   * lead labels). `within` names the record it lives under when the text does not (a stage in the
   * pipeline a row names in a column of its own: the older form, still read).
   */
  async idOf(kind: LinkKind, text: string, opts: { within?: string } = {}): Promise<Resolved> {
    const t = text.trim();
    if (!NOT_INT.has(kind) && /^\d+$/.test(t)) return { id: Number(t) };
    if ((kind === 'lead' || kind === 'lead-label') && UUID.test(t)) return { id: t };
    const spec = KINDS[kind];
    let within: string | undefined;
    if (opts.within !== undefined && spec.parent) {
      const parent = await this.idOf(spec.parent.kind, opts.within);
      if ('rule' in parent) return parent;
      within = String(parent.id);
    }
    const index = await this.index(kind);
    const hits = (index.get(normName(t)) ?? []).filter((e) => within === undefined || e.parent === within);
    if (hits.length === 1) return { id: hits[0]!.ref, entry: hits[0] };
    if (hits.length > 1) return { rule: ambiguousRule(kind, t, hits) };
    const entries = await this.whole(kind);
    return { rule: noMatchRule(kind, t, entries.filter((e) => within === undefined || e.parent === within)) };
  }

  /**
   * The names that carry links to another account: each id's key (see NameStyle) when that key finds
   * this record again, and why not otherwise (another record has the name, or no record has the id).
   * Reads the kind's whole list once.
   */
  async carried(kind: LinkKind, ids: Iterable<unknown>): Promise<{ names: Map<string, string>; not: Map<string, string> }> {
    const names = new Map<string, string>();
    const not = new Map<string, string>();
    const wanted = [...new Set([...ids].flatMap(linkIds))];
    if (!wanted.length) return { names, not };
    const index = await this.index(kind);
    const map = this.map(kind);
    for (const id of wanted) {
      const e = map.get(id);
      if (!e) {
        not.set(id, `no ${KINDS[kind].noun} with this id can be read`);
        continue;
      }
      const same = index.get(normName(e.key)) ?? [];
      if (same.length === 1) names.set(id, e.key);
      else not.set(id, `${same.length} ${KINDS[kind].plural} are called "${e.key}"`);
    }
    return { names, not };
  }

  /** Every name, key and alias of a kind's records → the records it finds (several when a name repeats). */
  private index(kind: LinkKind): Promise<Map<string, LinkEntry[]>> {
    let p = this.indexes.get(kind);
    if (!p) {
      p = this.whole(kind).then(async (entries) => {
        await this.keyed(kind);
        const out = new Map<string, LinkEntry[]>();
        for (const e of entries) {
          for (const n of new Set([e.key, e.shown, ...e.aliases].map(normName))) {
            const list = out.get(n) ?? [];
            list.push(e);
            out.set(n, list);
          }
        }
        return out;
      });
      this.indexes.set(kind, p);
      p.catch(() => this.indexes.delete(kind));
    }
    return p;
  }

  // ---- custom fields and options --------------------------------------------------------------

  /** The item type's field catalog (custom fields by name, options by label), read once per resolver. */
  catalog(itemType: ItemType): Promise<FieldCatalog> {
    let c = this.catalogs.get(itemType);
    if (!c) {
      c = fieldCatalog(this.reader, itemType, this.owner);
      this.catalogs.set(itemType, c);
    }
    return c;
  }

  /** An option of a field (a product's category, a custom field's option) by its label, or its id. */
  async optionOf(itemType: ItemType, field: string, text: string): Promise<Resolved> {
    const f = (await this.catalog(itemType)).field(field);
    const t = text.trim();
    const options = f?.options ?? [];
    const hits = options.filter((o) => normName(o.label) === normName(t));
    if (hits.length === 1) return { id: hits[0]!.id };
    const byId = options.find((o) => String(o.id) === t);
    if (byId) return { id: byId.id };
    return { rule: `${f?.name ?? field}: ${optionRule(t, options.map((o) => o.label))}` };
  }

  /** The labels of a field's options, by option id (as text). */
  async optionLabels(itemType: ItemType, field: string): Promise<Map<string, string>> {
    const f = (await this.catalog(itemType)).field(field);
    return new Map((f?.options ?? []).map((o) => [String(o.id), o.label]));
  }

  // ---- reading ------------------------------------------------------------------------------

  private map(kind: LinkKind): Map<string, LinkEntry> {
    let m = this.known.get(kind);
    if (!m) {
      m = new Map();
      this.known.set(kind, m);
    }
    return m;
  }

  private async load(kind: LinkKind, ids: string[], opts: NamesOptions): Promise<void> {
    const spec = KINDS[kind];
    const map = this.map(kind);
    const unknown = ids.filter((id) => !map.has(id) && !this.missing.get(kind)?.has(id));
    if (!unknown.length) return;
    if (spec.read === 'ids' && !opts.whole && !this.lists.has(kind)) return this.readByIds(kind, unknown);
    const parent = spec.parent?.listedUnder ? linkIds(opts.parent)[0] : undefined;
    await this.whole(kind, parent);
  }

  private async readByIds(kind: LinkKind, ids: string[]): Promise<void> {
    const spec = KINDS[kind];
    const op = await spec.list!();
    const map = this.map(kind);
    for (let i = 0; i < ids.length; i += IDS_PER_READ) {
      const chunk = ids.slice(i, i + IDS_PER_READ);
      for await (const r of this.reader.readAll(op, { query: { ids: chunk.map(Number), limit: chunk.length } }, { all: true })) this.add(kind, map, r);
      const missing = this.missing.get(kind) ?? new Set<string>();
      for (const id of chunk) if (!map.has(id)) missing.add(id);
      this.missing.set(kind, missing);
    }
  }

  /** A kind's whole list (under one parent, for kinds listed per parent), read once and kept. */
  private whole(kind: LinkKind, parent?: string): Promise<LinkEntry[]> {
    const spec = KINDS[kind];
    // A kind listed per parent without one: every parent's list (boards are few).
    const key = spec.parent?.listedUnder && parent !== undefined ? `${kind}:${parent}` : kind;
    const read = this.lists.get(key);
    if (read) return read;
    const p = this.readWhole(kind, parent);
    this.lists.set(key, p);
    // A failed read is not kept: the next caller tries again (and says why).
    p.catch(() => this.lists.delete(key));
    return p;
  }

  private async readWhole(kind: LinkKind, parent?: string): Promise<LinkEntry[]> {
    const spec = KINDS[kind];
    const map = this.map(kind);
    const out: LinkEntry[] = [];
    if (spec.read === 'fields') {
      const { itemType, key } = spec.labelField!;
      for (const o of (await this.catalog(itemType)).field(key)?.options ?? []) {
        const e: LinkEntry = { id: String(o.id), ref: o.id, shown: o.label, key: o.label, aliases: [] };
        map.set(e.id, e);
        out.push(e);
      }
      return out;
    }
    const op = await spec.list!();
    if (spec.parent?.listedUnder) {
      const parents = parent !== undefined ? [parent] : (await this.whole(spec.parent.kind)).map((p) => p.id);
      for (const p of parents) {
        for await (const r of this.reader.readAll(op, { query: { [spec.parent.field]: Number(p) } }, { all: true })) {
          const e = this.add(kind, map, r, p);
          if (e) out.push(e);
        }
      }
    } else {
      for await (const r of this.reader.readAll(op, {}, { all: true })) {
        const e = this.add(kind, map, r);
        if (e) out.push(e);
      }
    }
    return out;
  }

  private add(kind: LinkKind, map: Map<string, LinkEntry>, r: unknown, parent?: string): LinkEntry | undefined {
    if (!r || typeof r !== 'object') return undefined;
    const base = KINDS[kind].entry(r as Record<string, unknown>);
    if (!base) return undefined;
    const e: LinkEntry = { ...base, parent: base.parent ?? parent, key: kind === 'user' ? (typeof (r as { email?: unknown }).email === 'string' ? String((r as { email: string }).email) : base.shown) : base.shown };
    map.set(e.id, e);
    return e;
  }

  /**
   * A stage's key is "Pipeline/Stage", a phase's "Board/Phase": one syntax, unique in the account.
   * Set only when a key is asked (a table shows names and reads no parents).
   */
  private keyed(kind: LinkKind): Promise<void> {
    const spec = KINDS[kind];
    if (!spec.parent) return Promise.resolve();
    let p = this.keyedKinds.get(kind);
    if (!p) {
      p = (async () => {
        const parents = new Map((await this.whole(spec.parent!.kind)).map((x) => [x.id, x.shown]));
        for (const e of this.map(kind).values()) e.key = `${e.parent !== undefined ? (parents.get(e.parent) ?? e.parent) : '?'}/${e.shown}`;
      })();
      this.keyedKinds.set(kind, p);
      p.catch(() => this.keyedKinds.delete(kind));
    }
    return p;
  }
}

/** Resolvers shared per run: the entry's user names and the importer's columns read the users list once. */
const shared = new WeakMap<object, LinkNames>();

/**
 * The resolver of a run or command: one per `reader.memo` (an import's reads), else per owner (the
 * CLI Context), so every part of one command reads each list once.
 */
export function linkNames(reader: CheckReader, owner: Reader = reader): LinkNames {
  const key: object = reader.memo ?? owner;
  let r = shared.get(key);
  if (!r) {
    r = new LinkNames(reader, owner);
    shared.set(key, r);
  }
  return r;
}
