import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { currency, id, isoDate } from '../schemas.js';
import { createRow, deleteRow, getRow, updateRow } from './rows.js';

// The vendor removed subscriptions from its live API (SDK 29.0.0, 2025-09); the service interface keeps
// them and wins, so crmctl serves them exactly as the interface writes the paths (/v1/subscriptions/...).
// Scopes are the ones the operations had before removal (the vendor's documents): deals:read|deals:full to read, deals:full to write.
const READ = ['deals:read', 'deals:full'];
const WRITE = ['deals:full'];

// The interface states no costs for subscriptions: these are the v1 typical values (the vendor's documents):
// get-one 2, list-like reads 20, create/update/cancel 10, delete 6. The sandbox charges the same.
const COST = { get: 2, read: 20, write: 10, delete: 6 } as const;

export const RETIRED_NOTE =
  'Subscriptions are retired from the vendor\'s live service; the service interface keeps them and crmctl follows it. ' +
  'They work against the sandbox and any service that still serves /v1/subscriptions. See docs/subscriptions.md.';

export const CADENCES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;

export const SUBSCRIPTION_FIELDS = [
  'id', 'user_id', 'deal_id', 'description', 'is_active', 'cycles_count', 'cycle_amount', 'infinite', 'currency', 'cadence_type',
  'start_date', 'end_date', 'lifetime_value', 'final_status', 'add_time', 'update_time',
];
const COLUMNS = ['id', 'deal_id', 'currency', 'cadence_type', 'cycle_amount', 'cycles_count', 'infinite', 'start_date', 'end_date', 'is_active', 'final_status'];

export const PAYMENT_FIELDS = [
  'id', 'subscription_id', 'deal_id', 'is_active', 'amount', 'currency', 'change_amount', 'due_at', 'revenue_movement_type',
  'payment_type', 'description', 'add_time', 'update_time',
];

/** One payment as the interface describes it: amount, description, due_at (date). */
export const payment = once(() => z.object({
  amount: z.number(),
  description: z.optional(z.string()),
  due_at: isoDate(),
}));
export type PaymentInput = z.infer<ReturnType<typeof payment>>;

/** Required, non-empty payments; a missing list says how to give one. */
const requiredPayments = once(() => z
  .array(payment(), { error: (iss) => (iss.input === undefined ? 'is required: give --payment AMOUNT:DUE_AT[:DESCRIPTION] (repeatable) or --payments-file FILE' : undefined) }).check(z.minLength(1)));

const PAYMENT_HELP = 'repeatable AMOUNT:DUE_AT[:DESCRIPTION], e.g. 500:2026-03-01:"Setup fee"; or --payments-file';
const COMMON_HELP = {
  deal_id: 'the deal; a deal has at most one subscription',
  currency: '3-letter code, e.g. EUR',
  update_deal_value: 'set the deal value to the MRR (recurring) or the total of the payments (installment)',
  payments: PAYMENT_HELP,
};

const createRecurringBody = once(() => z
  .object({
    deal_id: id(),
    currency: currency(),
    description: z.optional(z.string()),
    cadence_type: z.enum(CADENCES),
    cycles_count: z.optional(z.int().check(z.gte(1))),
    cycle_amount: z.int(),
    start_date: isoDate(),
    infinite: z.optional(z.boolean()),
    payments: z.optional(z.array(payment())),
    update_deal_value: z.optional(z.boolean()),
  }).check(z.superRefine((b, ctx) => {
    // Interface: one of cycles_count or infinite must be set (exactly one: a counted subscription cannot also be endless).
    if (b.infinite === true && b.cycles_count !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['infinite'], message: 'cannot be combined with --cycles-count: give exactly one of them' });
    } else if (b.infinite !== true && b.cycles_count === undefined) {
      ctx.addIssue({ code: 'custom', path: ['cycles_count'], message: 'is required unless --infinite is set (give exactly one of them)' });
    }
  })));

const updateRecurringBody = once(() => z
  .object({
    effective_date: isoDate(),
    description: z.optional(z.string()),
    cycle_amount: z.optional(z.int()),
    payments: z.optional(z.array(payment())),
    update_deal_value: z.optional(z.boolean()),
  }).check(z.superRefine((b, ctx) => {
    // Only payments due after effective_date change, so a payment due on or before it cannot be applied.
    (b.payments ?? []).forEach((p, i) => {
      if (p.due_at <= b.effective_date) {
        ctx.addIssue({ code: 'custom', path: ['payments'], message: `item ${i + 1} is due ${p.due_at}; payments must be due after --effective-date ${b.effective_date}` });
      }
    });
  })));

/** What the four writes that take payments answer and how they name the repeatable --payment flag. */
const WITH_PAYMENTS = { columns: COLUMNS, fields: SUBSCRIPTION_FIELDS, flagNames: { payments: 'payment' } };

export const subscriptionOps = defineTable('subscriptions', {
  createRecurring: createRow('/v1/subscriptions/recurring', COST.write, WRITE, () => createRecurringBody(), {
    prompts: { deal_id: { from: 'deals.list', label: 'title' }, cycles_count: { or: ['infinite'] } },
    command: ['subscriptions', 'create-recurring'],
    summary: 'Add a recurring subscription to a deal (equal payments at a fixed cadence)',
    description: RETIRED_NOTE,
    examples: [
      'crmctl subscriptions create-recurring --deal-id 4 --currency EUR --cadence-type monthly --cycle-amount 450 --start-date 2026-01-01 --cycles-count 12 --update-deal-value',
      'crmctl subscriptions create-recurring --deal-id 4 --currency EUR --cadence-type yearly --cycle-amount 9000 --start-date 2026-01-01 --infinite --payment 1500:2026-01-15:"Onboarding"',
    ],
    ...WITH_PAYMENTS,
    help: {
      ...COMMON_HELP,
      cadence_type: 'interval between payments',
      cycle_amount: 'amount of each payment (integer)',
      cycles_count: 'number of payments; or --infinite',
      infinite: 'lasts until canceled or deleted; or --cycles-count',
      start_date: 'YYYY-MM-DD, due date of the first payment',
      payments: `additional payments: ${PAYMENT_HELP}`,
    },
  }),
  createInstallment: createRow('/v1/subscriptions/installment', COST.write, WRITE, () => z.object({ deal_id: id(), currency: currency(), payments: requiredPayments(), update_deal_value: z.optional(z.boolean()) }), {
    prompts: { deal_id: { from: 'deals.list', label: 'title' } },
    command: ['subscriptions', 'create-installment'],
    summary: 'Add an installment subscription to a deal (payments of varying amounts and dates)',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions create-installment --deal-id 3 --currency USD --payment 5000:2026-02-01:"First half" --payment 7500:2026-08-01:"Second half"'],
    ...WITH_PAYMENTS,
    help: COMMON_HELP,
  }),
  get: getRow('/v1/subscriptions/{id}', COST.get, READ, {
    command: ['subscriptions', 'get'],
    summary: 'Show one subscription',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions get 1 --json'],
    columns: SUBSCRIPTION_FIELDS,
    fields: SUBSCRIPTION_FIELDS,
  }),
  findByDeal: getRow('/v1/subscriptions/find/{dealId}', COST.read, READ, {
    command: ['subscriptions', 'find'],
    summary: 'Show the subscription of a deal',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions find --deal-id 4'],
    columns: SUBSCRIPTION_FIELDS,
    fields: SUBSCRIPTION_FIELDS,
    handWritten: true,
  }),
  payments: getRow('/v1/subscriptions/{id}/payments', COST.read, READ, {
    command: ['subscriptions', 'payments'],
    summary: 'List the payments of a subscription, by due date (not paginated)',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions payments 1', 'crmctl subscriptions payments 1 --output csv > schedule.csv'],
    columns: ['id', 'due_at', 'amount', 'currency', 'payment_type', 'revenue_movement_type', 'description'],
    fields: PAYMENT_FIELDS,
  }),
  updateRecurring: updateRow('PUT', '/v1/subscriptions/recurring/{id}', COST.write, WRITE, {
    command: ['subscriptions', 'update-recurring'],
    summary: 'Change a recurring subscription from a date on (only payments due after --effective-date change)',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions update-recurring 1 --effective-date 2026-06-30 --cycle-amount 500 --update-deal-value'],
    ...WITH_PAYMENTS,
    help: {
      ...COMMON_HELP,
      effective_date: 'YYYY-MM-DD; payments due after it are changed',
      cycle_amount: 'new amount of each payment (integer)',
      payments: `additional payments due after --effective-date, replacing those: ${PAYMENT_HELP}`,
    },
  }, { body: () => updateRecurringBody() }),
  updateInstallment: updateRow('PUT', '/v1/subscriptions/installment/{id}', COST.write, WRITE, {
    command: ['subscriptions', 'update-installment'],
    summary: 'Replace the payments of an installment subscription',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions update-installment 2 --payment 4000:2026-02-01 --payment 8500:2026-09-01 --update-deal-value'],
    ...WITH_PAYMENTS,
    help: { ...COMMON_HELP, payments: `the new full list of payments: ${PAYMENT_HELP}` },
  }, { body: () => z.object({ payments: requiredPayments(), update_deal_value: z.optional(z.boolean()) }), effect: 'destructive' }),
  cancelRecurring: updateRow('PUT', '/v1/subscriptions/recurring/{id}/cancel', COST.write, WRITE, {
    command: ['subscriptions', 'cancel'],
    summary: 'Cancel a recurring subscription: payments after --end-date (default today) are deleted',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions cancel 1 --end-date 2026-06-30 --yes'],
    columns: COLUMNS,
    fields: SUBSCRIPTION_FIELDS,
    confirm: true,
    help: { end_date: 'YYYY-MM-DD, default today; the subscription then ends on the due date of the next payment after it' },
    optionalBody: true,
  }, { body: () => z.object({ end_date: z.optional(isoDate()) }) }),
  delete: deleteRow('/v1/subscriptions/{id}', COST.delete, WRITE, {
    command: ['subscriptions', 'delete'],
    summary: 'Delete a subscription (recurring or installment) and its payments',
    description: RETIRED_NOTE,
    examples: ['crmctl subscriptions delete 1 --yes'],
    columns: ['id', 'deal_id', 'is_active', 'final_status'],
    fields: SUBSCRIPTION_FIELDS,
  }),
} satisfies OperationTable);
