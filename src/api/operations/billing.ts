import { defineTable, type OperationTable } from '../operation.js';
import { getRow } from './rows.js';

export const billingOps = defineTable('billing', {
  addons: getRow('/api/v1/billing/subscriptions/addons', 20, ['users:read'], {
    command: ['billing', 'addons'],
    summary: 'List the add-ons of the company subscription',
    examples: ['crmctl billing addons'],
  }),
} satisfies OperationTable);
