import { callOperation, recordsOf } from '../../api/call.js';
import type { Operation } from '../../api/operation.js';
import type { CommandSpec } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { buildInput, commandFromOperation, type BuiltInput } from '../from-operation.js';

/**
 * Team member operations answer a bare array of user ids; these commands print one
 * `user_id` row per member so tables, TSV and --fields work as for any list.
 */
export function userIdsCommand(op: Operation, preflight?: (ctx: Context, input: BuiltInput) => Promise<void>): CommandSpec {
  return {
    ...commandFromOperation(op),
    generated: false,
    async run(ctx, { args, opts }) {
      const input = await buildInput(ctx, op, args, opts);
      if (preflight) await preflight(ctx, input);
      const { checkFields, renderRecords } = await import('../../output/render.js');
      checkFields(ctx, ['user_id']);
      if (op.cli.confirm) await ctx.confirm(`${op.cli.summary} ${Object.values(input.params).join(' ')}?`);
      const { envelope } = await callOperation(await ctx.http(), op, input);
      const ids = recordsOf(op, envelope);
      await renderRecords(ctx, (Array.isArray(ids) ? ids : []).map((user_id) => ({ user_id })), { columns: ['user_id'], fields: ['user_id'] });
    },
  };
}
