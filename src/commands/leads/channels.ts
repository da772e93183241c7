import { dealFieldOps } from '../../api/operations/deal-fields.js';
import type { CommandSpec } from '../../core/command.js';
import { channelOptions } from '../../api/checks/leads.js';
import { checkReader } from '../../entry/prepare.js';

/** `leads channels`: the marketing channels a lead may name (the options of the deal field `channel`). */
export const channels: CommandSpec = {
  path: ['leads', 'channels'],
  summary: 'List the marketing channels a lead may name (--channel)',
  examples: ['crmctl leads channels', 'crmctl leads channels --json'],
  operations: [dealFieldOps.listV1],
  fields: ['id', 'label'],
  async run(ctx) {
    const { renderRecords } = await import('../../output/render.js');
    await renderRecords(ctx, await channelOptions(checkReader(ctx)), { columns: ['id', 'label'], fields: ['id', 'label'] });
  },
};
