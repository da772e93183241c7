import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { uuid } from '../schemas.js';

export const LABEL_COLORS = ['blue', 'brown', 'dark-gray', 'gray', 'green', 'orange', 'pink', 'purple', 'red', 'yellow'] as const;
const color = z.enum(LABEL_COLORS);
const FIELDS = ['id', 'name', 'color', 'add_time', 'update_time'];
const COLUMNS = ['id', 'name', 'color'];

export const leadLabelOps = defineTable('leadLabels', {
  list: {
    method: 'GET',
    path: '/api/v1/leadLabels',
    cost: 10,
    scopes: ['leads:read', 'leads:full'],
    pagination: 'none',
    cli: { command: ['lead-labels', 'list'], summary: 'List lead labels (all of them; not paginated)', examples: ['crmctl lead-labels list'], columns: COLUMNS, fields: FIELDS },
  },
  create: {
    method: 'POST',
    path: '/api/v1/leadLabels',
    cost: 10,
    scopes: ['leads:full'],
    pagination: 'none',
    body: () => z.object({ name: z.string().trim().min(1), color }),
    cli: { command: ['lead-labels', 'create'], summary: 'Create a lead label', examples: ['crmctl lead-labels create --name "Hot (EMEA)" --color red'], columns: COLUMNS, fields: FIELDS },
  },
  update: {
    method: 'PATCH',
    path: '/api/v1/leadLabels/{id}',
    cost: 10,
    scopes: ['leads:full'],
    pagination: 'none',
    params: () => z.object({ id: uuid }),
    body: () => z.object({ name: z.string().trim().min(1).optional(), color: color.optional() }),
    cli: { prompts: { id: { from: 'leadLabels.list' } }, command: ['lead-labels', 'update'], summary: 'Rename or recolour a lead label (only the fields you give change)', examples: ['crmctl lead-labels update <label-id> --color purple'], columns: COLUMNS, fields: FIELDS },
  },
  delete: {
    method: 'DELETE',
    path: '/api/v1/leadLabels/{id}',
    cost: 6,
    scopes: ['leads:full'],
    pagination: 'none',
    params: () => z.object({ id: uuid }),
    cli: { prompts: { id: { from: 'leadLabels.list' } }, command: ['lead-labels', 'delete'], summary: 'Delete a lead label', examples: ['crmctl lead-labels delete <label-id> --yes'], confirm: true, columns: ['id'] },
  },
} satisfies OperationTable);
