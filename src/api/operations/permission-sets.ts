import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { uuid } from '../schemas.js';
import { getRow, listRow, offsetPage } from './rows.js';

// Permission sets are read-only and admin-only (the vendor's documents).
const ADMIN = ['admin'];

export const PERMISSION_SET_APPS = ['sales', 'projects', 'campaigns', 'global', 'account_settings', 'partnership', 'nova'] as const;
export const PERMISSION_SET_FIELDS = ['id', 'name', 'description', 'app', 'type', 'assignment_count'];
const COLUMNS = ['id', 'name', 'app', 'type', 'assignment_count'];

// Ids are strings in the interface; every id the service hands out is a UUID (the vendor's documents), so a typo is caught here.
const params = once(() => z.object({ id: uuid() }));

export const permissionSetOps = defineTable('permissionSets', {
  list: getRow('/api/v1/permissionSets', 20, ADMIN, {
    command: ['permission-sets', 'list'],
    summary: 'List permission sets, optionally of one app',
    examples: ['crmctl permission-sets list', 'crmctl permission-sets list --app sales --output tsv'],
    columns: COLUMNS,
    fields: PERMISSION_SET_FIELDS,
    help: { app: 'only the sets of this app' },
  }, { query: () => z.object({ app: z.optional(z.enum(PERMISSION_SET_APPS)) }) }),
  get: getRow('/api/v1/permissionSets/{id}', 2, ADMIN, {
    help: { id: 'permission set id (UUID)' },
    command: ['permission-sets', 'get'],
    summary: 'Show one permission set with the permissions it grants',
    examples: ['crmctl permission-sets get f07d229d-088a-4144-a40f-1fe64295d180'],
    columns: [...COLUMNS, 'description', 'contents'],
    fields: [...PERMISSION_SET_FIELDS, 'contents'],
  }, { params: params() }),
  assignments: listRow('/api/v1/permissionSets/{id}/assignments', 20, ADMIN, 'offset', offsetPage, {
    help: { id: 'permission set id (UUID)' },
    command: ['permission-sets', 'assignments'],
    summary: 'List the users a permission set is assigned to',
    examples: ['crmctl permission-sets assignments f07d229d-088a-4144-a40f-1fe64295d180 --all'],
    columns: ['user_id', 'permission_set_id', 'name'],
    fields: ['user_id', 'permission_set_id', 'name'],
    // The service answers 404 for a set without assignments; the hand-written command shows an empty list then.
    handWritten: true,
  }, { params: params() }),
} satisfies OperationTable);
