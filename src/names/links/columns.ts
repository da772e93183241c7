import type { ItemType } from '../catalog.js';
import { labelKindOf, type LinkKind } from './kinds.js';

// The names that travel beside the ids of a record (export's name columns and NDJSON name members,
// import's name columns): ids belong to the account they came from, names carry over to another.

/** What a name column names: a linked record of a kind, or an option of a system field (a product's category). */
export type NameTarget = { kind: LinkKind } | { option: { itemType: ItemType; field: string } };

/** One link member of a record and the column (or member) that carries its name. */
export interface NameColumn {
  /** The member that holds the id (or ids, or the key_string of an activity type). */
  id: string;
  /** The column an export writes right after it, and import reads back. */
  name: string;
  target: NameTarget;
  /** The member holds a list of ids (label_ids): the names are a list too. */
  many?: boolean;
}

/** Link members by name, whatever the item type (users by e-mail: names may repeat, e-mails do not). */
const COMMON: ReadonlyArray<Omit<NameColumn, 'target'> & { kind: LinkKind }> = [
  { id: 'org_id', name: 'org_name', kind: 'organization' },
  { id: 'organization_id', name: 'organization_name', kind: 'organization' },
  { id: 'person_id', name: 'person_name', kind: 'person' },
  { id: 'owner_id', name: 'owner_email', kind: 'user' },
  { id: 'user_id', name: 'user_email', kind: 'user' },
  // One stage syntax everywhere: "Pipeline/Stage" (a bare stage name, with the pipeline in a column of its own, is still read).
  { id: 'stage_id', name: 'stage_name', kind: 'stage' },
  { id: 'pipeline_id', name: 'pipeline_name', kind: 'pipeline' },
  // Titles need not be unique: import takes one only when it finds one record (export says which links it could not carry).
  { id: 'deal_id', name: 'deal_title', kind: 'deal' },
  { id: 'lead_id', name: 'lead_title', kind: 'lead' },
  { id: 'project_id', name: 'project_title', kind: 'project' },
  { id: 'board_id', name: 'board_name', kind: 'board' },
  // "Board/Phase", as stages.
  { id: 'phase_id', name: 'phase_name', kind: 'phase' },
];

/** The name columns of an item type's records (`label_ids` by its labels' names, an activity's `type` by name, a product's category by label). */
export function nameColumnsOf(itemType: ItemType | undefined): NameColumn[] {
  const out: NameColumn[] = COMMON.map(({ kind, ...c }) => ({ ...c, target: { kind } }));
  const labels = labelKindOf(itemType);
  if (labels) out.push({ id: 'label_ids', name: 'label_names', target: { kind: labels }, many: true });
  if (itemType === 'activity') out.push({ id: 'type', name: 'type_name', target: { kind: 'activity-type' } });
  if (itemType === 'product') out.push({ id: 'category', name: 'category_name', target: { option: { itemType: 'product', field: 'category' } } });
  return out;
}

/** Columns with each link's name column placed right after its id column (once). */
export function withNameColumns(columns: readonly string[], itemType: ItemType | undefined): string[] {
  const links = nameColumnsOf(itemType);
  // A name column whose id column is there goes right after it, wherever the records had it.
  const placed = new Set(links.filter((l) => columns.includes(l.id)).map((l) => l.name));
  const out: string[] = [];
  for (const c of columns) {
    if (out.includes(c) || placed.has(c)) continue;
    out.push(c);
    const link = links.find((l) => l.id === c);
    if (link) out.push(link.name);
  }
  return out;
}

/**
 * Header spellings (normalized: lower case, `_` for spaces) import reads as a link given by name, per
 * target kind, besides the name columns above: "Organization", "Company", "Owner", "Stage"...
 */
const SPELLINGS: Partial<Record<LinkKind, string[]>> = {
  organization: ['organization', 'organization_name', 'org', 'org_name', 'company'],
  person: ['person', 'person_name', 'contact', 'contact_name'],
  user: ['owner', 'owner_name', 'owner_email', 'user', 'user_email', 'user_name', 'assigned_to'],
  stage: ['stage', 'stage_name'],
  pipeline: ['pipeline', 'pipeline_name'],
};

/** A column that gives a link by name, and the body member its id fills. */
export interface NamedColumn {
  target: NameTarget;
  /** The body member the id goes to. */
  field: string;
  many?: boolean;
}

/** Kinds a body member can take by name, first one the operation has (organization_id of leads, org_id of the others). */
const FIELDS_OF: Partial<Record<LinkKind, string[]>> = { organization: ['org_id', 'organization_id'], user: ['owner_id', 'user_id'] };

/** Header (normalized) → the link it gives by name, for the top-level body members an operation has. */
export function namedColumns(itemType: ItemType | undefined, bodyKeys: ReadonlySet<string>): Map<string, NamedColumn> {
  const out = new Map<string, NamedColumn>();
  const columns = nameColumnsOf(itemType);
  for (const [kind, headers] of Object.entries(SPELLINGS) as Array<[LinkKind, string[]]>) {
    const field = (FIELDS_OF[kind] ?? columns.filter((c) => 'kind' in c.target && c.target.kind === kind).map((c) => c.id)).find((k) => bodyKeys.has(k));
    if (field) for (const h of headers) out.set(h, { target: { kind }, field });
  }
  // The name column of each link member the operation takes (deal_title for deal_id, label_names for label_ids...).
  for (const c of columns) if (bodyKeys.has(c.id) && !out.has(c.name)) out.set(c.name, { target: c.target, field: c.id, ...(c.many ? { many: true } : {}) });
  return out;
}
