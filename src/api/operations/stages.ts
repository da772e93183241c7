import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id } from '../schemas.js';
import { createRow, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of a stage record. */
const STAGE_FIELDS = [
  'id', 'order_nr', 'name', 'is_deleted', 'deal_probability', 'pipeline_id', 'is_deal_rot_enabled', 'days_to_rotten', 'add_time',
  'update_time',
];

/** Columns and known fields of one stage as a read or a write answers it. */
const SHOWN = { columns: ['id', 'name', 'pipeline_id', 'add_time', 'update_time'], fields: STAGE_FIELDS };
/** Body fields of a create and an update after the name and pipeline (required on create, optional on update). */
const stageBody = () => ({ deal_probability: z.optional(z.int().check(z.gte(0)).check(z.lte(100))), is_deal_rot_enabled: z.optional(z.boolean()), days_to_rotten: z.optional(z.nullable(z.int().check(z.gte(1)))) });

export const stageOps = defineTable('stages', {
  list: listRow('/api/v2/stages', 5, ['deals:read', 'deals:full', 'admin'], 'cursor', () => z.object({ pipeline_id: z.optional(id()), sort_by: z.optional(z.enum(['id', 'update_time', 'add_time', 'order_nr'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), ...cursorQuery(500) }), {
    command: ['stages', 'list'],
    summary: 'List deal stages, optionally of one pipeline',
    examples: ['crmctl stages list'],
    columns: ['id', 'name', 'pipeline_id', 'order_nr', 'deal_probability'],
    fields: STAGE_FIELDS,
  }),
  get: getRow('/api/v2/stages/{id}', 1, ['deals:read', 'deals:full', 'admin'], {
    command: ['stages', 'get'],
    summary: 'Show one stage',
    examples: ['crmctl stages get 1'],
    ...SHOWN,
  }),
  create: createRow('/api/v2/stages', 5, ['admin'], () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), pipeline_id: id(), ...stageBody() }), {
    command: ['stages', 'create'],
    summary: 'Add a stage to a pipeline',
    examples: ['crmctl stages create --name "Legal review" --pipeline-id 1'],
    ...SHOWN,
  }),
  update: updateRow('PATCH', '/api/v2/stages/{id}', 5, ['admin'], {
    command: ['stages', 'update'],
    summary: 'Change a stage: only the fields you give change',
    examples: ['crmctl stages update 3 --deal-probability 60'],
    ...SHOWN,
  }, {
    body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), pipeline_id: z.optional(id()), ...stageBody() }),
  }),
  delete: deleteRow('/api/v2/stages/{id}', 3, ['admin'], {
    command: ['stages', 'delete'],
    summary: 'Delete a stage',
    examples: ['crmctl stages delete 1'],
  }),
} satisfies OperationTable);
