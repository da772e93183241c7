import { legacyTeamOps } from '../../api/operations/legacy-teams.js';
import type { Context } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../../input/operation-input.js';
import { defineArea } from '../define-area.js';
import { fetchOperation } from '../run-operation.js';

/** users remove: every user must be a member (else the service refuses the whole request). */
async function membersPreflight(ctx: Context, input: ValidInput): Promise<void> {
  const id = input.params.id as number;
  const members = new Set(((await fetchOperation(ctx, legacyTeamOps.users, { params: { id } })) as number[] | null) ?? []);
  const strangers = (input.body as { users: number[] }).users.filter((u) => !members.has(u));
  if (strangers.length) {
    throw new ValidationError([{ field: '--users', rule: `not members of team ${id}: ${strangers.join(', ')} (members: ${[...members].join(', ') || 'none'})` }]);
  }
}

export const area = defineArea(legacyTeamOps, {
  extend: { removeUsers: { preflight: membersPreflight } },
  groups: { 'legacy-teams users': 'Members of a team' },
});
