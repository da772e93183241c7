import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id, isoDate } from '../schemas.js';
import { createRow, deleteRow, listRow, updateRow } from './rows.js';

// The vendor's spec lists deals:read as well as deals:full on every installment operation, writes included
// (the vendor's OpenAPI); kept as written so a deals:read token is not refused by the CLI when the service accepts it.
const SCOPES = ['deals:read', 'deals:full'];

export const INSTALLMENT_FIELDS = ['id', 'deal_id', 'description', 'amount', 'billing_date'];
const COLUMNS = ['id', 'deal_id', 'billing_date', 'amount', 'description'];

const PLAN_NOTE = 'Deal installments need the Growth plan or above. A deal takes installments only when it has at least one one-time product and no recurring product; the service refuses others (400).';

const amount = once(() => z.number().check(z.gt(0)));
const HELP = { description: 'name of the installment', amount: 'greater than 0', billing_date: 'YYYY-MM-DD, the day it is charged' };

export const dealInstallmentOps = defineTable('dealInstallments', {
  list: listRow('/api/v2/deals/installments', 10, SCOPES, 'cursor', () => z.object({
    deal_ids: z.array(id()).check(z.minLength(1)).check(z.maxLength(100)),
    sort_by: z.optional(z.enum(['id', 'billing_date', 'deal_id'])),
    sort_direction: z.optional(z.enum(['asc', 'desc'])),
    ...cursorQuery(500),
  }), {
    command: ['deal-installments', 'list'],
    summary: 'List the installments of up to 100 deals',
    description: PLAN_NOTE,
    examples: ['crmctl deal-installments list --deal-ids 1,6 --sort-by billing_date', 'crmctl deal-installments list --deal-ids 1 --all --output ndjson'],
    columns: COLUMNS,
    fields: INSTALLMENT_FIELDS,
    help: { deal_ids: 'deal ids, at most 100', sort_by: 'default id', sort_direction: 'default asc' },
  }),
  add: createRow('/api/v2/deals/{id}/installments', 5, SCOPES, () => z.object({ description: z.string().check(z.trim()).check(z.minLength(1)), amount: amount(), billing_date: isoDate() }), {
    prompts: { id: { from: 'deals.list', label: 'title' } },
    command: ['deal-installments', 'add'],
    summary: 'Add an installment to a deal',
    description: PLAN_NOTE,
    examples: ['crmctl deal-installments add 1 --description "Deposit" --amount 2400 --billing-date 2026-03-01'],
    args: ['id'],
    columns: COLUMNS,
    fields: INSTALLMENT_FIELDS,
    help: { ...HELP, id: 'deal id' },
  }),
  update: updateRow('PATCH', '/api/v2/deals/{id}/installments/{installment_id}', 5, SCOPES, {
    prompts: { id: { from: 'deals.list', label: 'title' }, installment_id: { from: 'dealInstallments.list', label: '{description} ({billing_date})', query: { deal_ids: '$id' } } },
    command: ['deal-installments', 'update'],
    summary: 'Change an installment of a deal (only the fields you give change)',
    description: PLAN_NOTE,
    examples: ['crmctl deal-installments update 1 3 --amount 2600 --billing-date 2026-03-15'],
    columns: COLUMNS,
    fields: INSTALLMENT_FIELDS,
    help: { ...HELP, id: 'deal id', installment_id: 'installment id (see crmctl deal-installments list)' },
  }, { body: () => z.object({ description: z.optional(z.string().check(z.trim()).check(z.minLength(1))), amount: z.optional(amount()), billing_date: z.optional(isoDate()) }) }),
  delete: deleteRow('/api/v2/deals/{id}/installments/{installment_id}', 3, SCOPES, {
    help: { id: 'deal id', installment_id: 'installment id (see crmctl deal-installments list)' },
    prompts: { id: { from: 'deals.list', label: 'title' }, installment_id: { from: 'dealInstallments.list', label: '{description} ({billing_date})', query: { deal_ids: '$id' } } },
    command: ['deal-installments', 'delete'],
    summary: 'Delete an installment of a deal',
    examples: ['crmctl deal-installments delete 1 3 --yes'],
    columns: ['id'],
  }),
} satisfies OperationTable);
