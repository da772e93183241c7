import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery } from '../schemas.js';

export const organizationOps = defineTable('organizations', {
  list: {
    method: 'GET',
    path: '/api/v2/organizations',
    cost: 10,
    scopes: ['contacts:read', 'contacts:full'],
    pagination: 'cursor',
    maxLimit: 500,
    query: z.object({ ...cursorQuery(500) }),
    cli: { command: ['organizations', 'list'], summary: 'List organizations', examples: ['crmctl organizations list --limit 20'], columns: ['id', 'name', 'owner_id', 'update_time'] },
  },
} satisfies OperationTable);
