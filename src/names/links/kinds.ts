import type { Operation } from '../../api/operation.js';
import type { ItemType } from '../catalog.js';

// The one vocabulary of linked records (issue 30.6): every kind a record links to by id, how its list
// is read, what a record of it is called, and what records carry to point at it. Tables, export name
// columns, import, `--where`, custom values by name and restore all name links through these kinds.

/** An item type whose records carry labels (lead labels are a list of their own; the others are the options of a label field). */
export type LabelOwner = 'deal' | 'person' | 'organization' | 'lead' | 'project';

export type LabelKind = `${LabelOwner}-label`;

/** Every kind of linked record, named once. */
export type LinkKind =
  | 'organization' | 'person' | 'deal' | 'lead' | 'product' | 'project'
  | 'user' | 'stage' | 'pipeline' | 'board' | 'phase'
  | 'activity-type' | 'currency'
  | LabelKind;

export const LABEL_KINDS: readonly LabelKind[] = ['deal-label', 'person-label', 'organization-label', 'lead-label', 'project-label'];

export const isLabelKind = (k: string): k is LabelKind => (LABEL_KINDS as readonly string[]).includes(k);

/** The label kind of an item type's `label_ids` (leads' are lead labels; activities and products have none). */
export function labelKindOf(itemType: ItemType | undefined): LabelKind | undefined {
  return itemType === 'deal' || itemType === 'person' || itemType === 'organization' || itemType === 'lead' || itemType === 'project' ? `${itemType}-label` : undefined;
}

/** One record of a kind as the resolver keeps it. */
export interface LinkEntry {
  /** The record's id as text (integers and UUIDs alike), the key of every map. */
  id: string;
  /** What other records carry to point at it: the id, or an activity type's key_string, a currency's code. */
  ref: number | string;
  /** What the web app shows: a name, a deal's title, a user's name. */
  shown: string;
  /** The name that finds it again in another account: a user's e-mail, "Pipeline/Stage", "Board/Phase". */
  key: string;
  /** Other names it answers to (a user's name beside the e-mail, an activity type's key_string, a currency's code). */
  aliases: string[];
  /** The id of the record it lives under (a stage's pipeline, a phase's board). */
  parent?: string;
}

export interface KindSpec {
  /** How messages name one record of the kind ("organization", "stage"). */
  noun: string;
  plural: string;
  /**
   * How the kind is read: `whole` lists (few records: users, stages, labels) are read once, every
   * page; `ids` lists (records by the thousand) are read by `ids=` the ids a caller asks about, or
   * whole when a name must be found; `fields`: labels that are options of an item type's label field.
   */
  read: 'whole' | 'ids' | 'fields';
  list?: () => Promise<Operation>;
  /** The kind a record lives under, and the member that names it (stages in pipelines, phases in boards). */
  parent?: { kind: LinkKind; field: string; listedUnder?: boolean };
  /** The field of the item type whose options are the labels (read: 'fields'). */
  labelField?: { itemType: ItemType; key: string };
  /** A list record → the entry; undefined for a record without a usable id or name. */
  entry(r: Record<string, unknown>): Omit<LinkEntry, 'key' | 'parent'> & { parent?: string } | undefined;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const idText = (v: unknown): string | undefined => (typeof v === 'number' || (typeof v === 'string' && v !== '') ? String(v) : undefined);

/** A record named by `field` (name or title), pointed at by its id. */
const named = (field: 'name' | 'title') => (r: Record<string, unknown>) => {
  const id = idText(r.id);
  const shown = text(r[field]);
  return id === undefined || shown === undefined ? undefined : { id, ref: r.id as number | string, shown, aliases: [] };
};

const op = <T>(load: () => Promise<T>, pick: (m: T) => Operation) => async () => pick(await load());

export const KINDS: Record<LinkKind, KindSpec> = {
  organization: { noun: 'organization', plural: 'organizations', read: 'ids', list: op(() => import('../../api/operations/organizations.js'), (m) => m.organizationOps.list), entry: named('name') },
  person: { noun: 'person', plural: 'persons', read: 'ids', list: op(() => import('../../api/operations/persons.js'), (m) => m.personOps.list), entry: named('name') },
  deal: { noun: 'deal', plural: 'deals', read: 'ids', list: op(() => import('../../api/operations/deals.js'), (m) => m.dealOps.list), entry: named('title') },
  product: { noun: 'product', plural: 'products', read: 'ids', list: op(() => import('../../api/operations/products.js'), (m) => m.productOps.list), entry: named('name') },
  // Leads and projects have no `ids=` filter: their lists are read whole, once.
  lead: { noun: 'lead', plural: 'leads', read: 'whole', list: op(() => import('../../api/operations/leads.js'), (m) => m.leadOps.list), entry: named('title') },
  project: { noun: 'project', plural: 'projects', read: 'whole', list: op(() => import('../../api/operations/projects.js'), (m) => m.projectOps.list), entry: named('title') },
  user: {
    noun: 'user', plural: 'users', read: 'whole', list: op(() => import('../../api/operations/users.js'), (m) => m.userOps.list),
    entry: (r) => {
      const id = idText(r.id);
      const name = text(r.name);
      const email = text(r.email);
      if (id === undefined || (name ?? email) === undefined) return undefined;
      return { id, ref: r.id as number, shown: name ?? email!, aliases: email && name ? [name] : [] };
    },
  },
  stage: {
    noun: 'stage', plural: 'stages', read: 'whole', list: op(() => import('../../api/operations/stages.js'), (m) => m.stageOps.list),
    parent: { kind: 'pipeline', field: 'pipeline_id' },
    entry: (r) => ({ ...named('name')(r)!, parent: idText(r.pipeline_id) }),
  },
  pipeline: { noun: 'pipeline', plural: 'pipelines', read: 'whole', list: op(() => import('../../api/operations/pipelines.js'), (m) => m.pipelineOps.list), entry: named('name') },
  board: { noun: 'board', plural: 'boards', read: 'whole', list: op(() => import('../../api/operations/boards.js'), (m) => m.boardOps.list), entry: named('name') },
  phase: {
    noun: 'phase', plural: 'phases', read: 'whole', list: op(() => import('../../api/operations/phases.js'), (m) => m.phaseOps.list),
    // The phase list is read per board (its query parameter board_id).
    parent: { kind: 'board', field: 'board_id', listedUnder: true },
    entry: (r) => ({ ...named('name')(r)!, parent: idText(r.board_id) }),
  },
  'activity-type': {
    noun: 'activity type', plural: 'activity types', read: 'whole', list: op(() => import('../../api/operations/activity-types.js'), (m) => m.activityTypeOps.list),
    // Activities carry the type's key_string ("call"), not its id.
    entry: (r) => {
      const id = idText(r.id);
      const name = text(r.name);
      const keyString = text(r.key_string);
      return id === undefined || name === undefined || keyString === undefined ? undefined : { id, ref: keyString, shown: name, aliases: [keyString] };
    },
  },
  currency: {
    noun: 'currency', plural: 'currencies', read: 'whole', list: op(() => import('../../api/operations/currencies.js'), (m) => m.currencyOps.list),
    // Records carry a currency's code ("EUR"), which is the same in every account.
    entry: (r) => {
      const id = idText(r.id ?? r.code);
      const code = text(r.code);
      return id === undefined || code === undefined ? undefined : { id, ref: code, shown: code, aliases: text(r.name) ? [String(r.name)] : [] };
    },
  },
  'lead-label': { noun: 'lead label', plural: 'lead labels', read: 'whole', list: op(() => import('../../api/operations/lead-labels.js'), (m) => m.leadLabelOps.list), entry: named('name') },
  // Deals keep the v1 key `label` for the field whose options are their labels.
  'deal-label': { noun: 'deal label', plural: 'deal labels', read: 'fields', labelField: { itemType: 'deal', key: 'label' }, entry: () => undefined },
  'person-label': { noun: 'person label', plural: 'person labels', read: 'fields', labelField: { itemType: 'person', key: 'label_ids' }, entry: () => undefined },
  'organization-label': { noun: 'organization label', plural: 'organization labels', read: 'fields', labelField: { itemType: 'organization', key: 'label_ids' }, entry: () => undefined },
  'project-label': { noun: 'project label', plural: 'project labels', read: 'fields', labelField: { itemType: 'project', key: 'label_ids' }, entry: () => undefined },
};

export const LINK_KINDS = Object.keys(KINDS) as LinkKind[];

/** Custom field types whose value is the id of a linked record, and the kind of record (user, org, people fields). */
export const CUSTOM_FIELD_LINKS: Readonly<Record<string, 'user' | 'organization' | 'person'>> = { user: 'user', org: 'organization', people: 'person' };
