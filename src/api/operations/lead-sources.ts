import { defineTable, type OperationTable } from '../operation.js';
import { getRow } from './rows.js';

export const leadSourceOps = defineTable('leadSources', {
  list: getRow('/api/v1/leadSources', 2, ['leads:read', 'leads:full'], {
    command: ['lead-sources', 'list'],
    summary: 'List the lead sources (a fixed list)',
    examples: ['crmctl lead-sources list'],
    columns: ['name'],
    fields: ['name'],
  }),
} satisfies OperationTable);
