import type { Operation } from '../api/operation.js';
import { roleOps } from '../api/operations/roles.js';
import { userOps } from '../api/operations/users.js';

/**
 * A fixture step that changes a record the fixtures did not create: a role assignment moves an
 * existing user, a role setting changes an existing role. Deleting the step's own record would not
 * undo that (removing an assignment moves the user to the default role, not back), so apply reads
 * the value first and keeps it in the state; destroy puts it back.
 */
export interface Touch {
  /** Where the touched record's id is: a parent param or a spec field. Written as `${ref:...}`, the record is the fixtures' own (it goes away with them): nothing to keep. */
  target: { param: string } | { spec: string };
  /** Reads the value before apply changes it. */
  read: Operation;
  readParams(params: Record<string, unknown>, spec: Record<string, unknown>): Record<string, unknown>;
  /** From the read's answer: the value apply is about to change and the words naming it. */
  pick(answer: unknown, params: Record<string, unknown>, spec: Record<string, unknown>): Prior;
  /** The value the step sets (from its resolved params and spec, as the state keeps them). */
  after(params: Record<string, unknown>, spec: Record<string, unknown>): unknown;
  /** Puts `before` back. */
  restore: Operation;
  restoreCall(prior: Prior, params: Record<string, unknown>, spec: Record<string, unknown>): { params: Record<string, unknown>; body: unknown };
  /** Words before a value in messages: "role " gives "role 6 -> 3". */
  unit: string;
}

/** What the state keeps about a changed record: its value before apply, and words naming it. */
export interface Prior {
  what: string;
  before: unknown;
}

const field = (answer: unknown, key: string): unknown => (answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[key] : undefined);

/** A user has exactly one role: the assignment's prior value is the user's role before apply. */
export const roleAssignmentTouch: Touch = {
  target: { spec: 'user_id' },
  read: userOps.get,
  readParams: (_params, spec) => ({ id: spec.user_id }),
  pick: (answer, _params, spec) => {
    const name = field(answer, 'name');
    return { before: field(answer, 'role_id') ?? null, what: `role assignment of user ${String(spec.user_id)}${typeof name === 'string' ? ` (${name})` : ''}` };
  },
  restore: roleOps.assignmentsAdd,
  restoreCall: (prior, _params, spec) => ({ params: { id: prior.before }, body: { user_id: spec.user_id } }),
  after: (params) => params.id,
  unit: 'role ',
};

/** A setting of a role the fixtures did not create: its value before apply. */
export const roleSettingTouch: Touch = {
  target: { param: 'id' },
  read: roleOps.settingsList,
  readParams: (params) => ({ id: params.id }),
  pick: (answer, params, spec) => ({
    before: field(answer, String(spec.setting_key)) ?? null, what: `setting ${String(spec.setting_key)} of role ${String(params.id)}`,
  }),
  restore: roleOps.settingsSet,
  restoreCall: (prior, params, spec) => ({ params: { id: params.id }, body: { setting_key: spec.setting_key, value: prior.before } }),
  after: (_params, spec) => spec.value,
  unit: '',
};
