import { permissionSetOperations } from '../../api/operations/permission-sets.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { NotFoundError } from '../../core/errors.js';
import { withArgHelp } from '../roles/arg-help.js';
import { buildInput, commandFromOperation, runOperation } from '../from-operation.js';

const op = (id: string) => permissionSetOperations.find((o) => o.id === id)!;
const assignmentsOp = op('permissionSets.assignments');
const getOp = op('permissionSets.get');

/**
 * `permission-sets assignments ID`: the service answers 404 both for an unknown set and for a set
 * nobody holds; after a 404 the set is looked up so that an existing set shows an empty list (exit 0).
 */
const assignments: CommandSpec = {
  ...commandFromOperation(assignmentsOp),
  generated: false,
  async run(ctx, { args, opts }) {
    try {
      await runOperation(ctx, assignmentsOp, args, opts);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      const input = await buildInput(ctx, getOp, args, {});
      const { callOperation } = await import('../../api/call.js');
      await callOperation(await ctx.http(), getOp, input); // throws the set's own 404 when it does not exist
      const { renderRecords } = await import('../../output/render.js');
      await renderRecords(ctx, [], { columns: assignmentsOp.cli.columns, fields: assignmentsOp.cli.fields });
    }
  },
};

export const area: AreaModule = {
  commands: permissionSetOperations
    .map((o) => (o === assignmentsOp ? assignments : commandFromOperation(o)))
    .map((c) => withArgHelp(c, 'permission set id (UUID)')),
};
