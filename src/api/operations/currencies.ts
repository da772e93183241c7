import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { searchQuery } from '../schemas.js';

export const currencyOps = defineTable('currencies', {
  list: {
    method: 'GET',
    path: '/api/v1/currencies',
    cost: 20,
    scopes: ['base'],
    pagination: 'none',
    query: () => searchQuery({ term: z.string().optional() }),
    cli: {
      command: ['currencies', 'list'],
      summary: 'List the currencies the company can use',
      examples: ['crmctl currencies list'],
      columns: ['id', 'code', 'name', 'symbol', 'is_custom_flag'],
      fields: ['id', 'code', 'name', 'decimal_points', 'symbol', 'active_flag', 'is_custom_flag'],
    },
  },
} satisfies OperationTable);
