import { callOperation, recordsOf } from '../../api/call.js';
import { legacyTeamOperations } from '../../api/operations/legacy-teams.js';
import type { AreaModule } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import { commandFromOperation, type BuiltInput } from '../from-operation.js';
import { withArgHelp } from '../roles/arg-help.js';
import { userIdsCommand } from './user-ids.js';

const op = (id: string) => legacyTeamOperations.find((o) => o.id === id)!;

/** users remove: every user must be a member (else the service refuses the whole request). */
async function membersPreflight(ctx: Context, input: BuiltInput): Promise<void> {
  const membersOp = op('legacyTeams.users');
  const { envelope } = await callOperation(await ctx.http(), membersOp, { params: input.params });
  const members = new Set((recordsOf(membersOp, envelope) as number[] | null) ?? []);
  const strangers = (input.body as { users: number[] }).users.filter((u) => !members.has(u));
  if (strangers.length) {
    throw new ValidationError([{ field: '--users', rule: `not members of team ${String(input.params.id)}: ${strangers.join(', ')} (members: ${[...members].join(', ') || 'none'})` }]);
  }
}

export const area: AreaModule = {
  commands: legacyTeamOperations.map((o) => {
    const spec = o.id === 'legacyTeams.users' || o.id === 'legacyTeams.addUsers' ? userIdsCommand(o)
      : o.id === 'legacyTeams.removeUsers' ? userIdsCommand(o, membersPreflight)
        : commandFromOperation(o);
    return withArgHelp(spec, o.id === 'legacyTeams.ofUser' ? 'user id (a member of the teams listed)' : 'team id');
  }),
  groups: { 'teams users': 'Members of a team' },
};
