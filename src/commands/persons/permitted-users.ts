import { callOperation, recordsOf } from '../../api/call.js';
import { personOperations } from '../../api/operations/persons.js';
import type { CommandSpec } from '../../core/command.js';
import { buildInput, commandFromOperation } from '../from-operation.js';

const op = personOperations.find((o) => o.id === 'persons.permittedUsers')!;

/** The service answers a bare list of user ids; rows `{user_id}` make it printable as a table or TSV. */
export const permittedUsersCommand: CommandSpec = {
  ...commandFromOperation(op),
  generated: false,
  fields: ['user_id'],
  async run(ctx, { args, opts }) {
    const input = await buildInput(ctx, op, args, opts);
    const { checkFields, renderRecords } = await import('../../output/render.js');
    checkFields(ctx, ['user_id']);
    const { envelope } = await callOperation(await ctx.http(), op, input);
    const ids = recordsOf(op, envelope);
    await renderRecords(ctx, (Array.isArray(ids) ? ids : []).map((user_id) => ({ user_id })), { columns: ['user_id'], fields: ['user_id'] });
  },
};
