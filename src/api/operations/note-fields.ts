import { defineTable, type OperationTable } from '../operation.js';
import { getRow } from './rows.js';

export const noteFieldOps = defineTable('noteFields', {
  list: getRow('/api/v1/noteFields', 20, ['deals:read', 'deals:full', 'contacts:read', 'contacts:full'], {
    command: ['note-fields', 'list'],
    summary: 'List the fields of notes',
    examples: ['crmctl note-fields list'],
    columns: ['id', 'name', 'key', 'field_type'],
    fields: ['id', 'key', 'name', 'field_type', 'active_flag', 'edit_flag', 'bulk_edit_allowed', 'mandatory_flag', 'options'],
  }),
} satisfies OperationTable);
