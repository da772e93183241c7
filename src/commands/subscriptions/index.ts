import { subscriptionOps } from '../../api/operations/subscriptions.js';
import { defineArea } from '../define-area.js';
import { payments } from './payment-flags.js';
import { findCommand } from './find.js';

// The verbs with payments take typed --payment flags; find takes --deal-id; the rest is generated
// (cancel sends an empty body when no flag is given: cli.optionalBody).
export const area = defineArea(subscriptionOps, {
  extend: { createRecurring: payments, createInstallment: payments, updateRecurring: payments, updateInstallment: payments },
  commands: [findCommand],
});
