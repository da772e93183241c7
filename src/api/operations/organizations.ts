import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, dateTime, id, searchQuery, visibleToNumber } from '../schemas.js';
import { followerRows } from './follower-rows.js';
import { itemHistoryRows } from './item-history-rows.js';
import { createRow, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of an organization record. */
const ORGANIZATION_FIELDS = [
  'id', 'name', 'owner_id', 'add_time', 'update_time', 'is_deleted', 'visible_to', 'address', 'label_ids', 'website', 'linkedin',
  'industry', 'annual_revenue', 'employee_count', 'custom_fields',
];
/** Fields of an organization relationship. */
const RELATIONSHIP_FIELDS = ['id', 'type', 'rel_owner_org_id', 'rel_linked_org_id', 'add_time', 'update_time', 'active_flag'];

const READ = ['contacts:read', 'contacts:full'];
const HISTORY = itemHistoryRows({ area: 'organizations', noun: 'organization', read: READ });

export const organizationOps = defineTable('organizations', {
  list: listRow('/api/v2/organizations', 10, READ, 'cursor', () => z.object({ filter_id: z.optional(id()), ids: z.optional(z.array(id()).check(z.maxLength(100))), owner_id: z.optional(id()), updated_since: z.optional(dateTime()), updated_until: z.optional(dateTime()), sort_by: z.optional(z.enum(['id', 'update_time', 'add_time'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), include_fields: z.optional(z.array(z.enum(['next_activity_id', 'last_activity_id', 'open_deals_count', 'related_open_deals_count', 'closed_deals_count', 'related_closed_deals_count', 'email_messages_count', 'people_count', 'activities_count', 'done_activities_count', 'undone_activities_count', 'files_count', 'notes_count', 'followers_count', 'won_deals_count', 'related_won_deals_count', 'lost_deals_count', 'related_lost_deals_count', 'smart_bcc_email']))), custom_fields: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(15))), include_option_labels: z.optional(z.boolean()), include_labels: z.optional(z.boolean()), ...cursorQuery(500) }), {
    customFields: 'organization', command: ['organizations', 'list'],
    summary: 'List organizations',
    examples: ['crmctl organizations list'],
    columns: ['id', 'name', 'owner_id', 'address.value', 'update_time'],
    fields: ORGANIZATION_FIELDS,
  }),
  get: getRow('/api/v2/organizations/{id}', 1, READ, {
    customFields: 'organization', command: ['organizations', 'get'],
    summary: 'Show one organization',
    examples: ['crmctl organizations get 1'],
    columns: ['id', 'name', 'owner_id', 'add_time', 'update_time'],
    fields: ORGANIZATION_FIELDS,
  }, {
    query: () => z.object({ include_fields: z.optional(z.array(z.enum(['next_activity_id', 'last_activity_id', 'open_deals_count', 'related_open_deals_count', 'closed_deals_count', 'related_closed_deals_count', 'email_messages_count', 'people_count', 'activities_count', 'done_activities_count', 'undone_activities_count', 'files_count', 'notes_count', 'followers_count', 'won_deals_count', 'related_won_deals_count', 'lost_deals_count', 'related_lost_deals_count', 'smart_bcc_email']))), custom_fields: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(15))), include_option_labels: z.optional(z.boolean()), include_labels: z.optional(z.boolean()) }),
  }),
  create: createRow('/api/v2/organizations', 5, ['contacts:full'], () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), owner_id: z.optional(id()), add_time: z.optional(dateTime()), visible_to: z.optional(visibleToNumber()), label_ids: z.optional(z.array(id()).check(z.maxLength(100))), address: z.optional(z.object({ value: z.optional(z.string()), country: z.optional(z.string()), admin_area_level_1: z.optional(z.string()), admin_area_level_2: z.optional(z.string()), locality: z.optional(z.string()), sublocality: z.optional(z.string()), route: z.optional(z.string()), street_number: z.optional(z.string()), subpremise: z.optional(z.string()), postal_code: z.optional(z.string()) })), website: z.optional(z.nullable(z.string())), linkedin: z.optional(z.nullable(z.string())), industry: z.optional(z.nullable(z.int())), annual_revenue: z.optional(z.nullable(z.int())), employee_count: z.optional(z.nullable(z.int())), custom_fields: z.optional(z.record(z.string(), z.unknown())) }), {
    customFields: 'organization', command: ['organizations', 'create'],
    summary: 'Create an organization',
    examples: ['crmctl organizations create --name "Acme Corporation"'],
    columns: ['id', 'name', 'owner_id', 'add_time', 'update_time'],
    fields: ORGANIZATION_FIELDS,
  }),
  update: updateRow('PATCH', '/api/v2/organizations/{id}', 5, ['contacts:full'], {
    customFields: 'organization', command: ['organizations', 'update'],
    summary: 'Change an organization: only the fields you give change',
    examples: ['crmctl organizations update 1 --name "Acme Corp"'],
    columns: ['id', 'name', 'owner_id', 'add_time', 'update_time'],
    fields: ORGANIZATION_FIELDS,
  }, {
    body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), owner_id: z.optional(id()), visible_to: z.optional(visibleToNumber()), label_ids: z.optional(z.array(id()).check(z.maxLength(100))), address: z.optional(z.object({ value: z.optional(z.string()), country: z.optional(z.string()), admin_area_level_1: z.optional(z.string()), admin_area_level_2: z.optional(z.string()), locality: z.optional(z.string()), sublocality: z.optional(z.string()), route: z.optional(z.string()), street_number: z.optional(z.string()), subpremise: z.optional(z.string()), postal_code: z.optional(z.string()) })), website: z.optional(z.nullable(z.string())), linkedin: z.optional(z.nullable(z.string())), industry: z.optional(z.nullable(z.int())), annual_revenue: z.optional(z.nullable(z.int())), employee_count: z.optional(z.nullable(z.int())), custom_fields: z.optional(z.record(z.string(), z.unknown())) }),
  }),
  delete: deleteRow('/api/v2/organizations/{id}', 3, ['contacts:full'], {
    command: ['organizations', 'delete'],
    summary: 'Delete an organization',
    examples: ['crmctl organizations delete 1'],
  }),
  search: listRow('/api/v2/organizations/search', 20, ['contacts:read', 'contacts:full', 'search:read'], 'cursor', () => searchQuery({ term: z.string(), fields: z.optional(z.array(z.enum(['address', 'custom_fields', 'notes', 'name']))), exact_match: z.optional(z.boolean()), ...cursorQuery(500) }), {
    command: ['organizations', 'search'],
    summary: 'Search organizations by name, address, notes or custom fields',
    examples: ['crmctl organizations search --term acme'],
    unwrap: 'items',
    columns: ['item.id', 'item.name', 'item.address', 'result_score'],
  }),
  ...followerRows({
    area: 'organizations', noun: 'organization', read: READ, write: ['contacts:full'],
    v1Columns: ['id', 'org_id', 'user_id', 'add_time'], v1Fields: ['org_id', 'user_id', 'id', 'add_time'], changelogSummary: 'Who started or stopped following an organization',
  }),
  changelog: HISTORY.changelog,
  flow: HISTORY.flow,
  merge: updateRow('PUT', '/api/v1/organizations/{id}/merge', 40, ['contacts:full'], {
    command: ['organizations', 'merge'],
    summary: 'Merge an organization into another (persons, deals, notes... move)',
    examples: ['crmctl organizations merge 2 --merge-with-id 1 --yes'],
    columns: ['id'],
    fields: ['id'],
    confirm: true,
  }, { body: () => z.object({ merge_with_id: id() }) }),
  permittedUsers: HISTORY.permittedUsers,
  mailMessages: HISTORY.mailMessages,
  files: HISTORY.files,
  relationships: getRow('/api/v1/organizationRelationships', 20, READ, {
    command: ['organizations', 'relationships', 'list'],
    summary: 'List the relationships of an organization (parent and related, both directions)',
    examples: ['crmctl organizations relationships list --org-id 1'],
    columns: ['id', 'type', 'rel_owner_org_id.name', 'rel_linked_org_id.name', 'calculated_type'],
    fields: ['id', 'type', 'rel_owner_org_id', 'rel_linked_org_id', 'add_time', 'update_time', 'active_flag', 'calculated_type', 'calculated_related_org_id', 'related_organization_name'],
  }, { query: () => z.object({ org_id: id() }) }),
  relationship: getRow('/api/v1/organizationRelationships/{id}', 2, READ, {
    command: ['organizations', 'relationships', 'get'],
    summary: 'Show one organization relationship',
    examples: ['crmctl organizations relationships get 1'],
    columns: ['id', 'type', 'add_time', 'update_time'],
    fields: ['id', 'type', 'rel_owner_org_id', 'rel_linked_org_id', 'add_time', 'update_time', 'active_flag', 'calculated_type', 'calculated_related_org_id'],
  }, { query: () => z.object({ org_id: z.optional(id()) }) }),
  addRelationship: createRow('/api/v1/organizationRelationships', 10, ['contacts:full'], () => z.object({ org_id: z.optional(id()), type: z.enum(['parent', 'related']), rel_owner_org_id: id(), rel_linked_org_id: id() }), {
    command: ['organizations', 'relationships', 'create'],
    summary: 'Relate two organizations (parent or related)',
    examples: ['crmctl organizations relationships create --type parent --rel-owner-org-id 1 --rel-linked-org-id 2'],
    columns: ['id', 'type', 'add_time', 'update_time'],
    fields: RELATIONSHIP_FIELDS,
  }),
  updateRelationship: updateRow('PUT', '/api/v1/organizationRelationships/{id}', 10, ['contacts:full'], {
    command: ['organizations', 'relationships', 'update'],
    summary: 'Change an organization relationship',
    examples: ['crmctl organizations relationships update 1 --type related'],
    columns: ['id', 'type', 'add_time', 'update_time'],
    fields: RELATIONSHIP_FIELDS,
  }, {
    body: () => z.object({ org_id: z.optional(id()), type: z.optional(z.enum(['parent', 'related'])), rel_owner_org_id: z.optional(id()), rel_linked_org_id: z.optional(id()) }),
  }),
  deleteRelationship: deleteRow('/api/v1/organizationRelationships/{id}', 6, ['contacts:full'], {
    command: ['organizations', 'relationships', 'delete'],
    summary: 'Delete an organization relationship',
    examples: ['crmctl organizations relationships delete 1'],
  }),
} satisfies OperationTable);
