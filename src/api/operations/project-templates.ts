import { defineTable, type OperationTable } from '../operation.js';
import { cursorPage, getRow, listRow } from './rows.js';

/** Fields of a project template. */
const TEMPLATE_FIELDS = ['id', 'title', 'description', 'projects_board_id', 'owner_id', 'add_time', 'update_time'];

/** Columns and known fields of one template (the v1 list answers the same). */
const SHOWN = { columns: ['id', 'title', 'owner_id', 'add_time', 'update_time'], fields: TEMPLATE_FIELDS };

export const projectTemplateOps = defineTable('projectTemplates', {
  list: listRow('/api/v2/projectTemplates', 10, ['projects:read', 'projects:full'], 'cursor', cursorPage, {
    command: ['project-templates', 'list'],
    summary: 'List project templates',
    examples: ['crmctl project-templates list'],
    columns: ['id', 'title', 'description', 'owner_id'],
    fields: TEMPLATE_FIELDS,
  }),
  listV1: listRow('/api/v1/projectTemplates', 20, ['projects:read', 'projects:full'], 'cursor', cursorPage, {
    command: ['project-templates', 'list'],
    summary: 'List project templates (v1 form)',
    examples: ['crmctl project-templates list'],
    ...SHOWN,
    switch: '--v1',
  }),
  get: getRow('/api/v2/projectTemplates/{id}', 1, ['projects:read', 'projects:full'], {
    command: ['project-templates', 'get'],
    summary: 'Show one project template',
    examples: ['crmctl project-templates get 1'],
    ...SHOWN,
  }),
  getV1: getRow('/api/v1/projectTemplates/{id}', 2, ['projects:read', 'projects:full'], {
    command: ['project-templates', 'get'],
    summary: 'Show one project template (v1 form)',
    examples: ['crmctl project-templates get 1'],
    ...SHOWN,
    switch: '--v1',
  }),
} satisfies OperationTable);
