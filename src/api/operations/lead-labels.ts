import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { uuid } from '../schemas.js';
import { createRow, deleteRow, getRow, updateRow } from './rows.js';

export const LABEL_COLORS = ['blue', 'brown', 'dark-gray', 'gray', 'green', 'orange', 'pink', 'purple', 'red', 'yellow'] as const;
const color = once(() => z.enum(LABEL_COLORS));
const FIELDS = ['id', 'name', 'color', 'add_time', 'update_time'];
const COLUMNS = ['id', 'name', 'color'];
/** Labels are named by UUID, not by the integer ids the row builders assume. */
const labelParams = () => z.object({ id: uuid() });

export const leadLabelOps = defineTable('leadLabels', {
  list: getRow('/api/v1/leadLabels', 10, ['leads:read', 'leads:full'], { command: ['lead-labels', 'list'], summary: 'List lead labels (all of them; not paginated)', examples: ['crmctl lead-labels list'], columns: COLUMNS, fields: FIELDS }),
  create: createRow('/api/v1/leadLabels', 10, ['leads:full'], () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), color: color() }), { command: ['lead-labels', 'create'], summary: 'Create a lead label', examples: ['crmctl lead-labels create --name "Hot (EMEA)" --color red'], columns: COLUMNS, fields: FIELDS }),
  update: updateRow('PATCH', '/api/v1/leadLabels/{id}', 10, ['leads:full'], { prompts: { id: { from: 'leadLabels.list' } }, command: ['lead-labels', 'update'], summary: 'Rename or recolour a lead label (only the fields you give change)', examples: ['crmctl lead-labels update <label-id> --color purple'], columns: COLUMNS, fields: FIELDS }, { params: labelParams, body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), color: z.optional(color()) }) }),
  delete: deleteRow('/api/v1/leadLabels/{id}', 6, ['leads:full'], { prompts: { id: { from: 'leadLabels.list' } }, command: ['lead-labels', 'delete'], summary: 'Delete a lead label', examples: ['crmctl lead-labels delete <label-id> --yes'], columns: ['id'] }, { params: labelParams }),
} satisfies OperationTable);
