import { subscriptionOperations } from '../../api/operations/subscriptions.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';
import { cancelCommand, findCommand, withPaymentFlags } from './verbs.js';

// Generated: get, payments, delete. Hand-written: the verbs with payments (typed --payment flags),
// find (--deal-id) and cancel (optional body).
export const area: AreaModule = {
  commands: [
    ...subscriptionOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation),
    withPaymentFlags('subscriptions.createRecurring'),
    withPaymentFlags('subscriptions.createInstallment'),
    withPaymentFlags('subscriptions.updateRecurring'),
    withPaymentFlags('subscriptions.updateInstallment'),
    findCommand,
    cancelCommand,
  ],
};
