import { z } from 'zod';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id, pathId } from '../schemas.js';

/** Fields of a project template. */
const TEMPLATE_FIELDS = ['id', 'title', 'description', 'projects_board_id', 'owner_id', 'add_time', 'update_time'];

export const projectTemplateOps = defineTable('projectTemplates', {
  list: {
    method: 'GET',
    path: '/api/v2/projectTemplates',
    cost: 10,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'cursor',
    maxLimit: 500,
    query: () => z.object({ ...cursorQuery(500) }),
    cli: {
      command: ['project-templates', 'list'],
      summary: 'List project templates',
      examples: ['crmctl project-templates list'],
      columns: ['id', 'title', 'description', 'owner_id'],
      fields: TEMPLATE_FIELDS,
    },
  },
  listV1: {
    method: 'GET',
    path: '/api/v1/projectTemplates',
    cost: 20,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'cursor',
    maxLimit: 500,
    query: () => z.object({ ...cursorQuery(500) }),
    cli: {
      command: ['project-templates', 'list'],
      summary: 'List project templates (v1 form)',
      examples: ['crmctl project-templates list'],
      columns: ['id', 'title', 'owner_id', 'add_time', 'update_time'],
      fields: TEMPLATE_FIELDS,
      switch: '--v1',
    },
  },
  get: {
    method: 'GET',
    path: '/api/v2/projectTemplates/{id}',
    cost: 1,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['project-templates', 'get'],
      summary: 'Show one project template',
      examples: ['crmctl project-templates get 1'],
      columns: ['id', 'title', 'owner_id', 'add_time', 'update_time'],
      fields: TEMPLATE_FIELDS,
    },
  },
  getV1: {
    method: 'GET',
    path: '/api/v1/projectTemplates/{id}',
    cost: 2,
    scopes: ['projects:read', 'projects:full'],
    pagination: 'none',
    params: () => z.object({ id: pathId }),
    cli: {
      command: ['project-templates', 'get'],
      summary: 'Show one project template (v1 form)',
      examples: ['crmctl project-templates get 1'],
      columns: ['id', 'title', 'owner_id', 'add_time', 'update_time'],
      fields: TEMPLATE_FIELDS,
      switch: '--v1',
    },
  },
} satisfies OperationTable);
