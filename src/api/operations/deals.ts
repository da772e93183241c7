import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery } from '../schemas.js';

export const dealOps = defineTable('deals', {
  list: {
    method: 'GET',
    path: '/api/v2/deals',
    cost: 10,
    scopes: ['deals:read', 'deals:full'],
    pagination: 'cursor',
    maxLimit: 500,
    query: z.object({ ...cursorQuery(500) }),
    cli: { command: ['deals', 'list'], summary: 'List deals', examples: ['crmctl deals list --limit 20'], columns: ['id', 'title', 'value', 'currency', 'stage_id', 'status', 'owner_id'] },
  },
} satisfies OperationTable);
