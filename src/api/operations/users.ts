import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { flag01, searchQuery } from '../schemas.js';
import { createRow, cursorPage, getRow, listRow, offsetPage, updateRow } from './rows.js';

/** Fields of a user record. */
const USER_FIELDS = [
  'id', 'name', 'default_currency', 'locale', 'lang', 'email', 'phone', 'activated', 'last_login', 'created', 'modified',
  'has_created_company', 'access', 'active_flag', 'timezone_name', 'timezone_offset', 'role_id', 'icon_url', 'is_you',
  'is_deleted',
];

/** Columns and known fields of one user as a read or a write answers it. */
const SHOWN = { columns: ['id', 'name', 'email'], fields: USER_FIELDS };

export const userOps = defineTable('users', {
  list: getRow('/api/v1/users', 20, ['users:read'], {
    command: ['users', 'list'],
    summary: 'List the users of the company',
    examples: ['crmctl users list'],
    columns: ['id', 'name', 'email', 'active_flag'],
    fields: USER_FIELDS,
  }),
  find: getRow('/api/v1/users/find', 40, ['users:read'], {
    command: ['users', 'find'],
    summary: 'Find users by name (or e-mail with --search-by-email 1)',
    examples: ['crmctl users find --term ada'],
    ...SHOWN,
  }, { query: () => searchQuery({ term: z.string(), search_by_email: z.optional(flag01()) }) }),
  me: getRow('/api/v1/users/me', 2, ['base'], {
    command: ['users', 'me'],
    summary: 'Show the user the credentials belong to',
    examples: ['crmctl users me'],
    columns: ['id', 'name', 'email'],
    fields: [...USER_FIELDS, 'company_id', 'company_name', 'company_domain', 'company_country', 'company_industry', 'language'],
  }),
  get: getRow('/api/v1/users/{id}', 2, ['users:read'], {
    command: ['users', 'get'],
    summary: 'Show one user',
    examples: ['crmctl users get 1'],
    ...SHOWN,
  }),
  create: createRow('/api/v1/users', 10, ['admin'], () => z.object({ email: z.email({ error: 'must be an e-mail address' }), access: z.optional(z.array(z.object({ app: z.enum(['global', 'sales', 'campaigns', 'projects', 'account_settings', 'partnership', 'nova']), admin: z.optional(z.boolean()), permission_set_id: z.optional(z.string()) }))), active_flag: z.optional(z.boolean()) }), {
    command: ['users', 'create'],
    summary: 'Add a user to the company (an invitation by e-mail)',
    examples: ['crmctl users create --email new.seller@example.com'],
    ...SHOWN,
  }),
  update: updateRow('PUT', '/api/v1/users/{id}', 10, ['admin'], {
    command: ['users', 'update'],
    summary: 'Activate or deactivate a user',
    examples: ['crmctl users update 3 --active-flag false'],
    ...SHOWN,
  }, { body: () => z.object({ active_flag: z.boolean() }) }),
  followers: listRow('/api/v2/users/{id}/followers', 10, ['users:read'], 'cursor', cursorPage, {
    command: ['users', 'followers'],
    summary: 'List the users who follow a user',
    examples: ['crmctl users followers 1'],
    columns: ['user_id', 'add_time'],
    fields: ['user_id', 'add_time'],
  }),
  followersV1: getRow('/api/v1/users/{id}/followers', 20, ['users:read'], {
    command: ['users', 'followers'],
    summary: 'List followers (v1 form)',
    examples: ['crmctl users followers 1'],
    switch: '--v1',
  }),
  permissions: getRow('/api/v1/users/{id}/permissions', 10, ['users:read'], {
    command: ['users', 'permissions'],
    summary: 'Show what a user may do (the merged permissions of their sets)',
    examples: ['crmctl users permissions 1'],
    columns: ['can_add_custom_fields', 'can_add_products', 'can_add_prospects_as_leads', 'can_bulk_edit_items', 'can_change_visibility_of_items', 'can_convert_deals_to_leads', 'can_create_own_workflow'],
    fields: ['can_add_custom_fields', 'can_add_products', 'can_add_prospects_as_leads', 'can_bulk_edit_items', 'can_change_visibility_of_items', 'can_convert_deals_to_leads', 'can_create_own_workflow', 'can_delete_activities', 'can_delete_custom_fields', 'can_delete_deals', 'can_edit_custom_fields', 'can_edit_deals_closed_date', 'can_edit_products', 'can_edit_shared_filters', 'can_export_data_from_lists', 'can_follow_other_users', 'can_merge_deals', 'can_merge_organizations', 'can_merge_people', 'can_modify_labels', 'can_see_company_wide_statistics', 'can_see_deals_list_summary', 'can_see_hidden_items_names', 'can_see_other_users', 'can_see_other_users_statistics', 'can_see_security_dashboard', 'can_share_filters', 'can_share_insights', 'can_use_api', 'can_use_email_tracking', 'can_use_import'],
  }),
  roleAssignments: listRow('/api/v1/users/{id}/roleAssignments', 10, ['users:read'], 'offset', offsetPage, {
    command: ['users', 'role-assignments'],
    summary: 'List the roles a user is assigned to',
    examples: ['crmctl users role-assignments 1'],
    columns: ['name', 'type', 'user_id'],
    fields: ['parent_role_id', 'name', 'user_id', 'role_id', 'active_flag', 'type'],
  }),
  roleSettings: getRow('/api/v1/users/{id}/roleSettings', 10, ['users:read'], {
    command: ['users', 'role-settings'],
    summary: 'Show the visibility settings a user gets from their role',
    examples: ['crmctl users role-settings 1'],
    columns: ['deal_default_visibility', 'lead_default_visibility', 'org_default_visibility', 'person_default_visibility', 'product_default_visibility', 'deal_access_level', 'org_access_level'],
    fields: ['deal_default_visibility', 'lead_default_visibility', 'org_default_visibility', 'person_default_visibility', 'product_default_visibility', 'deal_access_level', 'org_access_level', 'person_access_level', 'product_access_level'],
  }),
  settings: getRow('/api/v1/userSettings', 2, ['base'], {
    command: ['users', 'settings'],
    summary: 'Show the settings of the authorized user',
    examples: ['crmctl users settings'],
    columns: ['marketplace_team', 'list_limit', 'beta_app', 'prevent_salesphone_callto_override', 'file_upload_destination', 'callto_link_syntax', 'autofill_deal_expected_close_date'],
    fields: ['marketplace_team', 'list_limit', 'beta_app', 'prevent_salesphone_callto_override', 'file_upload_destination', 'callto_link_syntax', 'autofill_deal_expected_close_date', 'person_duplicate_condition'],
  }),
  connections: getRow('/api/v1/userConnections', 20, ['base'], {
    command: ['users', 'connections'],
    summary: 'Show the connections of the authorized user (e.g. Google)',
    examples: ['crmctl users connections'],
    columns: ['google'],
    fields: ['google'],
  }),
} satisfies OperationTable);
