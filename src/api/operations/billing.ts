import { defineTable, type OperationTable } from '../operation.js';

export const billingOps = defineTable('billing', {
  addons: {
    method: 'GET',
    path: '/api/v1/billing/subscriptions/addons',
    cost: 20,
    scopes: ['users:read'],
    pagination: 'none',
    cli: {
      command: ['billing', 'addons'],
      summary: 'List the add-ons of the company subscription',
      examples: ['crmctl billing addons'],
    },
  },
} satisfies OperationTable);
