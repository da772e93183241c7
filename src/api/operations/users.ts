import { defineTable, type OperationTable } from '../operation.js';

export const USER_FIELDS = ['id', 'name', 'email', 'is_admin', 'active_flag', 'role_id', 'default_currency', 'locale', 'timezone_name', 'created', 'modified', 'icon_url'];
const COLUMNS = ['id', 'name', 'email', 'is_admin', 'active_flag'];

export const userOps = defineTable('users', {
  list: {
    method: 'GET',
    path: '/api/v1/users',
    cost: 20,
    scopes: ['users:read'],
    pagination: 'none',
    cli: { command: ['users', 'list'], summary: 'List the users of the company', examples: ['crmctl users list'], columns: COLUMNS, fields: USER_FIELDS },
  },
  me: {
    method: 'GET',
    path: '/api/v1/users/me',
    cost: 2,
    scopes: ['base'],
    pagination: 'none',
    cli: { command: ['users', 'me'], summary: 'Show the user the credentials belong to', examples: ['crmctl users me --json'], columns: [...COLUMNS, 'company_id', 'company_domain'] },
  },
} satisfies OperationTable);
