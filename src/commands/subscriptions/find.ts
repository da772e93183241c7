import { subscriptionOps } from '../../api/operations/subscriptions.js';
import { defineCommand } from '../../core/define-command.js';
import { flag } from '../../core/flags.js';
import { runOperation } from '../run-operation.js';

const { findByDeal } = subscriptionOps;

/** `subscriptions find --deal-id N`: the deal is named by a flag, as the command reads best. */
export const findCommand = defineCommand({
  path: findByDeal.cli.command,
  summary: findByDeal.cli.summary,
  description: findByDeal.cli.description,
  examples: findByDeal.cli.examples,
  flags: { dealId: flag.int({ min: 1, required: true, description: 'the deal whose subscription to show; required' }) },
  operations: [findByDeal],
  fields: findByDeal.cli.fields,
  run: async (ctx, { flags }) => {
    await runOperation(ctx, findByDeal, { params: { dealId: flags.dealId } });
  },
});
