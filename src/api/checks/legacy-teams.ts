import { legacyTeamOps } from '../operations/legacy-teams.js';
import { ValidationError } from '../../core/errors.js';
import type { ValidInput } from '../entry-types.js';
import type { CheckReader } from '../entry-types.js';

/** users remove: every user must be a member (else the service refuses the whole request). */
export async function membersPreflight(ctx: CheckReader, input: ValidInput): Promise<void> {
  const id = input.params.id as number;
  const members = new Set(((await ctx.read(legacyTeamOps.users, { params: { id } })) as number[] | null) ?? []);
  const strangers = (input.body as { users: number[] }).users.filter((u) => !members.has(u));
  if (strangers.length) {
    throw new ValidationError([{ field: '--users', rule: `not members of team ${id}: ${strangers.join(', ')} (members: ${[...members].join(', ') || 'none'})` }]);
  }
}
