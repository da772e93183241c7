import { roleOps } from '../../api/operations/roles.js';
import type { CommandSpec } from '../../core/command.js';
import { collectParams, commandFromOperation } from '../operation-command.js';
import { fetchEnvelope } from '../run-operation.js';

/** `roles get`: the role with its settings (the service sends them beside the role, in additional_data). */
export const get: CommandSpec = {
  ...commandFromOperation(roleOps.get),
  async run(ctx, { args }) {
    const { id } = await collectParams(ctx, roleOps.get, args);
    const { checkFields, renderRecord } = await import('../../output/render.js');
    checkFields(ctx, roleOps.get.cli.fields);
    const envelope = await fetchEnvelope(ctx, roleOps.get, { params: { id: id! } });
    const settings = (envelope.additional_data as { settings?: unknown } | null)?.settings ?? null;
    await renderRecord(ctx, { ...(envelope.data as object), settings }, { columns: roleOps.get.cli.columns, fields: roleOps.get.cli.fields });
  },
};
