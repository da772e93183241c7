import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { searchQuery } from '../schemas.js';
import { getRow } from './rows.js';

export const currencyOps = defineTable('currencies', {
  list: getRow('/api/v1/currencies', 20, ['base'], {
    command: ['currencies', 'list'],
    summary: 'List the currencies the company can use',
    examples: ['crmctl currencies list'],
    columns: ['id', 'code', 'name', 'symbol', 'is_custom_flag'],
    fields: ['id', 'code', 'name', 'decimal_points', 'symbol', 'active_flag', 'is_custom_flag'],
  }, { query: () => searchQuery({ term: z.optional(z.string()) }) }),
} satisfies OperationTable);
