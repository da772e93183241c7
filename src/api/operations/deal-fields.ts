import { defineTable, type OperationTable } from '../operation.js';

/**
 * Not an area of the interface ("operations not given"), but the interface says a lead's `channel`
 * must be one of the options of the deal field metadata, so the CLI reads it to check --channel
 * before sending. Method, path, cost and scopes from the vendor's v1 OpenAPI (GET /dealFields).
 */
export const dealFieldOps = defineTable('dealFields', {
  list: {
    method: 'GET',
    path: '/api/v1/dealFields',
    cost: 20,
    scopes: ['deals:read', 'deals:full', 'deal-fields:full', 'admin'],
    pagination: 'offset',
    maxLimit: 500,
    cli: { command: ['leads', 'channels'], summary: 'List the marketing channels a lead may name (--channel)', examples: ['crmctl leads channels'], columns: ['id', 'label'], handWritten: true },
  },
} satisfies OperationTable);
