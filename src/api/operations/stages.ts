import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id } from '../schemas.js';

export const STAGE_FIELDS = ['id', 'name', 'pipeline_id', 'order_nr', 'is_deleted', 'deal_probability', 'is_deal_rot_enabled', 'days_to_rotten', 'add_time', 'update_time'];

export const stageOps = defineTable('stages', {
  list: {
    method: 'GET',
    path: '/api/v2/stages',
    cost: 5,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'cursor',
    maxLimit: 500,
    query: z.object({ pipeline_id: id.optional(), ...cursorQuery(500) }),
    cli: {
      command: ['stages', 'list'],
      summary: 'List deal stages, optionally of one pipeline',
      examples: ['crmctl stages list --pipeline-id 1'],
      columns: ['id', 'name', 'pipeline_id', 'order_nr', 'deal_probability'],
      fields: STAGE_FIELDS,
    },
  },
} satisfies OperationTable);
