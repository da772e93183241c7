import { permissionSetOps } from '../../api/operations/permission-sets.js';
import type { CommandSpec } from '../../core/command.js';
import { NotFoundError } from '../../core/errors.js';
import { collectParams, commandFromOperation } from '../operation-command.js';
import { fetchOperation, pagingOptions, runOperation } from '../run-operation.js';

const { assignments: assignmentsOp, get: getOp } = permissionSetOps;

/**
 * `permission-sets assignments ID`: the service answers 404 both for an unknown set and for a set
 * nobody holds; after a 404 the set is looked up so that an existing set shows an empty list (exit 0).
 */
export const assignments: CommandSpec = {
  ...commandFromOperation(assignmentsOp),
  async run(ctx, { args, opts }) {
    const { id } = await collectParams(ctx, assignmentsOp, args);
    try {
      await runOperation(ctx, assignmentsOp, { params: { id: id! } }, { paging: pagingOptions(opts) });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      await fetchOperation(ctx, getOp, { params: { id: id! } }); // throws the set's own 404 when it does not exist
      const { renderRecords } = await import('../../output/render.js');
      await renderRecords(ctx, [], { columns: assignmentsOp.cli.columns, fields: assignmentsOp.cli.fields });
    }
  },
};
