import type { FieldCatalog, FieldInfo, ItemType } from '../catalog.js';
import { csvRecord, namedValue, rawCustomValues } from '../read.js';
import { type NameColumn, nameColumnsOf } from './columns.js';
import { CUSTOM_FIELD_LINKS, KINDS, type LinkKind } from './kinds.js';
import { type LinkNames, linkIds } from './resolver.js';

// What an export writes so its file imports into another account (issue 30.4): beside each link id
// the name that finds the linked record there (the name columns of columns.ts), and each custom value
// under its field's name with options as labels and linked records by name. The service's own members
// stay as they are; import takes the names and leaves the ids (and the hash keys) out.

type Rec = Record<string, unknown>;

const LINKED = CUSTOM_FIELD_LINKS;

/** Kinds whose records carry something other than an id (an activity's type is its key_string). */
const BY_REF: ReadonlySet<LinkKind> = new Set(['activity-type', 'currency']);

const refsOf = (kind: LinkKind, v: unknown): string[] => (BY_REF.has(kind) ? (typeof v === 'string' && v !== '' ? [v] : []) : linkIds(v));

/**
 * Names the links of an export's records. One per export: each linked list is read once (whole: an
 * export names every page), and what could not be carried is gathered for one warning at the end.
 */
export class RecordNames {
  /** Links that could not be carried by name: id member → records affected and why. */
  private readonly lost = new Map<string, { records: number; why: Set<string> }>();
  private readonly columns: NameColumn[];

  /**
   * `readOnlyLinks`: link members the kind's create does not take (a deal's source_lead_id, set by a
   * conversion): when a record has one, it is named in the warning (import leaves it out).
   */
  constructor(private readonly names: LinkNames, readonly itemType: ItemType | undefined, private readonly noun: string, private readonly readOnlyLinks: ReadonlySet<string> = new Set()) {
    this.columns = nameColumnsOf(itemType);
  }

  /**
   * Copies of the records with each link's name right after its id member (`org_id`, `org_name`),
   * and, with `custom`, the custom values by field name: under `fields` (NDJSON, JSON: the member
   * import and `--field` take) or as the CSV cells of src/names/read.ts csvRecord (columns by name).
   * `only`: the name columns to fill (the others are not read). `custom.currency`: the account's, for
   * an amount stored without one (src/names/read.ts namedValue).
   */
  async annotate(records: unknown[], opts: { custom?: { catalog: FieldCatalog; form: 'fields' | 'cells'; currency?: string }; only?: readonly string[] } = {}): Promise<unknown[]> {
    const { custom } = opts;
    const recs = records.filter((r): r is Rec => Boolean(r) && typeof r === 'object' && !Array.isArray(r));
    const named = new Map<string, Map<string, string>>();
    const columns = opts.only ? this.columns.filter((c) => opts.only!.includes(c.name)) : this.columns;
    for (const c of columns) {
      // A name the record already has (a sample names its links from its own records) is not read again.
      const values = recs.filter((r) => r[c.name] === undefined).map((r) => r[c.id]).filter((v) => v !== undefined && v !== null && v !== '');
      if (!values.length) continue;
      named.set(c.id, await this.namesFor(c, values, recs));
    }
    const linked = custom ? await this.customLinks(custom.catalog, recs) : undefined;
    for (const k of this.readOnlyLinks) {
      const n = recs.filter((r) => r[k] !== undefined && r[k] !== null && r[k] !== '').length;
      if (n) this.note(k, n, 'the create does not take it (set by the service)');
    }
    return records.map((r) => {
      if (!r || typeof r !== 'object' || Array.isArray(r)) return r;
      const out: Rec = {};
      for (const [k, v] of Object.entries(r as Rec)) {
        out[k] = v;
        const c = columns.find((x) => x.id === k);
        if (!c || (r as Rec)[c.name] !== undefined) continue;
        const names = named.get(c.id);
        const target = 'kind' in c.target ? c.target.kind : undefined;
        const ids = target ? refsOf(target, v) : linkIds(v);
        const list = ids.map((id) => names?.get(id)).filter((x): x is string => x !== undefined);
        out[c.name] = c.many ? (custom?.form === 'cells' && list.some((x) => x.includes(',')) ? JSON.stringify(list) : list) : (list[0] ?? null);
      }
      if (!custom || !linked) return out;
      if (custom.form === 'cells') return namedCustomCells(custom.catalog, csvRecord(custom.catalog, out, custom.currency) as Rec, linked);
      const fields = fieldsOf(custom.catalog, r as Rec, linked, custom.currency);
      return Object.keys(fields).length ? { ...out, fields } : out;
    });
  }

  /** One line naming every link the export could not carry by name, or undefined when every one was. */
  warning(): string | undefined {
    if (!this.lost.size) return undefined;
    const parts = [...this.lost].map(([id, x]) => `${id} of ${x.records} ${this.noun} (${[...x.why].slice(0, 3).join('; ')}${x.why.size > 3 ? '; ...' : ''})`);
    return `links not carried by name (an import into another account leaves them out): ${parts.join(', ')}`;
  }

  private note(id: string, records: number, ...why: string[]): void {
    const x = this.lost.get(id) ?? { records: 0, why: new Set<string>() };
    x.records += records;
    for (const w of why) x.why.add(w);
    this.lost.set(id, x);
  }

  /** The names of one link member's values: the keys that find each record again, and the losses noted. */
  private async namesFor(c: NameColumn, values: unknown[], recs: Rec[]): Promise<Map<string, string>> {
    if ('option' in c.target) {
      const labels = await this.names.optionLabels(c.target.option.itemType, c.target.option.field);
      const unknown = values.flatMap(linkIds).filter((id) => !labels.has(id));
      if (unknown.length) this.note(c.id, unknown.length, `option ${unknown[0]} is no option of ${c.target.option.field}`);
      return labels;
    }
    const kind = c.target.kind;
    const { names, not } = BY_REF.has(kind) ? await this.byRef(kind, values) : await this.names.carried(kind, values);
    if (not.size) this.note(c.id, recs.filter((r) => refsOf(kind, r[c.id]).some((id) => not.has(id))).length, ...not.values());
    return names;
  }

  /** Activity types (and currencies) are carried by their key_string (code): named by the record they stand for. */
  private async byRef(kind: LinkKind, values: unknown[]): Promise<{ names: Map<string, string>; not: Map<string, string> }> {
    const names = new Map<string, string>();
    const not = new Map<string, string>();
    for (const ref of new Set(values.flatMap((v) => refsOf(kind, v)))) {
      const r = await this.names.idOf(kind, ref);
      if ('rule' in r || !r.entry) not.set(ref, `no ${KINDS[kind].noun} "${ref}"`);
      else names.set(ref, r.entry.shown);
    }
    return { names, not };
  }

  /** The names of the records that custom fields of type user, organization and person point at. */
  private async customLinks(cat: FieldCatalog, recs: Rec[]): Promise<Map<LinkKind, Map<string, string>>> {
    const out = new Map<LinkKind, Map<string, string>>();
    for (const f of cat.custom) {
      const kind = LINKED[f.type];
      if (!kind) continue;
      const ids = recs.flatMap((r) => linkIds(rawCustomValues(cat, r)[f.key]));
      if (!ids.length) continue;
      const { names, not } = await this.names.carried(kind, ids);
      if (not.size) this.note(f.name, recs.filter((r) => linkIds(rawCustomValues(cat, r)[f.key]).some((id) => not.has(id))).length, [...not.values()][0]!);
      const known = out.get(kind) ?? new Map<string, string>();
      for (const [id, n] of names) known.set(id, n);
      out.set(kind, known);
    }
    return out;
  }
}

/**
 * A record's custom values by field name, in the form `fields` takes at every door (`--field`, an
 * import row, a fixture): option labels, `{value, currency}` for money, "START/END" for ranges, a
 * linked record's name (a user's e-mail). Only values that are set.
 */
export function fieldsOf(cat: FieldCatalog, record: Rec, linked: Map<LinkKind, Map<string, string>>, currency?: string): Rec {
  const values = rawCustomValues(cat, record);
  const out: Rec = {};
  for (const f of cat.custom) {
    const v = namedValue(cat, f, values, currency);
    if (v === null || v === undefined) continue;
    out[f.name] = fieldValue(f, v, linked);
  }
  return out;
}

function fieldValue(f: FieldInfo, v: unknown, linked: Map<LinkKind, Map<string, string>>): unknown {
  const kind = LINKED[f.type];
  if (kind) {
    const [id] = linkIds(v);
    return id === undefined ? v : (linked.get(kind)?.get(id) ?? v);
  }
  if ((f.type === 'daterange' || f.type === 'timerange') && v && typeof v === 'object') {
    const r = v as { value?: unknown; until?: unknown };
    return r.until === null || r.until === undefined ? r.value : `${String(r.value)}/${String(r.until)}`;
  }
  return v;
}

/** A CSV row's custom cells (src/names/read.ts csvRecord) with linked records by name instead of ids. */
export function namedCustomCells(cat: FieldCatalog, row: Rec, linked: Map<LinkKind, Map<string, string>>): Rec {
  const out = { ...row };
  for (const f of cat.custom) {
    const kind = LINKED[f.type];
    if (!kind || !(f.name in out)) continue;
    const [id] = linkIds(out[f.name]);
    if (id !== undefined) out[f.name] = linked.get(kind)?.get(id) ?? out[f.name];
  }
  return out;
}
