import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery } from '../schemas.js';

export const pipelineOps = defineTable('pipelines', {
  list: {
    method: 'GET',
    path: '/api/v2/pipelines',
    cost: 5,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'cursor',
    maxLimit: 500,
    query: z.object({ ...cursorQuery(500) }),
    cli: { command: ['pipelines', 'list'], summary: 'List pipelines', examples: ['crmctl pipelines list'], columns: ['id', 'name', 'order_nr', 'is_deal_probability_enabled'] },
  },
} satisfies OperationTable);
