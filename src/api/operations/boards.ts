import { z } from 'zod';
import { id, pathId } from '../schemas.js';
import { defineTable, type OperationTable } from '../operation.js';

/** Fields of a board record. */
const BOARD_FIELDS = ['id', 'name', 'order_nr', 'add_time', 'update_time'];

export const boardOps = defineTable('boards', {
  listV1: {
    method: 'GET',
    path: '/api/v1/projects/boards',
    cost: 20,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'none',
    cli: { command: ['boards', 'list'], summary: 'List project boards (v1 form)', examples: ['crmctl boards list --v1'], columns: ['id', 'name', 'order_nr'], switch: '--v1' },
  },
  list: {
    method: 'GET',
    path: '/api/v2/boards',
    cost: 10,
    scopes: ['projects:read', 'projects:full'],
    beta: true,
    pagination: 'none',
    cli: {
      command: ['boards', 'list'],
      summary: 'List project boards',
      examples: ['crmctl boards list'],
      columns: ['id', 'name', 'order_nr'],
      fields: BOARD_FIELDS,
    },
  },
  get: {
    method: 'GET',
    path: '/api/v2/boards/{id}',
    cost: 10,
    scopes: ['projects:read', 'projects:full'],
    beta: true,
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['boards', 'get'],
      summary: 'Show one project board',
      examples: ['crmctl boards get 1'],
      columns: ['id', 'name', 'add_time', 'update_time'],
      fields: BOARD_FIELDS,
    },
  },
  getV1: {
    method: 'GET',
    path: '/api/v1/projects/boards/{id}',
    cost: 2,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['boards', 'get'],
      summary: 'Show one project board (v1 form)',
      examples: ['crmctl boards get 1'],
      columns: ['id', 'name', 'add_time', 'update_time'],
      fields: BOARD_FIELDS,
      switch: '--v1',
    },
  },
  create: {
    method: 'POST',
    path: '/api/v2/boards',
    cost: 5,
    scopes: ['projects:full'],
    beta: true,
    pagination: 'none',
    body: () => z.object({ name: z.string(), order_nr: z.int().min(1).optional() }),
    cli: {
      command: ['boards', 'create'],
      summary: 'Create a project board',
      examples: ['crmctl boards create --name Delivery'],
      columns: ['id', 'name', 'add_time', 'update_time'],
      fields: BOARD_FIELDS,
    },
  },
  update: {
    method: 'PATCH',
    path: '/api/v2/boards/{id}',
    cost: 5,
    scopes: ['projects:full'],
    beta: true,
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    body: () => z.object({ name: z.string().optional(), order_nr: z.int().min(1).optional() }),
    cli: {
      command: ['boards', 'update'],
      summary: 'Rename or reorder a project board',
      examples: ['crmctl boards update 1 --name "Delivery (EU)"'],
      columns: ['id', 'name', 'add_time', 'update_time'],
      fields: BOARD_FIELDS,
    },
  },
  delete: {
    method: 'DELETE',
    path: '/api/v2/boards/{id}',
    cost: 3,
    scopes: ['projects:full'],
    beta: true,
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['boards', 'delete'],
      summary: 'Delete an empty project board',
      examples: ['crmctl boards delete 1'],
      columns: ['id'],
      fields: ['id'],
      confirm: true,
    },
  },
} satisfies OperationTable);
