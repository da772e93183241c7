import { subscriptionOperations } from '../../api/operations/subscriptions.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';
import { cancelCommand, findCommand, withPaymentFlags } from './verbs.js';

// Hand-written: the verbs with payments (typed --payment flags), find (--deal-id) and cancel (optional body).
// The others are generated. Listed in the table's order, which reads as a workflow in --help.
const handWritten: Record<string, () => CommandSpec> = {
  'subscriptions.createRecurring': () => withPaymentFlags('subscriptions.createRecurring'),
  'subscriptions.createInstallment': () => withPaymentFlags('subscriptions.createInstallment'),
  'subscriptions.updateRecurring': () => withPaymentFlags('subscriptions.updateRecurring'),
  'subscriptions.updateInstallment': () => withPaymentFlags('subscriptions.updateInstallment'),
  'subscriptions.findByDeal': () => findCommand,
  'subscriptions.cancelRecurring': () => cancelCommand,
};

export const area: AreaModule = {
  commands: subscriptionOperations.map((op) => (op.cli.handWritten ? handWritten[op.id]!() : commandFromOperation(op))),
};
