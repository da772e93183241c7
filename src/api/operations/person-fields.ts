import { defineTable, type OperationTable } from '../operation.js';
import { fieldRows, fieldRowsV1, type FieldEntity } from './field-api.js';

export const PERSON_FIELDS: FieldEntity = {
  command: 'person-fields',
  area: 'personFields',
  noun: 'person',
  read: ['contacts:read', 'contacts:full', 'admin', 'contact-fields:full'],
  create: ['admin', 'contact-fields:full'],
  patch: ['contacts:full', 'admin', 'contact-fields:full'],
  remove: ['admin', 'contact-fields:full'],
  important: true,
  v1: { read: ['contacts:read', 'contacts:full', 'contact-fields:full', 'admin'], write: ['contact-fields:full', 'admin'] },
};

export const personFieldOps = defineTable('personFields', {
  ...fieldRows(PERSON_FIELDS),
  ...fieldRowsV1({ ...PERSON_FIELDS, v1: PERSON_FIELDS.v1! }),
} satisfies OperationTable);
