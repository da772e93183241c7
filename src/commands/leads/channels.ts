import { dealFieldOps } from '../../api/operations/deal-fields.js';
import type { CommandSpec } from '../../core/command.js';
import { channelOptions } from './checks.js';

/** `leads channels`: the marketing channels a lead may name (the deal field's options). */
const channelsOp = dealFieldOps.list;
export const channels: CommandSpec = {
  path: channelsOp.cli.command,
  summary: channelsOp.cli.summary,
  examples: channelsOp.cli.examples,
  operations: [channelsOp],
  async run(ctx) {
    const { renderRecords } = await import('../../output/render.js');
    await renderRecords(ctx, await channelOptions(ctx), { columns: ['id', 'label'] });
  },
};
