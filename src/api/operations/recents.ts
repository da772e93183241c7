import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { offsetQuery } from '../schemas.js';
import { listRow } from './rows.js';

export const recentOps = defineTable('recents', {
  list: listRow('/api/v1/recents', 20, ['recents:read', 'search:read'], 'offset', () => z.object({ since_timestamp: z.string(), items: z.optional(z.array(z.enum(['activity', 'activityType', 'deal', 'file', 'filter', 'note', 'person', 'organization', 'pipeline', 'product', 'stage', 'user']))), ...offsetQuery() }), {
    command: ['recents', 'list'],
    summary: 'List what changed since a time, across item types',
    examples: ['crmctl recents list --since-timestamp "2026-01-01 00:00:00"'],
  }),
} satisfies OperationTable);
