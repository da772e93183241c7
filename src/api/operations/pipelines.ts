import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id, isoDate } from '../schemas.js';
import { createRow, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of a pipeline record. */
const PIPELINE_FIELDS = ['id', 'name', 'order_nr', 'is_deleted', 'is_deal_probability_enabled', 'add_time', 'update_time'];

/** Columns and known fields of one pipeline as a read or a write answers it. */
const SHOWN = { columns: ['id', 'name', 'add_time', 'update_time'], fields: PIPELINE_FIELDS };
/** The period (and, optionally, the user) both pipeline statistics are read for. */
const periodQuery = () => z.object({ start_date: isoDate(), end_date: isoDate(), user_id: z.optional(id()) });

export const pipelineOps = defineTable('pipelines', {
  list: listRow('/api/v2/pipelines', 5, ['deals:read', 'deals:full', 'admin'], 'cursor', () => z.object({ sort_by: z.optional(z.enum(['id', 'update_time', 'add_time'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), ...cursorQuery(500) }), {
    command: ['pipelines', 'list'],
    summary: 'List pipelines',
    examples: ['crmctl pipelines list'],
    columns: ['id', 'name', 'order_nr', 'is_selected', 'is_deal_probability_enabled'],
    fields: PIPELINE_FIELDS,
  }),
  get: getRow('/api/v2/pipelines/{id}', 1, ['deals:read', 'deals:full', 'admin'], {
    command: ['pipelines', 'get'],
    summary: 'Show one pipeline',
    examples: ['crmctl pipelines get 1'],
    ...SHOWN,
  }),
  create: createRow('/api/v2/pipelines', 5, ['admin'], () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), is_deal_probability_enabled: z.optional(z.boolean()) }), {
    command: ['pipelines', 'create'],
    summary: 'Create a pipeline',
    examples: ['crmctl pipelines create --name "Renewals"'],
    ...SHOWN,
  }),
  update: updateRow('PATCH', '/api/v2/pipelines/{id}', 5, ['admin'], {
    command: ['pipelines', 'update'],
    summary: 'Change a pipeline: only the fields you give change',
    examples: ['crmctl pipelines update 2 --is-deal-probability-enabled true'],
    ...SHOWN,
  }, { body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), is_deal_probability_enabled: z.optional(z.boolean()) }) }),
  delete: deleteRow('/api/v2/pipelines/{id}', 3, ['admin'], {
    command: ['pipelines', 'delete'],
    summary: 'Delete a pipeline',
    examples: ['crmctl pipelines delete 1'],
  }),
  conversionStatistics: getRow('/api/v1/pipelines/{id}/conversion_statistics', 40, ['deals:read', 'deals:full'], {
    command: ['pipelines', 'conversion-stats'],
    summary: 'Stage-to-stage conversion rates of a pipeline over a period',
    examples: ['crmctl pipelines conversion-stats 1 --start-date 2025-01-01 --end-date 2025-12-31'],
    columns: ['stage_conversions', 'won_conversion', 'lost_conversion'],
    fields: ['stage_conversions', 'won_conversion', 'lost_conversion'],
  }, { query: periodQuery }),
  movementStatistics: getRow('/api/v1/pipelines/{id}/movement_statistics', 40, ['deals:read', 'deals:full'], {
    command: ['pipelines', 'movement-stats'],
    summary: 'Deals that entered, moved within or left a pipeline over a period',
    examples: ['crmctl pipelines movement-stats 1 --start-date 2025-01-01 --end-date 2025-12-31'],
    columns: ['movements_between_stages', 'new_deals', 'deals_left_open', 'won_deals', 'lost_deals', 'average_age_in_days'],
    fields: ['movements_between_stages', 'new_deals', 'deals_left_open', 'won_deals', 'lost_deals', 'average_age_in_days'],
  }, { query: periodQuery }),
} satisfies OperationTable);
