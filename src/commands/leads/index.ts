import { dealFieldOperations } from '../../api/operations/deal-fields.js';
import { leadOperations } from '../../api/operations/leads.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { commandFromOperation, runOperation } from '../from-operation.js';
import { channelOptions, leadPreflight } from './checks.js';
import { convertCommand } from './convert.js';

const op = (id: string) => leadOperations.find((o) => o.id === id)!;
const generated = leadOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation);
const withPreflight = (spec: CommandSpec, id: string): CommandSpec => ({ ...spec, run: (ctx, i) => runOperation(ctx, op(id), i.args, i.opts, { preflight: leadPreflight }) });

const update = op('leads.update');

/** `leads archive ID [--reason]` and `leads unarchive ID`: PATCH with the archive rule made plain. */
const archive: CommandSpec = {
  path: ['leads', 'archive'],
  summary: 'Archive a lead (optionally with a reason)',
  examples: ['crmctl leads archive <lead-id> --reason "No budget this year"'],
  args: [{ name: 'id', description: 'lead id (UUID)', required: false }],
  options: [{ flags: '--reason <text>', description: 'archive reason' }],
  operations: [update],
  fields: update.cli.fields,
  run: (ctx, { args, opts }) =>
    runOperation(ctx, update, args, { isArchived: 'true', ...(opts.reason !== undefined ? { archiveReason: opts.reason } : {}) }),
};

const unarchive: CommandSpec = {
  path: ['leads', 'unarchive'],
  summary: 'Bring an archived lead back to the inbox (its archive reason is cleared)',
  examples: ['crmctl leads unarchive <lead-id>'],
  args: [{ name: 'id', description: 'lead id (UUID)', required: false }],
  operations: [update],
  fields: update.cli.fields,
  run: (ctx, { args }) => runOperation(ctx, update, args, { isArchived: 'false' }),
};

const channelsOp = dealFieldOperations[0];
const channels: CommandSpec = {
  path: ['leads', 'channels'],
  summary: channelsOp.cli.summary,
  examples: channelsOp.cli.examples,
  operations: [channelsOp],
  async run(ctx) {
    const { renderRecords } = await import('../../output/render.js');
    await renderRecords(ctx, await channelOptions(ctx), { columns: ['id', 'label'] });
  },
};

export const area: AreaModule = {
  commands: [
    ...generated.map((c) => (c.path[1] === 'create' ? withPreflight(c, 'leads.create') : c.path[1] === 'update' ? withPreflight(c, 'leads.update') : c)),
    convertCommand,
    archive,
    unarchive,
    channels,
  ],
};
