import { defineTable, type OperationTable } from '../operation.js';

export const leadSourceOps = defineTable('leadSources', {
  list: {
    method: 'GET',
    path: '/api/v1/leadSources',
    cost: 2,
    scopes: ['leads:read', 'leads:full'],
    pagination: 'none',
    cli: {
      command: ['lead-sources', 'list'],
      summary: 'List the lead sources (a fixed list)',
      examples: ['crmctl lead-sources list'],
      columns: ['name'],
      fields: ['name'],
    },
  },
} satisfies OperationTable);
