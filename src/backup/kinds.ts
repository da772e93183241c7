/**
 * The record kinds of a backup, described once for everything that reads one: which file, which
 * custom-field schema, what each link field points at, the natural key of a record and whether the
 * kind is reference data (ids of configuration and users, never restored as records). How each kind
 * is read from the service is src/backup/read-plan.ts; this table imports nothing from the API, so
 * restore and diff load it without the operation tables.
 *
 * A link's target is a record kind of this table, or one of:
 *   `labels`   option ids of the item type's built-in label field (fields/<item>.json), read by label;
 *   `option:<key>`  an option of the item type's built-in field <key> (a product's `category`), read by label;
 *   `options:<field>` is not needed: custom fields are read by name through fields/<item>.json.
 */

export type ItemType = 'deal' | 'person' | 'organization' | 'product' | 'activity' | 'project' | 'lead';

export interface BackupKind {
  /** File stem: records/<name>.ndjson. */
  name: string;
  /** Custom fields of this schema (fields/<item>.json; leads use the deal schema). */
  itemType?: ItemType;
  /** Configuration or users, kept for their ids' names; restore carries them through config/ instead. */
  reference?: boolean;
  /** A child kind: the parent kind and the key every line carries first (`deal_id`). */
  parent?: { kind: string; key: string };
  /**
   * Link fields → the kind they point at. A path may step into lists of objects with `[]`
   * (`participants[].person_id`); a value may be an id, a list of ids, or `{ value: id }` (v1 links).
   */
  links: Record<string, string>;
  /** Fields naming the record when ids differ between accounts (diff without an id map), links by name. */
  natural: string[];
  /** The fields that identify a record that has no id of its own (followers). */
  identity?: string[];
}

const USER = 'users';

/** In restore order: what a record links to comes before it (reference kinds first). */
export const BACKUP_KINDS: readonly BackupKind[] = [
  { name: 'users', reference: true, links: {}, natural: ['email'] },
  { name: 'pipelines', reference: true, links: {}, natural: ['name'] },
  { name: 'stages', reference: true, links: { pipeline_id: 'pipelines' }, natural: ['pipeline_id', 'name'] },
  { name: 'lead-labels', reference: true, links: {}, natural: ['name'] },
  { name: 'activity-types', reference: true, links: {}, natural: ['key_string'] },
  { name: 'boards', reference: true, links: {}, natural: ['name'] },
  { name: 'phases', reference: true, links: { board_id: 'boards' }, natural: ['board_id', 'name'] },
  { name: 'organizations', itemType: 'organization', links: { owner_id: USER, label_ids: 'labels' }, natural: ['name'] },
  { name: 'organization-followers', parent: { kind: 'organizations', key: 'org_id' }, links: { org_id: 'organizations', user_id: USER }, natural: ['org_id', 'user_id'], identity: ['org_id', 'user_id'] },
  { name: 'persons', itemType: 'person', links: { owner_id: USER, org_id: 'organizations', label_ids: 'labels' }, natural: ['name', 'org_id'] },
  { name: 'person-followers', parent: { kind: 'persons', key: 'person_id' }, links: { person_id: 'persons', user_id: USER }, natural: ['person_id', 'user_id'], identity: ['person_id', 'user_id'] },
  // A product's category is an option of the built-in Category field: the list gives its id (or, in some accounts, its name).
  { name: 'products', itemType: 'product', links: { owner_id: USER, category: 'option:category' }, natural: ['name', 'code'] },
  { name: 'product-variations', parent: { kind: 'products', key: 'product_id' }, links: { product_id: 'products' }, natural: ['product_id', 'name'] },
  ...['deals', 'deals-archived'].map((name): BackupKind => ({
    name, itemType: 'deal',
    links: { owner_id: USER, person_id: 'persons', org_id: 'organizations', pipeline_id: 'pipelines', stage_id: 'stages', label_ids: 'labels' },
    natural: ['title', 'org_id', 'person_id'],
  })),
  { name: 'deal-products', parent: { kind: 'deals', key: 'deal_id' }, links: { deal_id: 'deals', product_id: 'products', product_variation_id: 'product-variations' }, natural: ['deal_id', 'product_id', 'order_nr'] },
  { name: 'deal-discounts', parent: { kind: 'deals', key: 'deal_id' }, links: { deal_id: 'deals' }, natural: ['deal_id', 'description'] },
  { name: 'deal-installments', parent: { kind: 'deals', key: 'deal_id' }, links: { deal_id: 'deals' }, natural: ['deal_id', 'billing_date', 'description'] },
  { name: 'deal-participants', parent: { kind: 'deals', key: 'deal_id' }, links: { deal_id: 'deals', person_id: 'persons' }, natural: ['deal_id', 'person_id'] },
  { name: 'deal-followers', parent: { kind: 'deals', key: 'deal_id' }, links: { deal_id: 'deals', user_id: USER }, natural: ['deal_id', 'user_id'], identity: ['deal_id', 'user_id'] },
  ...['leads', 'leads-archived'].map((name): BackupKind => ({
    name, itemType: 'lead',
    links: { owner_id: USER, person_id: 'persons', organization_id: 'organizations', label_ids: 'lead-labels' },
    natural: ['title', 'organization_id', 'person_id'],
  })),
  ...['projects', 'projects-archived'].map((name): BackupKind => ({
    name, itemType: 'project',
    links: { owner_id: USER, board_id: 'boards', phase_id: 'phases', deal_ids: 'deals', person_ids: 'persons', org_ids: 'organizations', label_ids: 'labels' },
    natural: ['title'],
  })),
  { name: 'tasks', links: { project_id: 'projects', parent_task_id: 'tasks', assignee_id: USER, assignee_ids: USER }, natural: ['project_id', 'title'] },
  {
    name: 'activities', itemType: 'activity',
    links: { owner_id: USER, user_id: USER, deal_id: 'deals', lead_id: 'leads', person_id: 'persons', org_id: 'organizations', project_id: 'projects', 'participants[].person_id': 'persons' },
    natural: ['subject', 'type', 'due_date', 'deal_id', 'lead_id', 'person_id', 'org_id'],
  },
  {
    name: 'notes',
    links: { user_id: USER, deal_id: 'deals', lead_id: 'leads', person_id: 'persons', org_id: 'organizations', project_id: 'projects', task_id: 'tasks' },
    natural: ['content', 'deal_id', 'lead_id', 'person_id', 'org_id', 'project_id'],
  },
  { name: 'note-comments', parent: { kind: 'notes', key: 'note_id' }, links: { note_id: 'notes', user_id: USER }, natural: ['note_id', 'content'] },
  {
    name: 'files',
    links: { user_id: USER, deal_id: 'deals', person_id: 'persons', org_id: 'organizations', product_id: 'products', activity_id: 'activities', lead_id: 'leads', project_id: 'projects' },
    // By name alone: the links are compared as fields (each through the id map).
    natural: ['file_name'],
  },
  {
    name: 'call-logs',
    links: { user_id: USER, activity_id: 'activities', person_id: 'persons', org_id: 'organizations', deal_id: 'deals', lead_id: 'leads' },
    natural: ['subject', 'start_time', 'person_id'],
  },
];

export const KIND_NAMES = BACKUP_KINDS.map((k) => k.name);

export function backupKind(name: string): BackupKind | undefined {
  return BACKUP_KINDS.find((k) => k.name === name);
}

/** Archived lists hold the same records as their plain list: a link to a deal may point into either file. */
export const SAME_RECORDS: Record<string, string[]> = {
  deals: ['deals', 'deals-archived'],
  leads: ['leads', 'leads-archived'],
  projects: ['projects', 'projects-archived'],
};

/**
 * Fields the service sets (ids, times, counts, the creator, names it copies from linked records):
 * diff never compares them, restore never sends them. One list, printed in docs/migrations.md ("What backup writes").
 */
export const SERVICE_SET_FIELDS: readonly string[] = [
  'id', 'add_time', 'update_time', 'created_at', 'updated_at', 'created', 'modified', 'creator_user_id', 'creator_id', 'created_by', 'updated_by',
  'last_update_user_id', 'updater_id', 'added_by_user_id', 'company_id', 'is_deleted', 'active_flag', 'cc_email', 'smart_bcc_email',
  'next_activity_id', 'last_activity_id', 'stage_change_time', 'close_time', 'won_time', 'lost_time', 'first_won_time', 'archive_time',
  'status_change_time', 'marked_as_done_time', 'last_incoming_mail_time', 'last_outgoing_mail_time', 'source_name', 'origin', 'source_lead_id',
  'source_deal_id', 'arr', 'mrr', 'acv', 'sum', 'picture_id', 'labels', 'url', 'remote_id', 'cid', 's3_bucket', 'uuid', 'object_id', 'object_type',
  'related_item_data', 'related_item_type', 'related_item_id', 'has_recording', 'deal', 'person', 'organization', 'project', 'task', 'user',
  'deal_name', 'person_name', 'org_name', 'product_name', 'lead_name', 'project_name', 'owner_name', 'is_you', 'last_login', 'access',
  // A file's size is counted from its bytes by the service; the bytes themselves are compared through bytes_sha256.
  'file_size',
];

/** Also service-set: every `…_count` (include_fields counts, children counted by the service). */
export const isServiceSet = (field: string): boolean => SERVICE_SET_FIELDS.includes(field) || field.endsWith('_count');
