import { roleOps } from '../../api/operations/roles.js';
import type { CommandSpec } from '../../core/command.js';
import { UsageError } from '../../core/errors.js';
import { defineArea } from '../define-area.js';
import { collectParams, commandFromOperation } from '../operation-command.js';
import { fetchEnvelope } from '../run-operation.js';
import { assignedUserPreflight, parentRolePreflight, pipelineIdsPreflight } from './checks.js';

/** `roles get`: the role with its settings (the service sends them beside the role, in additional_data). */
const get: CommandSpec = {
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

export const area = defineArea(roleOps, {
  extend: {
    create: { preflight: parentRolePreflight },
    update: { preflight: parentRolePreflight },
    assignmentsRemove: { preflight: assignedUserPreflight },
    pipelinesUpdate: { preflight: pipelineIdsPreflight },
    // Visible pipelines by default, hidden ones with --hidden.
    pipelinesList: {
      options: [{ flags: '--hidden', description: 'list the pipelines hidden from the role (same as --visible false)' }],
      adjust(_ctx, raw, opts) {
        if (!opts.hidden) return raw;
        if (raw.query.visible !== undefined) throw new UsageError('--hidden and --visible cannot be used together');
        return { ...raw, query: { ...raw.query, visible: false } };
      },
    },
  },
  commands: [get],
  groups: {
    'roles assignments': 'Users assigned to a role',
    'roles settings': 'Default visibility settings of a role',
    'roles pipelines': 'Pipelines a role can see',
  },
});
