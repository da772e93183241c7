import { defineTable, type OperationTable } from '../operation.js';
import { fieldRows, fieldRowsV1, type FieldEntity } from './field-api.js';

// Scopes per operation (the vendor's OpenAPI): reads also with contacts:*, writes admin or
// contact-fields:full; PATCH of a field and the three option operations also accept contacts:full.
export const ORGANIZATION_FIELDS: FieldEntity = {
  command: 'organization-fields',
  area: 'organizationFields',
  noun: 'organization',
  read: ['contacts:read', 'contacts:full', 'admin', 'contact-fields:full'],
  create: ['admin', 'contact-fields:full'],
  patch: ['contacts:full', 'admin', 'contact-fields:full'],
  remove: ['admin', 'contact-fields:full'],
  important: true,
  v1: { read: ['contacts:read', 'contacts:full', 'contact-fields:full', 'admin'], write: ['contact-fields:full', 'admin'] },
};

export const organizationFieldOps = defineTable('organizationFields', {
  ...fieldRows(ORGANIZATION_FIELDS),
  ...fieldRowsV1({ ...ORGANIZATION_FIELDS, v1: ORGANIZATION_FIELDS.v1! }),
} satisfies OperationTable);
