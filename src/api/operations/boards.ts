import { defineTable, type OperationTable } from '../operation.js';

export const boardOps = defineTable('boards', {
  list: {
    method: 'GET',
    path: '/api/v1/projects/boards',
    cost: 20,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'none',
    cli: { command: ['boards', 'list'], summary: 'List project boards', examples: ['crmctl boards list'], columns: ['id', 'name', 'order_nr'] },
  },
} satisfies OperationTable);
