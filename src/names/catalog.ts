import type { CheckReader, Reader } from '../api/entry-types.js';
import type { CustomFieldItemType, Operation } from '../api/operation.js';
import { nearest } from '../input/unknown-keys.js';
import { cacheLocationOf, loadCached, storeCached } from './cache.js';
import type { FieldInfo } from './types.js';

export type { FieldInfo, FieldOption } from './types.js';

/** Item types whose records carry custom fields (leads use the deal schema: interface, Conventions). */
export type ItemType = CustomFieldItemType;
export const ITEM_TYPES: readonly ItemType[] = ['deal', 'person', 'organization', 'product', 'project', 'lead', 'activity'];

/** The schema whose fields an item type's records use. */
export function schemaOf(itemType: ItemType): Exclude<ItemType, 'lead'> {
  return itemType === 'lead' ? 'deal' : itemType;
}

/** The v2 list of field metadata of one schema, loaded only when a command needs names. */
async function listOperation(schema: Exclude<ItemType, 'lead'>): Promise<Operation> {
  switch (schema) {
    case 'deal': return (await import('../api/operations/deal-fields.js')).dealFieldOps.list;
    case 'person': return (await import('../api/operations/person-fields.js')).personFieldOps.list;
    case 'organization': return (await import('../api/operations/organization-fields.js')).organizationFieldOps.list;
    case 'product': return (await import('../api/operations/product-fields.js')).productFieldOps.list;
    case 'project': return (await import('../api/operations/project-fields.js')).projectFieldOps.list;
    case 'activity': return (await import('../api/operations/activity-fields.js')).activityFieldOps.list;
  }
}

/**
 * The fields of one item type with lookups by name, key and option. Names are matched without regard
 * to case or surrounding spaces; a custom field's hash key is accepted wherever a name is.
 */
export class FieldCatalog {
  private readonly byKey = new Map<string, FieldInfo>();
  private readonly byName = new Map<string, FieldInfo>();

  constructor(readonly itemType: ItemType, readonly fields: readonly FieldInfo[]) {
    for (const f of fields) {
      this.byKey.set(f.key, f);
      // A custom field's name wins over a system field of the same name (the user made it).
      const n = norm(f.name);
      if (!this.byName.has(n) || f.custom) this.byName.set(n, f);
    }
  }

  /** Custom fields only, in the service's order. */
  get custom(): FieldInfo[] {
    return this.fields.filter((f) => f.custom);
  }

  /** The field a name (or a key) stands for. */
  field(nameOrKey: string): FieldInfo | undefined {
    return this.byKey.get(nameOrKey.trim()) ?? this.byName.get(norm(nameOrKey));
  }

  /** The custom field a name (or its hash key) stands for. */
  customField(nameOrKey: string): FieldInfo | undefined {
    const f = this.field(nameOrKey);
    return f?.custom ? f : this.custom.find((c) => norm(c.name) === norm(nameOrKey));
  }

  /** The record key of a field name ("Lead score" → its hash), or undefined. */
  keyOf(name: string): string | undefined {
    return this.field(name)?.key;
  }

  /** The name of a record key (hash → "Lead score"), or undefined for keys that are no field's. */
  nameOf(key: string): string | undefined {
    return this.byKey.get(key)?.name;
  }

  /** The label of an option id of a field (key or name), or undefined. */
  labelOf(field: string, optionId: unknown): string | undefined {
    return this.field(field)?.options.find((o) => String(o.id) === String(optionId))?.label;
  }

  /** The option id of a label (or of an id given as text) of a field, or undefined. */
  optionIdOf(field: string, label: unknown): number | string | undefined {
    const f = this.field(field);
    const text = String(label).trim().toLowerCase();
    return f?.options.find((o) => o.label.toLowerCase() === text)?.id ?? f?.options.find((o) => String(o.id) === text)?.id;
  }

  /** The custom field name nearest to a misspelt one (for "did you mean"). */
  nearestCustom(name: string): string | undefined {
    return nearest(name.trim(), this.custom.map((c) => c.name));
  }
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * Fields read in this process that the disk cache could not keep (a read-only config directory), so a
 * command (or an MCP session) still reads each schema at most once per TTL. Kept fields the disk holds
 * are read from the disk each time: a field command of another process (`deal-fields update` beside a
 * running `crmctl mcp`) drops them there, and the next call reads the new names.
 */
const inProcess = new Map<string, { at: number; fields: FieldInfo[] }>();

/**
 * The field catalog of an item type: from the per-profile cache when it is fresh (see cache.ts for the
 * TTL), else one read of the type's v2 field list (all pages), then kept. Leads read the deal fields.
 * `reader` is any CheckReader; when `owner` (default: the reader) has a profile (a CLI Context), the
 * catalog is cached on disk under the config directory, per profile and API address.
 */
export async function fieldCatalog(reader: CheckReader, itemType: ItemType, owner: Reader = reader): Promise<FieldCatalog> {
  const schema = schemaOf(itemType);
  const where = await cacheLocationOf(owner);
  const memoKey = `${where?.file ?? ''}\u0000${schema}`;
  const now = Date.now();
  const ttl = where?.ttlMs ?? 0;
  if (where && ttl > 0) {
    const cached = loadCached(where, schema, now);
    if (cached) {
      reader.debug(`field names of ${schema}: from the cache ${where.file}`);
      return new FieldCatalog(itemType, cached);
    }
    const kept = inProcess.get(memoKey);
    if (kept && now - kept.at < ttl) return new FieldCatalog(itemType, kept.fields);
  }
  const fields: FieldInfo[] = [];
  for await (const r of reader.readAll(await listOperation(schema), {}, { all: true })) {
    const rec = r as { field_code?: unknown; field_name?: unknown; field_type?: unknown; is_custom_field?: unknown; options?: unknown };
    if (typeof rec.field_code !== 'string') continue;
    const options = Array.isArray(rec.options) ? (rec.options as Array<{ id: number | string; label: string }>).map((o) => ({ id: o.id, label: String(o.label) })) : [];
    fields.push({ key: rec.field_code, name: String(rec.field_name ?? rec.field_code), type: String(rec.field_type ?? 'varchar'), custom: rec.is_custom_field === true, options });
  }
  reader.debug(`field names of ${schema}: read ${fields.length} fields`);
  if (where && ttl > 0 && !storeCached(where, schema, fields, now)) inProcess.set(memoKey, { at: now, fields });
  return new FieldCatalog(itemType, fields);
}

/**
 * Forgets the cached fields of a schema (or of every schema): the field commands call this after a
 * change, and a write the service refuses for an unknown field calls it so the next command reads again.
 */
export async function forgetFields(owner: Reader, itemType?: ItemType): Promise<void> {
  const where = await cacheLocationOf(owner);
  const schema = itemType && schemaOf(itemType);
  for (const k of [...inProcess.keys()]) if (!schema || k.endsWith(`\u0000${schema}`)) inProcess.delete(k);
  if (where) storeCached(where, schema, undefined, Date.now());
}
