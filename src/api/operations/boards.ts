import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { createRow, deleteRow, getRow, updateRow } from './rows.js';

/** Fields of a board record. */
const BOARD_FIELDS = ['id', 'name', 'order_nr', 'add_time', 'update_time'];

/** Columns and known fields of one board as a read or a write answers it (v2 and v1 alike). */
const SHOWN = { columns: ['id', 'name', 'add_time', 'update_time'], fields: BOARD_FIELDS };

export const boardOps = defineTable('boards', {
  listV1: getRow('/api/v1/projects/boards', 20, ['projects:read', 'projects:full'], { command: ['boards', 'list'], summary: 'List project boards (v1 form)', examples: ['crmctl boards list --v1'], columns: ['id', 'name', 'order_nr'], switch: '--v1' }),
  list: getRow('/api/v2/boards', 10, ['projects:read', 'projects:full'], { command: ['boards', 'list'], summary: 'List project boards', examples: ['crmctl boards list'], columns: ['id', 'name', 'order_nr'], fields: BOARD_FIELDS }, { beta: true }),
  get: getRow('/api/v2/boards/{id}', 10, ['projects:read', 'projects:full'], { command: ['boards', 'get'], summary: 'Show one project board', examples: ['crmctl boards get 1'], ...SHOWN }, { beta: true }),
  getV1: getRow('/api/v1/projects/boards/{id}', 2, ['projects:read', 'projects:full'], { command: ['boards', 'get'], summary: 'Show one project board (v1 form)', examples: ['crmctl boards get 1'], ...SHOWN, switch: '--v1' }),
  create: createRow('/api/v2/boards', 5, ['projects:full'], () => z.object({ name: z.string(), order_nr: z.optional(z.int().check(z.gte(1))) }), {
    command: ['boards', 'create'], summary: 'Create a project board', examples: ['crmctl boards create --name Delivery'], ...SHOWN,
  }, { beta: true }),
  update: updateRow('PATCH', '/api/v2/boards/{id}', 5, ['projects:full'], {
    command: ['boards', 'update'], summary: 'Rename or reorder a project board', examples: ['crmctl boards update 1 --name "Delivery (EU)"'], ...SHOWN,
  }, { beta: true, body: () => z.object({ name: z.optional(z.string()), order_nr: z.optional(z.int().check(z.gte(1))) }) }),
  delete: deleteRow('/api/v2/boards/{id}', 3, ['projects:full'], {
    command: ['boards', 'delete'],
    summary: 'Delete an empty project board',
    examples: ['crmctl boards delete 1'],
  }, { beta: true }),
} satisfies OperationTable);
