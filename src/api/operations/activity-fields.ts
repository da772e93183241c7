import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery } from '../schemas.js';
import { V1_FIELD_FIELDS } from './field-api.js';
import { getRow, listRow } from './rows.js';

// v2 activity field metadata is read-only and needs the admin scope (the vendor's OpenAPI).
const SCOPES = ['admin'];
const FIELDS = ['field_code', 'field_name', 'field_type', 'description', 'options', 'subfields', 'is_custom_field', 'is_optional_response_field', 'ui_visibility'];
const COLUMNS = ['field_code', 'field_name', 'field_type', 'is_custom_field'];
const includeFields = once(() => z.optional(z.array(z.enum(['ui_visibility']))));
const HELP = { include_fields: 'also return ui_visibility (add_visible_flag, details_visible_flag)' };

export const activityFieldOps = defineTable('activityFields', {
  list: listRow('/api/v2/activityFields', 10, SCOPES, 'cursor', () => z.object({ include_fields: includeFields(), ...cursorQuery(500) }), {
    command: ['activity-fields', 'list'],
    summary: 'List activity field metadata (read-only)',
    examples: ['crmctl activity-fields list --include-fields ui_visibility --all', 'crmctl activity-fields list --json'],
    columns: COLUMNS,
    fields: FIELDS,
    help: HELP,
  }),
  get: getRow('/api/v2/activityFields/{field_code}', 1, SCOPES, {
    command: ['activity-fields', 'get'],
    summary: 'Show one activity field by its field code',
    examples: ['crmctl activity-fields get due_date --include-fields ui_visibility'],
    columns: [...COLUMNS, 'options', 'ui_visibility'],
    fields: FIELDS,
    help: HELP,
  }, { params: () => z.object({ field_code: z.string().check(z.trim()).check(z.minLength(1)) }), query: () => z.object({ include_fields: includeFields() }) }),
  // The vendor documents no paging for the v1 list: it answers every field at once.
  listV1: getRow('/api/v1/activityFields', 20, ['activities:read', 'activities:full'], {
    command: ['activity-fields', 'list'],
    switch: '--v1',
    summary: 'List activity fields in the v1 form (activity scopes instead of admin)',
    examples: ['crmctl activity-fields list --v1'],
    columns: ['id', 'key', 'name', 'field_type'],
    fields: V1_FIELD_FIELDS,
  }),
} satisfies OperationTable);
