import { defineTable, type OperationTable } from '../operation.js';
import { fieldRows, type FieldEntity } from './field-api.js';

/** Project fields exist in the v2 form only (beta at the vendor). */
export const PROJECT_FIELDS: FieldEntity = {
  command: 'project-fields',
  area: 'projectFields',
  noun: 'project',
  read: ['projects:read', 'projects:full', 'project-fields:full'],
  create: ['project-fields:full'],
  patch: ['project-fields:full'],
  remove: ['project-fields:full'],
  important: true,
  include: false,
};

export const projectFieldOps = defineTable('projectFields', fieldRows(PROJECT_FIELDS) satisfies OperationTable);
