import type { ValidInput } from '../entry-types.js';
import type { Operation } from '../operation.js';
import type { CheckReader } from '../entry-types.js';

/**
 * A rule of an operation that needs the account's data (a label exists, a stage is active, a phase
 * belongs to the board). It may read through the entry, never write; a broken rule is a
 * ValidationError naming the flag, which `prepare` renames for doors that name keys.
 */
export type AccountCheck = (reader: CheckReader, op: Operation, input: ValidInput) => Promise<void>;

type Load = () => Promise<AccountCheck>;

/** The field operations' checks read the field through the get operation of the same table. */
const FIELD_TABLES: Record<string, () => Promise<Record<string, Operation>>> = {
  dealFields: () => import('../operations/deal-fields.js').then((m) => m.dealFieldOps),
  personFields: () => import('../operations/person-fields.js').then((m) => m.personFieldOps),
  organizationFields: () => import('../operations/organization-fields.js').then((m) => m.organizationFieldOps),
  productFields: () => import('../operations/product-fields.js').then((m) => m.productFieldOps),
  projectFields: () => import('../operations/project-fields.js').then((m) => m.projectFieldOps),
};
const getOf = async (op: Operation): Promise<Operation> => (await FIELD_TABLES[op.area]!()).get!;

const fieldWrite: Load = async () => {
  const { fieldPreflight } = await import('./fields.js');
  return async (reader, op, input) => fieldPreflight(await getOf(op))(reader, input);
};
const fieldOptions = (flag: string, needIds: boolean): Load => async () => {
  const { optionPreflight } = await import('./fields.js');
  return async (reader, op, input) => optionPreflight(await getOf(op), flag, needIds)(reader, input);
};
/** A check that does not need to know which operation it guards. */
const plain = (load: () => Promise<(reader: CheckReader, input: ValidInput) => Promise<void>>): Load => async () => {
  const f = await load();
  return (reader, _op, input) => f(reader, input);
};

/** Every id of the body's id lists exists (labels, deals, persons, organizations: id-lists.ts). */
const idLists: Load = async () => {
  const { idListsPreflight } = await import('./id-lists.js');
  return (reader, op, input) => idListsPreflight(op.id)(reader, input);
};
/** Two checks of one operation, one after the other (each may refuse). */
const both = (first: Load, second: Load): Load => async () => {
  const [a, b] = await Promise.all([first(), second()]);
  return async (reader, op, input) => {
    await a(reader, op, input);
    await b(reader, op, input);
  };
};

const leads = plain(() => import('./leads.js').then((m) => m.leadPreflight));
const notes = plain(() => import('./notes.js').then((m) => m.notePreflight));
const phases = plain(() => import('./phases.js').then((m) => m.phasePreflight));
const projects = plain(() => import('./projects.js').then((m) => m.projectPreflight));
const parentRole = plain(() => import('./roles.js').then((m) => m.parentRolePreflight));

/**
 * Account checks by operation id, beside the tables and loaded only when that operation is prepared
 * (they import read operations of other areas, which start-up should not pay for). Every door runs
 * them: a command, an MCP tool call, an import row, a fixture (test/automation/four-doors.test.ts).
 */
export const ACCOUNT_CHECKS: Readonly<Record<string, Load>> = {
  'leads.create': leads,
  'leads.update': leads,
  'notes.create': notes,
  'notes.update': notes,
  'mailbox.threadsUpdate': plain(() => import('./mailbox.js').then((m) => m.threadUpdatePreflight)),
  'phases.create': phases,
  'phases.update': phases,
  'phases.delete': plain(() => import('./phases.js').then((m) => m.deletePreflight)),
  'projects.create': both(projects, idLists),
  'projects.update': both(projects, idLists),
  'projects.createV1': idLists,
  'projects.updateV1': idLists,
  'persons.create': idLists,
  'persons.update': idLists,
  'organizations.create': idLists,
  'organizations.update': idLists,
  'deals.create': idLists,
  'deals.update': idLists,
  'roles.create': parentRole,
  'roles.update': parentRole,
  'roles.assignmentsRemove': plain(() => import('./roles.js').then((m) => m.assignedUserPreflight)),
  'roles.pipelinesUpdate': plain(() => import('./roles.js').then((m) => m.pipelineIdsPreflight)),
  'webhooks.create': plain(() => import('./webhooks.js').then((m) => m.webhookPreflight)),
  'legacyTeams.removeUsers': plain(() => import('./legacy-teams.js').then((m) => m.membersPreflight)),
  ...Object.fromEntries(
    Object.keys(FIELD_TABLES).flatMap((area) => [
      [`${area}.create`, fieldWrite],
      [`${area}.update`, fieldWrite],
      [`${area}.addOptions`, fieldOptions('label', false)],
      [`${area}.updateOptions`, fieldOptions('option', true)],
      [`${area}.deleteOptions`, fieldOptions('id', true)],
    ]),
  ),
};

/** The account check of an operation, if it has one. */
export async function accountCheckOf(op: Operation): Promise<AccountCheck | undefined> {
  return ACCOUNT_CHECKS[op.id]?.();
}
