import { leadOps } from '../../api/operations/leads.js';
import type { CommandSpec } from '../../core/command.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { collectParams } from '../operation-command.js';
import { runOperation } from '../run-operation.js';

const { update } = leadOps;

/** `leads archive ID [--reason]` and `leads unarchive ID`: PATCH with the archive rule made plain. */
export const archive = defineCommand({
  path: ['leads', 'archive'],
  summary: 'Archive a lead (optionally with a reason)',
  examples: ['crmctl leads archive <lead-id> --reason "No budget this year"'],
  args: [{ name: 'id', description: 'lead id (UUID)', required: false }],
  flags: { reason: flag.string({ value: 'text', description: 'archive reason' }) },
  operations: [update],
  fields: update.cli.fields,
  async run(ctx, { args, flags }) {
    const { id } = await collectParams(ctx, update, args);
    const reason = flags.reason === undefined ? {} : { archive_reason: flags.reason };
    await runOperation(ctx, update, { params: { id: id! }, body: { is_archived: true, ...reason } });
  },
});

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
