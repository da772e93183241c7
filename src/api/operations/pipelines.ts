import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id, isoDate, pathId } from '../schemas.js';

/** Fields of a pipeline record. */
const PIPELINE_FIELDS = ['id', 'name', 'order_nr', 'is_deleted', 'is_deal_probability_enabled', 'add_time', 'update_time'];

export const pipelineOps = defineTable('pipelines', {
  list: {
    method: 'GET',
    path: '/api/v2/pipelines',
    cost: 5,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'cursor',
    maxLimit: 500,
    query: () => z.object({ sort_by: z.enum(['id', 'update_time', 'add_time']).optional(), sort_direction: z.enum(['asc', 'desc']).optional(), ...cursorQuery(500) }),
    cli: {
      command: ['pipelines', 'list'],
      summary: 'List pipelines',
      examples: ['crmctl pipelines list'],
      columns: ['id', 'name', 'order_nr', 'is_selected', 'is_deal_probability_enabled'],
      fields: PIPELINE_FIELDS,
    },
  },
  get: {
    method: 'GET',
    path: '/api/v2/pipelines/{id}',
    cost: 1,
    scopes: ['deals:read', 'deals:full', 'admin'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['pipelines', 'get'],
      summary: 'Show one pipeline',
      examples: ['crmctl pipelines get 1'],
      columns: ['id', 'name', 'add_time', 'update_time'],
      fields: PIPELINE_FIELDS,
    },
  },
  create: {
    method: 'POST',
    path: '/api/v2/pipelines',
    cost: 5,
    scopes: ['admin'],
    pagination: 'none',
    body: () => z.object({ name: z.string().trim().min(1), is_deal_probability_enabled: z.boolean().optional() }),
    cli: {
      command: ['pipelines', 'create'],
      summary: 'Create a pipeline',
      examples: ['crmctl pipelines create --name "Renewals"'],
      columns: ['id', 'name', 'add_time', 'update_time'],
      fields: PIPELINE_FIELDS,
    },
  },
  update: {
    method: 'PATCH',
    path: '/api/v2/pipelines/{id}',
    cost: 5,
    scopes: ['admin'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    body: () => z.object({ name: z.string().trim().min(1).optional(), is_deal_probability_enabled: z.boolean().optional() }),
    cli: {
      command: ['pipelines', 'update'],
      summary: 'Change a pipeline: only the fields you give change',
      examples: ['crmctl pipelines update 2 --is-deal-probability-enabled true'],
      columns: ['id', 'name', 'add_time', 'update_time'],
      fields: PIPELINE_FIELDS,
    },
  },
  delete: {
    method: 'DELETE',
    path: '/api/v2/pipelines/{id}',
    cost: 3,
    scopes: ['admin'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['pipelines', 'delete'],
      summary: 'Delete a pipeline',
      examples: ['crmctl pipelines delete 1'],
      columns: ['id'],
      fields: ['id'],
      confirm: true,
    },
  },
  conversionStatistics: {
    method: 'GET',
    path: '/api/v1/pipelines/{id}/conversion_statistics',
    cost: 40,
    scopes: ['deals:read', 'deals:full'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    query: () => z.object({ start_date: isoDate, end_date: isoDate, user_id: id.optional() }),
    cli: {
      command: ['pipelines', 'conversion-stats'],
      summary: 'Stage-to-stage conversion rates of a pipeline over a period',
      examples: ['crmctl pipelines conversion-stats 1 --start-date 2025-01-01 --end-date 2025-12-31'],
      columns: ['stage_conversions', 'won_conversion', 'lost_conversion'],
      fields: ['stage_conversions', 'won_conversion', 'lost_conversion'],
    },
  },
  movementStatistics: {
    method: 'GET',
    path: '/api/v1/pipelines/{id}/movement_statistics',
    cost: 40,
    scopes: ['deals:read', 'deals:full'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    query: () => z.object({ start_date: isoDate, end_date: isoDate, user_id: id.optional() }),
    cli: {
      command: ['pipelines', 'movement-stats'],
      summary: 'Deals that entered, moved within or left a pipeline over a period',
      examples: ['crmctl pipelines movement-stats 1 --start-date 2025-01-01 --end-date 2025-12-31'],
      columns: ['movements_between_stages', 'new_deals', 'deals_left_open', 'won_deals', 'lost_deals', 'average_age_in_days'],
      fields: ['movements_between_stages', 'new_deals', 'deals_left_open', 'won_deals', 'lost_deals', 'average_age_in_days'],
    },
  },
} satisfies OperationTable);
