import { defineTable, type OperationTable } from '../operation.js';

export const noteFieldOps = defineTable('noteFields', {
  list: {
    method: 'GET',
    path: '/api/v1/noteFields',
    cost: 20,
    scopes: ['deals:read', 'deals:full', 'contacts:read', 'contacts:full'],
    pagination: 'none',
    cli: {
      command: ['note-fields', 'list'],
      summary: 'List the fields of notes',
      examples: ['crmctl note-fields list'],
      columns: ['id', 'name', 'key', 'field_type'],
      fields: ['id', 'key', 'name', 'field_type', 'active_flag', 'edit_flag', 'bulk_edit_allowed', 'mandatory_flag', 'options'],
    },
  },
} satisfies OperationTable);
