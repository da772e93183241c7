import { subscriptionOperations } from '../../api/operations/subscriptions.js';
import type { CommandSpec } from '../../core/command.js';
import { ValidationError } from '../../core/errors.js';
import { commandFromOperation, runOperation } from '../from-operation.js';
import { paymentOptions, withPaymentsOption } from './payment-flags.js';

const op = (id: string) => subscriptionOperations.find((o) => o.id === id)!;

/** A create/update verb whose `payments` come from --payment / --payments-file instead of a JSON flag. */
export function withPaymentFlags(id: string): CommandSpec {
  const operation = op(id);
  const generated = commandFromOperation(operation);
  const options = (generated.options ?? []).filter((o) => !o.flags.startsWith('--payment '));
  const at = options.findIndex((o) => o.flags.startsWith('--data '));
  options.splice(at < 0 ? options.length : at, 0, ...paymentOptions);
  return {
    ...generated,
    generated: false,
    options,
    run: async (ctx, { args, opts }) => runOperation(ctx, operation, args, await withPaymentsOption(ctx, opts)),
  };
}

const findOp = op('subscriptions.findByDeal');

/** `subscriptions find --deal-id N`: the deal is named by a flag, as the command reads best. */
export const findCommand: CommandSpec = {
  path: findOp.cli.command,
  summary: findOp.cli.summary,
  description: findOp.cli.description,
  examples: findOp.cli.examples,
  options: [{ flags: '--deal-id <n>', description: 'the deal whose subscription to show; required' }],
  operations: [findOp],
  fields: findOp.cli.fields,
  run: async (ctx, { opts }) => {
    const raw = opts.dealId as string | undefined;
    if (raw === undefined) throw new ValidationError([{ field: '--deal-id', rule: 'is required' }]);
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new ValidationError([{ field: '--deal-id', rule: `must be a positive integer (got ${JSON.stringify(raw)})` }]);
    await runOperation(ctx, findOp, [raw], {});
  },
};

const cancelOp = op('subscriptions.cancelRecurring');
const cancelGenerated = commandFromOperation(cancelOp);

/** `subscriptions cancel ID [--end-date]`: the body is optional, so an empty one is sent when no flag is given. */
export const cancelCommand: CommandSpec = {
  ...cancelGenerated,
  generated: false,
  run: (ctx, { args, opts }) => runOperation(ctx, cancelOp, args, { ...opts, data: opts.data ?? '{}' }),
};
