import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id, pathId } from '../schemas.js';

/** Fields of a stage record. */
const STAGE_FIELDS = [
  'id', 'order_nr', 'name', 'is_deleted', 'deal_probability', 'pipeline_id', 'is_deal_rot_enabled', 'days_to_rotten', 'add_time',
  'update_time',
];

export const stageOps = defineTable('stages', {
  list: {
    method: 'GET',
    path: '/api/v2/stages',
    cost: 5,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'cursor',
    maxLimit: 500,
    query: () => z.object({ pipeline_id: id.optional(), sort_by: z.enum(['id', 'update_time', 'add_time', 'order_nr']).optional(), sort_direction: z.enum(['asc', 'desc']).optional(), ...cursorQuery(500) }),
    cli: {
      command: ['stages', 'list'],
      summary: 'List deal stages, optionally of one pipeline',
      examples: ['crmctl stages list'],
      columns: ['id', 'name', 'pipeline_id', 'order_nr', 'deal_probability'],
      fields: STAGE_FIELDS,
    },
  },
  get: {
    method: 'GET',
    path: '/api/v2/stages/{id}',
    cost: 1,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['stages', 'get'],
      summary: 'Show one stage',
      examples: ['crmctl stages get 1'],
      columns: ['id', 'name', 'pipeline_id', 'add_time', 'update_time'],
      fields: STAGE_FIELDS,
    },
  },
  create: {
    method: 'POST',
    path: '/api/v2/stages',
    cost: 5,
    scopes: ['admin'],
    pagination: 'none',
    body: () => z.object({ name: z.string().trim().min(1), pipeline_id: id, deal_probability: z.int().min(0).max(100).optional(), is_deal_rot_enabled: z.boolean().optional(), days_to_rotten: z.int().min(1).nullable().optional() }),
    cli: {
      command: ['stages', 'create'],
      summary: 'Add a stage to a pipeline',
      examples: ['crmctl stages create --name "Legal review" --pipeline-id 1'],
      columns: ['id', 'name', 'pipeline_id', 'add_time', 'update_time'],
      fields: STAGE_FIELDS,
    },
  },
  update: {
    method: 'PATCH',
    path: '/api/v2/stages/{id}',
    cost: 5,
    scopes: ['admin'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    body: () => z.object({ name: z.string().trim().min(1).optional(), pipeline_id: id.optional(), deal_probability: z.int().min(0).max(100).optional(), is_deal_rot_enabled: z.boolean().optional(), days_to_rotten: z.int().min(1).nullable().optional() }),
    cli: {
      command: ['stages', 'update'],
      summary: 'Change a stage: only the fields you give change',
      examples: ['crmctl stages update 3 --deal-probability 60'],
      columns: ['id', 'name', 'pipeline_id', 'add_time', 'update_time'],
      fields: STAGE_FIELDS,
    },
  },
  delete: {
    method: 'DELETE',
    path: '/api/v2/stages/{id}',
    cost: 3,
    scopes: ['admin'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['stages', 'delete'],
      summary: 'Delete a stage',
      examples: ['crmctl stages delete 1'],
      columns: ['id'],
      fields: ['id'],
      confirm: true,
    },
  },
} satisfies OperationTable);
