import { leadOps } from '../../api/operations/leads.js';
import type { CommandSpec } from '../../core/command.js';
import { collectParams } from '../operation-command.js';
import { runOperation } from '../run-operation.js';

const { update } = leadOps;

/** `leads archive ID [--reason]` and `leads unarchive ID`: PATCH with the archive rule made plain. */
export const archive: CommandSpec = {
  path: ['leads', 'archive'],
  summary: 'Archive a lead (optionally with a reason)',
  examples: ['crmctl leads archive <lead-id> --reason "No budget this year"'],
  args: [{ name: 'id', description: 'lead id (UUID)', required: false }],
  options: [{ flags: '--reason <text>', description: 'archive reason' }],
  operations: [update],
  fields: update.cli.fields,
  async run(ctx, { args, opts }) {
    const { id } = await collectParams(ctx, update, args);
    const reason = opts.reason === undefined ? {} : { archive_reason: String(opts.reason) };
    await runOperation(ctx, update, { params: { id: id! }, body: { is_archived: true, ...reason } });
  },
};

export const unarchive: CommandSpec = {
  path: ['leads', 'unarchive'],
  summary: 'Bring an archived lead back to the inbox (its archive reason is cleared)',
  examples: ['crmctl leads unarchive <lead-id>'],
  args: [{ name: 'id', description: 'lead id (UUID)', required: false }],
  operations: [update],
  fields: update.cli.fields,
  async run(ctx, { args }) {
    const { id } = await collectParams(ctx, update, args);
    await runOperation(ctx, update, { params: { id: id! }, body: { is_archived: false } });
  },
};
