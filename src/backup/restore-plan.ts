/**
 * How restore writes each record kind (in BACKUP_KINDS order, what a record links to first): the create
 * operation, the parent whose new id goes into its path (children), what follows the create (archiving),
 * and how an ambiguous create (its answer lost, or a run killed after "sending") is settled: looked up
 * by content, through src/automation/content-lookup.ts descriptors where the kind has one.
 *
 * Kinds not listed here are not restored by this version; the report names them with the reason.
 */
import type { Operation } from '../api/operation.js';
import type { ContentDescriptor } from '../automation/content-lookup.js';
import { ops } from './ops.js';

type Rec = Record<string, unknown>;

export interface Settle {
  descriptor: ContentDescriptor;
  /** The list read to find the record; `updatedSince` when it takes updated_since (reads only what changed since the send). */
  list(): Promise<Operation>;
  updatedSince: boolean;
  /** A child's list is read under its parent's new id: in the path (`id`), or in a query list (`deal_ids`). */
  byParent?: boolean | { query: string };
  /**
   * The id map's new id of a found or created record, when the record has none of its own (a follower
   * is its user: `<parent's new id>-<user id>`, so one user following two records is two entries).
   */
  idOf?: (rec: Rec, parentId: unknown) => unknown;
}

export interface RestoreStep {
  kind: string;
  create(): Promise<Operation>;
  /** A child kind: the key its line carries the parent's (old) id in, and the parent kind. */
  parent?: { key: string; kind: string };
  /** Body keys renamed from the record's (`is_done` → `done`). */
  renames?: Record<string, string>;
  /**
   * After the create, one more write on the new record that its create cannot carry: archive it (an
   * archived list's records are created, then archived), put a file's description back (an upload
   * takes none). `body` gives the body from the backup's record, null when there is nothing to send.
   * Journaled as `<kind>:<old id>:<name>` once done, so --resume never sends it twice.
   */
  after?: { name: 'archive' | 'describe'; op(): Promise<Operation>; body?(rec: Rec): Rec | null };
  settle: Settle;
  /**
   * Looked up before every create, not only after an ambiguous one: the record may exist without this
   * restore having made it (the owner follows what it creates; the service refuses a second follow).
   */
  lookFirst?: boolean;
  /** The create is an upload: the record's bytes (DIR/files/<old id>) go as this multipart part. */
  upload?: { field: string };
  /**
   * The backup holds each parent's whole list of this kind (followers of a record that has more than one):
   * what the target's parent holds beyond it (the owner's own follow the service adds to what it creates)
   * is removed with this operation (path `id` and `follower_id`).
   */
  trim?(): Promise<Operation>;
}

const descriptors = () => import('../automation/content-lookup.js').then((m) => m.CONTENT_DESCRIPTORS);
// Kinds the import has no descriptor for: what identifies their records, declared here.
const LEAD: ContentDescriptor = { fields: ['title', 'person_id', 'organization_id'] };
const PROJECT: ContentDescriptor = { fields: ['title', 'board_id', 'phase_id', 'start_date'] };
const TASK: ContentDescriptor = { fields: ['title', 'project_id', 'parent_task_id', 'due_date'] };
const VARIATION: ContentDescriptor = { fields: ['name'] };
const LINE: ContentDescriptor = { fields: ['product_id', 'product_variation_id', 'quantity', 'item_price'] };
const PARTICIPANT: ContentDescriptor = { fields: ['person_id'] };
const COMMENT: ContentDescriptor = { fields: ['content'], text: ['content'] };
const CALL: ContentDescriptor = { fields: ['subject', 'start_time', 'to_phone_number'] };
const DISCOUNT: ContentDescriptor = { fields: ['description', 'amount', 'type'] };
const INSTALLMENT: ContentDescriptor = { fields: ['description', 'amount', 'billing_date'] };
const FOLLOWER: ContentDescriptor = { fields: ['user_id'] };
// An upload's name is its part's file name: the look-up compares it with `file_name` (put in what the journal keeps as sent).
const FILE: ContentDescriptor = { fields: ['file_name', 'deal_id', 'person_id', 'org_id', 'product_id', 'activity_id', 'lead_id', 'project_id'] };

/** A follower kind: added under the parent's new id, settled (and checked first) by the parent's followers. */
const followers = (kind: string, key: string, parent: string, table: () => Promise<{ addFollower: Operation; followers: Operation; removeFollower: Operation }>): RestoreStep => ({
  kind, create: async () => (await table()).addFollower, parent: { key, kind: parent }, lookFirst: true, trim: async () => (await table()).removeFollower,
  settle: { descriptor: FOLLOWER, list: async () => (await table()).followers, updatedSince: false, byParent: true, idOf: (r, parentId) => `${String(parentId)}-${String(r.user_id)}` },
});
const installments = () => import('../api/operations/deal-installments.js').then((m) => m.dealInstallmentOps);

/** The descriptors of src/automation/content-lookup.ts (the import's), loaded once. */
let known: Record<string, ContentDescriptor> = {};
export async function loadDescriptors(): Promise<void> {
  known = await descriptors();
}
const d = (name: string) => known[name]!;

export const RESTORE_STEPS = (): RestoreStep[] => [
  { kind: 'organizations', create: async () => (await ops.orgs()).create, settle: { descriptor: d('organizations'), list: async () => (await ops.orgs()).list, updatedSince: true } },
  { kind: 'persons', create: async () => (await ops.persons()).create, renames: { ims: 'im' }, settle: { descriptor: d('persons'), list: async () => (await ops.persons()).list, updatedSince: true } },
  { kind: 'products', create: async () => (await ops.products()).create, settle: { descriptor: d('products'), list: async () => (await ops.products()).list, updatedSince: true } },
  {
    kind: 'product-variations', create: async () => (await ops.products()).addVariation, parent: { key: 'product_id', kind: 'products' },
    settle: { descriptor: VARIATION, list: async () => (await ops.products()).variations, updatedSince: false, byParent: true },
  },
  { kind: 'deals', create: async () => (await ops.deals()).create, settle: { descriptor: d('deals'), list: async () => (await ops.deals()).list, updatedSince: true } },
  // Created archived (the v2 create takes is_archived): found among archived deals.
  { kind: 'deals-archived', create: async () => (await ops.deals()).create, settle: { descriptor: d('deals'), list: async () => (await ops.deals()).archived, updatedSince: true } },
  {
    kind: 'deal-products', create: async () => (await ops.deals()).addProduct, parent: { key: 'deal_id', kind: 'deals' },
    settle: { descriptor: LINE, list: async () => (await ops.deals()).products, updatedSince: false, byParent: true },
  },
  {
    kind: 'deal-discounts', create: async () => (await ops.deals()).addDiscount, parent: { key: 'deal_id', kind: 'deals' },
    settle: { descriptor: DISCOUNT, list: async () => (await ops.deals()).discounts, updatedSince: false, byParent: true },
  },
  {
    kind: 'deal-participants', create: async () => (await ops.deals()).addParticipant, parent: { key: 'deal_id', kind: 'deals' },
    settle: { descriptor: PARTICIPANT, list: async () => (await ops.deals()).participants, updatedSince: false, byParent: true },
  },
  followers('deal-followers', 'deal_id', 'deals', ops.deals),
  // After the deal's products: the service takes installments only on a deal with a one-time product.
  {
    kind: 'deal-installments', create: async () => (await installments()).add, parent: { key: 'deal_id', kind: 'deals' },
    settle: { descriptor: INSTALLMENT, list: async () => (await installments()).list, updatedSince: false, byParent: { query: 'deal_ids' } },
  },
  { kind: 'leads', create: async () => (await ops.leads()).create, settle: { descriptor: LEAD, list: async () => (await ops.leads()).list, updatedSince: true } },
  {
    kind: 'leads-archived', create: async () => (await ops.leads()).create, after: { name: 'archive', op: async () => (await ops.leads()).update, body: () => ({ is_archived: true }) },
    settle: { descriptor: LEAD, list: async () => (await ops.leads()).list, updatedSince: true },
  },
  { kind: 'projects', create: async () => (await ops.projects()).create, settle: { descriptor: PROJECT, list: async () => (await ops.projects()).list, updatedSince: false } },
  {
    kind: 'projects-archived', create: async () => (await ops.projects()).create, after: { name: 'archive', op: async () => (await ops.projects()).archive },
    settle: { descriptor: PROJECT, list: async () => (await ops.projects()).list, updatedSince: false },
  },
  {
    kind: 'tasks', create: async () => (await ops.tasks()).create, renames: { is_done: 'done', is_milestone: 'milestone' },
    settle: { descriptor: TASK, list: async () => (await ops.tasks()).list, updatedSince: false },
  },
  { kind: 'activities', create: async () => (await ops.activities()).create, settle: { descriptor: d('activities'), list: async () => (await ops.activities()).list, updatedSince: true } },
  { kind: 'notes', create: async () => (await ops.notes()).create, settle: { descriptor: d('notes'), list: async () => (await ops.notes()).list, updatedSince: true } },
  {
    kind: 'note-comments', create: async () => (await ops.notes()).commentsAdd, parent: { key: 'note_id', kind: 'notes' },
    settle: { descriptor: COMMENT, list: async () => (await ops.notes()).commentsList, updatedSince: false, byParent: true },
  },
  {
    kind: 'files', create: async () => (await ops.files()).upload, upload: { field: 'file' },
    after: { name: 'describe', op: async () => (await ops.files()).update, body: (rec) => (typeof rec.description === 'string' && rec.description !== '' ? { description: rec.description } : null) },
    settle: { descriptor: FILE, list: async () => (await ops.files()).list, updatedSince: false },
  },
  { kind: 'call-logs', create: async () => (await ops.callLogs()).create, settle: { descriptor: CALL, list: async () => (await ops.callLogs()).list, updatedSince: false } },
  followers('person-followers', 'person_id', 'persons', ops.persons),
  followers('organization-followers', 'org_id', 'organizations', ops.orgs),
];

/** Kinds a backup holds that restore does not write, and why (the report lists them). Every kind is written today. */
export const NOT_RESTORED: Record<string, string> = {};

/** What the service keeps that no write carries: listed in every report. */
export const NEVER_CARRIED = [
  'ids (new ones in the target: the id map holds old → new)',
  'add_time, update_time and other service-set times (the target sets them at the restore)',
  'the creator and last updater of each record (the restoring user)',
  'history: changelogs, deal flow, stage changes, e-mails, mail messages',
  'counts the service computes (products_count, followers_count, …)',
  'a follow the owner\'s own (a record with one follower is read as its owner\'s: backup reads the followers of records with more than one)',
];
