import { subscriptionOps } from '../../api/operations/subscriptions.js';
import type { CommandSpec } from '../../core/command.js';
import { ValidationError } from '../../core/errors.js';
import { runOperation } from '../run-operation.js';

const { findByDeal } = subscriptionOps;

/** `subscriptions find --deal-id N`: the deal is named by a flag, as the command reads best. */
export const findCommand: CommandSpec = {
  path: findByDeal.cli.command,
  summary: findByDeal.cli.summary,
  description: findByDeal.cli.description,
  examples: findByDeal.cli.examples,
  options: [{ flags: '--deal-id <n>', description: 'the deal whose subscription to show; required' }],
  operations: [findByDeal],
  fields: findByDeal.cli.fields,
  run: async (ctx, { opts }) => {
    const raw = opts.dealId as string | undefined;
    if (raw === undefined) throw new ValidationError([{ field: '--deal-id', rule: 'is required' }]);
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ValidationError([{ field: '--deal-id', rule: `must be a positive integer (got ${JSON.stringify(raw)})` }]);
    await runOperation(ctx, findByDeal, { params: { dealId: Number(raw) } });
  },
};
