import type { Operation } from '../api/operation.js';
import type { CheckReader, Reader } from '../api/entry-types.js';
import { UsageError } from '../core/errors.js';

/**
 * What an upsert matches records on (`--by`, `import --match-on`): a member of the record (email,
 * name, a searchable built-in field) or a custom field by name. Matching asks the service's search
 * (exact_match, one field) and then confirms the value on the record, because search also finds
 * partial and other-field matches; an import reads the kind's list once and indexes it the same way.
 */
export type UpsertKind = 'persons' | 'organizations' | 'deals' | 'products';
export const UPSERT_KINDS: readonly UpsertKind[] = ['persons', 'organizations', 'deals', 'products'];

export interface UpsertArea {
  kind: UpsertKind;
  noun: string;
  itemType: 'person' | 'organization' | 'deal' | 'product';
  /** The member that names a record (shown when several match). */
  title: string;
  /** Built-in keys the search can search, by the `--by` word → the search's `fields` value. */
  searchable: Record<string, string>;
  /** Built-in words that mean another one (`--by name` of a deal is its title). */
  aliases: Record<string, string>;
  ops(): Promise<{ create: Operation; update: Operation; get: Operation; search: Operation; list: Operation; delete: Operation }>;
}

export const UPSERT_AREAS: Record<UpsertKind, UpsertArea> = {
  persons: {
    kind: 'persons', noun: 'person', itemType: 'person', title: 'name',
    searchable: { email: 'email', name: 'name', phone: 'phone' }, aliases: { emails: 'email', phones: 'phone' },
    ops: async () => pick((await import('../api/operations/persons.js')).personOps),
  },
  organizations: {
    kind: 'organizations', noun: 'organization', itemType: 'organization', title: 'name',
    searchable: { name: 'name' }, aliases: {},
    ops: async () => pick((await import('../api/operations/organizations.js')).organizationOps),
  },
  deals: {
    kind: 'deals', noun: 'deal', itemType: 'deal', title: 'title',
    searchable: { title: 'title' }, aliases: { name: 'title' },
    ops: async () => pick((await import('../api/operations/deals.js')).dealOps),
  },
  products: {
    kind: 'products', noun: 'product', itemType: 'product', title: 'name',
    searchable: { name: 'name', code: 'code' }, aliases: {},
    ops: async () => pick((await import('../api/operations/products.js')).productOps),
  },
};

function pick(t: { create: Operation; update: Operation; get: Operation; search: Operation; list: Operation; delete: Operation }) {
  return { create: t.create, update: t.update, get: t.get, search: t.search, list: t.list, delete: t.delete };
}

/** Why a field cannot identify a record; said when --by names one. */
const REFUSED: Record<string, string> = {
  monetary: 'an amount is not an identity (many records share one, and it changes with currency and rounding)',
  address: 'an address is free text the service splits and reformats, so the same place matches differently',
};
/** Built-in members that are monetary or address values. */
const REFUSED_MEMBERS: Record<string, string> = { value: 'monetary', prices: 'monetary', address: 'address', postal_address: 'address' };
/** Custom field types the service's search searches (interface: persons search `fields`); address and monetary are refused above. */
const SEARCHABLE_CUSTOM = new Set(['varchar', 'text', 'varchar_auto', 'double', 'phone']);

export interface MatchKey {
  /** As the user wrote it, for messages (`email`, `Tax ID`). */
  label: string;
  /** The flag or option that named it (`--by`, `--match-on`). */
  flag: string;
  /** The search's `fields` value. */
  searchField: string;
  /** The body member (or custom field hash) that holds the value. */
  member: string;
  custom: boolean;
  /** Contact lists (emails, phones): the key is one of their values. */
  list: boolean;
  /** The value a prepared body gives for the key, or undefined. */
  valueOf(body: Record<string, unknown>): string | undefined;
  /** Every value a record carries for the key, normalized with `norm`. */
  valuesOf(record: Record<string, unknown>): string[];
  /** The form values are compared in (case-insensitive; a phone by its digits). */
  norm(value: string): string;
}

/** Case and surrounding spaces do not count (the service's exact_match is case-insensitive). */
export const normKey = (v: unknown): string => (typeof v === 'number' ? String(v) : String(v).trim().toLowerCase());
/** A phone number written with or without spaces and punctuation is one number (the search matches it so too). */
export const normPhone = (v: unknown): string => {
  const s = String(v).trim();
  const digits = s.replace(/[^\d]/g, '');
  return digits ? `${s.startsWith('+') ? '+' : ''}${digits}` : normKey(s);
};

const contactValues = (v: unknown): string[] =>
  Array.isArray(v) ? v.flatMap((x) => (typeof x === 'string' ? [x] : x && typeof x === 'object' && typeof (x as { value?: unknown }).value === 'string' ? [(x as { value: string }).value] : [])) : [];

/** The first primary value of a contact list, else its first value. */
function primaryOf(v: unknown): string | undefined {
  if (!Array.isArray(v)) return undefined;
  const items = v.filter((x) => x && typeof x === 'object') as Array<{ value?: unknown; primary?: unknown }>;
  const p = items.find((x) => x.primary === true) ?? items[0];
  return typeof p?.value === 'string' ? p.value : undefined;
}

/**
 * The key `word` names for an area: a searchable built-in member, or a custom field by name (read
 * from the field catalog). Monetary and address fields, and fields the search does not search, are
 * refused with the reason (exit 2, before anything is sent).
 */
export async function resolveMatchKey(reader: CheckReader, owner: Reader, area: UpsertArea, word: string, flag: string): Promise<MatchKey> {
  const given = word.trim();
  if (!given) throw new UsageError(`${flag}: give the field to match on (e.g. ${flag} ${Object.keys(area.searchable)[0]})`);
  const lower = given.toLowerCase().replace(/[\s-]+/g, '_');
  const builtin = area.aliases[lower] ?? lower;
  const refusedMember = REFUSED_MEMBERS[builtin];
  if (refusedMember) throw refusal(flag, given, refusedMember);
  const searchField = area.searchable[builtin];
  if (searchField) {
    const list = builtin === 'email' || builtin === 'phone';
    const member = list ? `${builtin}s` : builtin;
    const norm = builtin === 'phone' ? normPhone : normKey;
    return {
      label: given, flag, searchField, member, custom: false, list, norm,
      valueOf: (b) => (list ? primaryOf(b[member]) : scalarText(b[member])),
      valuesOf: (r) => (list ? contactValues(r[member]) : [r[member]].flatMap((v) => scalarText(v) ?? [])).map(norm),
    };
  }
  const choices = `${Object.keys(area.searchable).join(', ')}, or a custom field of type ${[...SEARCHABLE_CUSTOM].join(', ')}`;
  const [{ fieldsOf }, { create }] = await Promise.all([import('../input/fields.js'), area.ops()]);
  if (fieldsOf(create.body, 'body').some((x) => x.key.split('.')[0] === builtin)) {
    throw new UsageError(`${flag}: ${given} cannot be matched on: the service's ${area.noun} search does not search it; match on ${choices}`);
  }
  const { fieldCatalog } = await import('../names/catalog.js');
  const cat = await fieldCatalog(reader, area.itemType, owner);
  const f = cat.customField(given) ?? cat.field(given);
  if (!f) {
    const near = cat.nearestCustom(given);
    throw new UsageError(`${flag}: ${area.noun}s have no field "${given}"${near ? ` (did you mean "${near}"?)` : ''}; match on ${choices}`);
  }
  if (REFUSED[f.type]) throw refusal(flag, f.name, f.type);
  if (!f.custom) throw new UsageError(`${flag}: ${f.name} cannot be matched on: the service's ${area.noun} search does not search it; match on ${choices}`);
  if (!SEARCHABLE_CUSTOM.has(f.type)) throw new UsageError(`${flag}: ${f.name} (${f.type}) cannot be matched on: the service's search does not search ${f.type} fields; match on ${choices}`);
  const custom = (o: Record<string, unknown>) => (o.custom_fields && typeof o.custom_fields === 'object' ? (o.custom_fields as Record<string, unknown>) : {});
  const text = (v: unknown) => (f.type === 'double' && v !== null && v !== '' && Number.isFinite(Number(v)) ? String(Number(v)) : scalarText(v));
  const norm = f.type === 'phone' ? normPhone : normKey;
  return {
    label: f.name, flag, searchField: 'custom_fields', member: f.key, custom: true, list: false, norm,
    valueOf: (b) => text(custom(b)[f.key]),
    valuesOf: (r) => [custom(r)[f.key]].flatMap((v) => text(v) ?? []).map(norm),
  };
}

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function refusal(flag: string, name: string, type: string): UsageError {
  return new UsageError(`${flag}: ${name} is ${type === 'address' ? 'an address' : 'a monetary'} field and cannot identify a record: ${REFUSED[type]}`, 'Match on an email, a name, a code or a text custom field that is unique per record.');
}
