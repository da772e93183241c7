import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { offsetQuery } from '../schemas.js';
import { listRow } from './rows.js';

export const leadFieldOps = defineTable('leadFields', {
  list: listRow('/api/v1/leadFields', 20, ['leads:read', 'leads:full', 'admin'], 'offset', () => z.object({ ...offsetQuery() }), {
    command: ['lead-fields', 'list'],
    summary: 'List the fields of leads (the deal fields leads use)',
    examples: ['crmctl lead-fields list'],
    columns: ['id', 'name', 'key', 'field_type', 'add_time', 'update_time'],
    fields: ['id', 'key', 'name', 'order_nr', 'field_type', 'add_time', 'update_time', 'last_updated_by_user_id', 'created_by_user_id', 'active_flag', 'edit_flag', 'index_visible_flag', 'details_visible_flag', 'add_visible_flag', 'important_flag', 'bulk_edit_allowed', 'searchable_flag', 'filtering_allowed', 'sortable_flag', 'mandatory_flag', 'options', 'options_deleted', 'is_subfield', 'subfields'],
  }),
} satisfies OperationTable);
