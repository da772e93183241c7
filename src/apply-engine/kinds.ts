import type { Envelope } from '../api/call.js';
import type { Prepared } from '../entry/prepare.js';
import type { Operation } from '../api/operation.js';
import { activityTypeOps } from '../api/operations/activity-types.js';
import { dealInstallmentOps } from '../api/operations/deal-installments.js';
import { goalOps } from '../api/operations/goals.js';
import { leadLabelOps } from '../api/operations/lead-labels.js';
import { leadOps } from '../api/operations/leads.js';
import { legacyTeamOps } from '../api/operations/legacy-teams.js';
import { noteOps } from '../api/operations/notes.js';
import { boardOps } from '../api/operations/boards.js';
import { dealFieldOps } from '../api/operations/deal-fields.js';
import { filterOps } from '../api/operations/filters.js';
import { organizationFieldOps } from '../api/operations/organization-fields.js';
import { personFieldOps } from '../api/operations/person-fields.js';
import { productFieldOps } from '../api/operations/product-fields.js';
import { projectFieldOps } from '../api/operations/project-fields.js';
import { phaseOps } from '../api/operations/phases.js';
import { projectOps } from '../api/operations/projects.js';
import { roleOps } from '../api/operations/roles.js';
import { subscriptionOps } from '../api/operations/subscriptions.js';
import { webhookOps } from '../api/operations/webhooks.js';
import { activityOps } from '../api/operations/activities.js';
import { dealOps } from '../api/operations/deals.js';
import { organizationOps } from '../api/operations/organizations.js';
import { personOps } from '../api/operations/persons.js';
import { pipelineOps } from '../api/operations/pipelines.js';
import { productOps } from '../api/operations/products.js';
import { stageOps } from '../api/operations/stages.js';

/**
 * How the engine sends each write: the command's record of changes wraps the call (apply and destroy
 * are runs `crmctl undo` takes back; src/automation/record-write.ts, WriteRecorder).
 */
export type Send = <T extends { envelope: Envelope }>(op: Operation, input: Prepared, call: () => Promise<T>) => Promise<T>;
import { roleAssignmentTouch, roleSettingTouch, type Touch } from './touches.js';

/**
 * What a fixture `kind` maps to: the operations that create, change and remove one record, and
 * where its id lives. Built on the operation tables (ALL_OPERATIONS), so a fixture spec is
 * checked with the very schema `crmctl <area> create` uses.
 */
export interface KindDef {
  kind: string;
  summary: string;
  create: Operation;
  /** Absent: a changed spec is applied by delete + create ("replace"). */
  update?: Operation;
  /** How the record goes away (destroy, --prune). Absent: the service has no way; it is only forgotten. */
  remove?: Removal;
  /** Record keys naming the parent of a child record and the path parameter they fill: note-comment `note` → {id}. */
  parents: Array<{ key: string; param: string; description: string }>;
  /** Path parameter that takes the record's own id in update/delete paths (absent: the id is not in the path). */
  idParam?: string;
  /**
   * The record's id: a field of the created record, a field of the spec (role settings are keyed by
   * setting_key), or a fixed word for the one record of its parent (a role's pipeline visibility).
   */
  idFrom: { record: string } | { spec: string } | { fixed: string };
  /** Shape of ids, for stand-in values while specs are checked before anything exists. */
  idType: 'int' | 'uuid' | 'string';
  /** Fields added to every update body (a recurring subscription update needs an effective date). */
  updateExtras?: () => Record<string, unknown>;
  /** The update operation takes the whole spec (role settings: the same POST adds or updates). */
  updateSendsAll?: boolean;
  /** The step changes a record it may not have created (a user's role): apply keeps the value before, destroy puts it back. */
  touches?: Touch;
  /** Reads one record by id: a re-apply compares the account with what the state remembers (drift). */
  get?: Operation;
  /** Options of an enum/set field change through their own calls (the field's update takes no options). */
  options?: { add: Operation; remove: Operation };
}

/** Removing a record: its delete operation, or another call that ends it (archive, deleted flag). */
export interface Removal {
  op: Operation;
  /** Body to send, from the record's id (role assignments are removed by user id). */
  body?: (id: string | number) => unknown;
  /** Words for the report: "deleted", "archived", "marked deleted". */
  verb: string;
}

const del = (op: Operation): Removal => ({ op, verb: 'deleted' });

const today = () => new Date().toISOString().slice(0, 10);

/** A v2 record with create, PATCH update and DELETE, keyed by its integer id. */
function v2(kind: string, summary: string, ops: { create: Operation; update: Operation; delete: Operation; get: Operation }): KindDef {
  return { kind, summary, create: ops.create, update: ops.update, remove: del(ops.delete), get: ops.get, parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' };
}

/** A custom field of one item type: keyed by its field code; options change through the options calls. */
function field(kind: string, summary: string, ops: { create: Operation; update: Operation; delete: Operation; addOptions: Operation; deleteOptions: Operation }): KindDef {
  return {
    kind, summary, create: ops.create, update: ops.update, remove: del(ops.delete), parents: [], idParam: 'field_code', idFrom: { record: 'field_code' }, idType: 'string',
    options: { add: ops.addOptions, remove: ops.deleteOptions },
  };
}

function build(): KindDef[] {
  return [
    { kind: 'lead-label', summary: 'Lead label', create: leadLabelOps.create, update: leadLabelOps.update, remove: del(leadLabelOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'uuid' },
    { kind: 'lead', summary: 'Lead (linked to a person or an organization)', create: leadOps.create, update: leadOps.update, get: leadOps.get, remove: del(leadOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'uuid' },
    { kind: 'note', summary: 'Note on a lead, deal, person, organization or project', create: noteOps.create, update: noteOps.update, get: noteOps.get, remove: del(noteOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' },
    {
      kind: 'note-comment', summary: 'Comment on a note', create: noteOps.commentsAdd, update: noteOps.commentsUpdate, remove: del(noteOps.commentsDelete),
      parents: [{ key: 'note', param: 'id', description: 'the note commented on' }], idParam: 'commentId', idFrom: { record: 'id' }, idType: 'uuid',
    },
    { kind: 'role', summary: 'Role', create: roleOps.create, update: roleOps.update, get: roleOps.get, remove: del(roleOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' },
    {
      kind: 'role-assignment', summary: 'A user assigned to a role (destroy moves the user back to the role they had before apply)', create: roleOps.assignmentsAdd,
      remove: { op: roleOps.assignmentsRemove, body: (id) => ({ user_id: Number(id) }), verb: 'removed' },
      parents: [{ key: 'role', param: 'id', description: 'the role' }], idFrom: { record: 'user_id' }, idType: 'int', touches: roleAssignmentTouch,
    },
    {
      kind: 'role-setting', summary: 'A default-visibility setting of a role (goes with a role the fixtures create; on an existing role destroy sets the value it had before)', create: roleOps.settingsSet, update: roleOps.settingsSet, updateSendsAll: true,
      parents: [{ key: 'role', param: 'id', description: 'the role' }], idFrom: { spec: 'setting_key' }, idType: 'string', touches: roleSettingTouch,
    },
    {
      kind: 'role-pipelines', summary: 'The pipelines a role sees (visible_pipeline_ids: { add, remove }); the same PUT sets and changes it', create: roleOps.pipelinesUpdate, update: roleOps.pipelinesUpdate, updateSendsAll: true,
      parents: [{ key: 'role', param: 'id', description: 'the role' }], idFrom: { fixed: 'pipelines' }, idType: 'string',
    },
    { kind: 'webhook', summary: 'Webhook (no update operation: a changed spec replaces it)', create: webhookOps.create, remove: del(webhookOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' },
    { kind: 'activity-type', summary: 'Activity type', create: activityTypeOps.create, update: activityTypeOps.update, remove: del(activityTypeOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' },
    field('org-field', 'Organization custom field', organizationFieldOps),
    field('deal-field', 'Deal custom field (leads use them too)', dealFieldOps),
    field('person-field', 'Person custom field', personFieldOps),
    field('product-field', 'Product custom field', productFieldOps),
    field('project-field', 'Project custom field (beta)', projectFieldOps),
    { kind: 'filter', summary: 'Saved filter', create: filterOps.create, update: filterOps.update, remove: del(filterOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' },
    { kind: 'board', summary: 'Project board', create: boardOps.create, update: boardOps.update, remove: del(boardOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' },
    {
      kind: 'team', summary: 'Legacy team (no delete operation: destroy sets deleted_flag)', create: legacyTeamOps.create, update: legacyTeamOps.update,
      remove: { op: legacyTeamOps.update, body: () => ({ active_flag: 0, deleted_flag: 1 }), verb: 'marked deleted' }, parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int',
    },
    { kind: 'goal', summary: 'Goal', create: goalOps.create, update: goalOps.update, remove: del(goalOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'string' },
    {
      kind: 'project', summary: 'Project (the interface shows no delete: destroy archives it)', create: projectOps.create, update: projectOps.update, get: projectOps.get,
      remove: { op: projectOps.archive, verb: 'archived' }, parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int',
    },
    { kind: 'phase', summary: 'Project phase of a board (beta)', create: phaseOps.create, update: phaseOps.update, remove: del(phaseOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int' },
    {
      kind: 'installment', summary: 'Installment of a deal', create: dealInstallmentOps.add, update: dealInstallmentOps.update, remove: del(dealInstallmentOps.delete),
      parents: [{ key: 'deal', param: 'id', description: 'the deal (an existing deal id)' }], idParam: 'installment_id', idFrom: { record: 'id' }, idType: 'int',
    },
    {
      kind: 'recurring-subscription', summary: 'Recurring subscription of a deal (updates take effect today)', create: subscriptionOps.createRecurring, update: subscriptionOps.updateRecurring,
      updateExtras: () => ({ effective_date: today() }), remove: del(subscriptionOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int',
    },
    {
      kind: 'installment-subscription', summary: 'Installment subscription of a deal', create: subscriptionOps.createInstallment, update: subscriptionOps.updateInstallment,
      remove: del(subscriptionOps.delete), parents: [], idParam: 'id', idFrom: { record: 'id' }, idType: 'int',
    },
    v2('pipeline', 'Pipeline (deleting it deletes its stages and deals)', pipelineOps),
    v2('stage', 'Stage of a pipeline (a stage holding deals cannot be deleted)', stageOps),
    v2('product', 'Product of the catalog', productOps),
    v2('organization', 'Organization', organizationOps),
    v2('person', 'Person (contact)', personOps),
    v2('deal', 'Deal in a stage of a pipeline', dealOps),
    {
      kind: 'deal-product', summary: 'Product attached to a deal (changes the deal value)', create: dealOps.addProduct, update: dealOps.updateProduct, remove: del(dealOps.deleteProduct),
      parents: [{ key: 'deal', param: 'id', description: 'the deal' }], idParam: 'product_attachment_id', idFrom: { record: 'id' }, idType: 'int',
    },
    v2('activity', 'Activity (call, meeting, task, ...) on a deal, lead, person or organization', activityOps),
  ];
}

let cache: Map<string, KindDef> | undefined;

/** Every kind a fixture may name, by name. */
export function kinds(): Map<string, KindDef> {
  cache ??= new Map(build().map((k) => [k.kind, k]));
  return cache;
}

export function kindNames(): string[] {
  return [...kinds().keys()];
}

/** The id of a record just created (or of the spec for records keyed by a spec field). */
export function idOf(kind: KindDef, record: unknown, spec: Record<string, unknown>): string | number | undefined {
  const from = kind.idFrom;
  if ('fixed' in from) return from.fixed;
  const v = 'spec' in from ? spec[from.spec] : record && typeof record === 'object' ? (record as Record<string, unknown>)[from.record] : undefined;
  return typeof v === 'string' || typeof v === 'number' ? v : undefined;
}

/** A value shaped like this kind's ids, used in place of ids that do not exist yet while specs are checked. */
export function standInId(kind: KindDef, name = ''): string | number {
  // Distinct per record, so rules comparing ids (a pipeline both added and removed) see distinct records.
  let n = 1;
  for (const c of name) n = (n * 31 + c.charCodeAt(0)) % 1_000_000;
  return kind.idType === 'int' ? n + 1 : kind.idType === 'uuid' ? '00000000-0000-4000-8000-000000000000' : 'a0'; // a hex string: goal ids are hex, field codes any text
}
