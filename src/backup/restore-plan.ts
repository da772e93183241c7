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
  /** A child's list is read under its parent's new id. */
  byParent?: boolean;
}

export interface RestoreStep {
  kind: string;
  create(): Promise<Operation>;
  /** A child kind: the key its line carries the parent's (old) id in, and the parent kind. */
  parent?: { key: string; kind: string };
  /** Body keys renamed from the record's (`is_done` → `done`). */
  renames?: Record<string, string>;
  /** After the create: archive the new record (an archived list's records are created, then archived). */
  archive?: { op(): Promise<Operation>; body?: Rec };
  settle: Settle;
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
    kind: 'deal-participants', create: async () => (await ops.deals()).addParticipant, parent: { key: 'deal_id', kind: 'deals' },
    settle: { descriptor: PARTICIPANT, list: async () => (await ops.deals()).participants, updatedSince: false, byParent: true },
  },
  { kind: 'leads', create: async () => (await ops.leads()).create, settle: { descriptor: LEAD, list: async () => (await ops.leads()).list, updatedSince: true } },
  {
    kind: 'leads-archived', create: async () => (await ops.leads()).create, archive: { op: async () => (await ops.leads()).update, body: { is_archived: true } },
    settle: { descriptor: LEAD, list: async () => (await ops.leads()).list, updatedSince: true },
  },
  { kind: 'projects', create: async () => (await ops.projects()).create, settle: { descriptor: PROJECT, list: async () => (await ops.projects()).list, updatedSince: false } },
  {
    kind: 'projects-archived', create: async () => (await ops.projects()).create, archive: { op: async () => (await ops.projects()).archive },
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
  { kind: 'call-logs', create: async () => (await ops.callLogs()).create, settle: { descriptor: CALL, list: async () => (await ops.callLogs()).list, updatedSince: false } },
];

/** Kinds a backup holds that restore does not write, and why (the report lists them). */
export const NOT_RESTORED: Record<string, string> = {
  'deal-discounts': 'this version does not write them (add them with crmctl deals discounts add)',
  'deal-installments': 'this version does not write them (installments need the deal\'s one-time products first; add them by hand)',
  'deal-followers': 'the owner follows what it creates; other followers are not carried by this version',
  'person-followers': 'the owner follows what it creates; other followers are not carried by this version',
  'organization-followers': 'the owner follows what it creates; other followers are not carried by this version',
  files: 'the service takes no file upload through crmctl; the bytes are in files/<id> of the backup',
};

/** What the service keeps that no write carries: listed in every report. */
export const NEVER_CARRIED = [
  'ids (new ones in the target: the id map holds old → new)',
  'add_time, update_time and other service-set times (the target sets them at the restore)',
  'the creator and last updater of each record (the restoring user)',
  'history: changelogs, deal flow, stage changes, e-mails, mail messages',
  'counts the service computes (products_count, followers_count, …)',
];
