import { callOperation, recordsOf } from '../../api/call.js';
import { projectOperations } from '../../api/operations/projects.js';
import type { CommandSpec } from '../../core/command.js';
import { buildInput, commandFromOperation } from '../from-operation.js';

const op = projectOperations.find((o) => o.id === 'projects.permittedUsers')!;

/**
 * `projects permitted-users ID`: the service answers a bare array of user ids; rows of
 * {user_id} give the table, TSV and --fields something to show (a bare number has no columns).
 */
export const permittedUsersCommand: CommandSpec = {
  ...commandFromOperation(op),
  generated: false,
  async run(ctx, { args, opts }) {
    const { checkFields, renderRecords } = await import('../../output/render.js');
    const input = await buildInput(ctx, op, args, opts);
    checkFields(ctx, op.cli.fields);
    const { envelope } = await callOperation(await ctx.http(), op, input);
    const ids = (recordsOf(op, envelope) as number[] | null) ?? [];
    await renderRecords(ctx, ids.map((user_id) => ({ user_id })), { columns: op.cli.columns, fields: op.cli.fields });
  },
};
