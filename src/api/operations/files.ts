import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { id, uuid } from '../schemas.js';
import { createRow, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of a file record. */
const FILE_FIELDS = [
  'id', 'user_id', 'deal_id', 'person_id', 'org_id', 'product_id', 'activity_id', 'lead_id', 'project_id', 'add_time',
  'update_time', 'file_name', 'file_size', 'active_flag', 'inline_flag', 'remote_location', 'remote_id', 'cid', 's3_bucket',
  'mail_message_id', 'mail_template_id', 'deal_name', 'person_name', 'org_name', 'product_name', 'lead_name', 'project_name',
  'url', 'name', 'description',
];

export const fileOps = defineTable('files', {
  list: listRow('/api/v1/files', 20, ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'], 'offset', () => z.object({ sort: z.optional(z.string()), start: z.optional(z.int().check(z.gte(0))), limit: z.optional(z.int().check(z.gte(1)).check(z.lte(100))) }), {
    command: ['files', 'list'],
    summary: 'List the files of the company (newest first by default)',
    examples: ['crmctl files list'],
    columns: ['id', 'name', 'file_size', 'deal_id', 'person_id', 'org_id', 'add_time'],
    fields: FILE_FIELDS,
  }, { maxLimit: 100 }),
  get: getRow('/api/v1/files/{id}', 2, ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'], {
    command: ['files', 'get'],
    summary: 'Show one file (its metadata)',
    examples: ['crmctl files get 1'],
    columns: ['id', 'name', 'deal_id', 'person_id', 'org_id', 'user_id', 'add_time'],
    fields: FILE_FIELDS,
  }),
  upload: createRow('/api/v1/files', 10, ['deals:full', 'activities:full', 'contacts:full'], () => z.object({ deal_id: z.optional(id()), person_id: z.optional(id()), org_id: z.optional(id()), product_id: z.optional(id()), activity_id: z.optional(id()), lead_id: z.optional(uuid()), project_id: z.optional(id()) }), {
    command: ['files', 'upload'],
    upload: { field: 'file' },
    summary: 'Upload a file from a path or stdin, linked to a deal, person, organization, product, activity, lead or project',
    examples: ['crmctl files upload --file ./contract.pdf --deal-id 1'],
    columns: ['id', 'name', 'deal_id', 'person_id', 'org_id', 'user_id', 'add_time'],
    fields: FILE_FIELDS,
  }, { encoding: 'multipart' }),
  update: updateRow('PUT', '/api/v1/files/{id}', 10, ['deals:full', 'activities:full', 'contacts:full'], {
    command: ['files', 'update'],
    summary: 'Rename a file or change its description',
    examples: ['crmctl files update 1 --name "Signed contract.pdf"'],
    columns: ['id', 'name', 'deal_id', 'person_id', 'org_id', 'user_id', 'add_time'],
    fields: FILE_FIELDS,
  }, { encoding: 'form', body: () => z.object({ name: z.optional(z.string()), description: z.optional(z.string()) }) }),
  delete: deleteRow('/api/v1/files/{id}', 6, ['deals:full', 'activities:full', 'contacts:full'], {
    command: ['files', 'delete'],
    summary: 'Delete a file',
    examples: ['crmctl files delete 1'],
  }),
  createRemote: createRow('/api/v1/files/remote', 10, ['deals:full', 'activities:full', 'contacts:full'], () => z.object({ file_type: z.enum(['gdoc', 'gslides', 'gsheet', 'gform', 'gdraw']), title: z.string(), item_type: z.enum(['deal', 'organization', 'person']), item_id: id(), remote_location: z.enum(['googledrive']) }), {
    command: ['files', 'create-remote'],
    summary: 'Create an empty Google Drive document and link it to a deal, person or organization',
    examples: ['crmctl files create-remote --file-type gdoc --title "Proposal" --item-type deal --item-id 1 --remote-location googledrive'],
    columns: ['id', 'name', 'deal_id', 'person_id', 'org_id', 'user_id', 'add_time'],
    fields: FILE_FIELDS,
  }, { encoding: 'form' }),
  linkRemote: createRow('/api/v1/files/remoteLink', 10, ['deals:full', 'activities:full', 'contacts:full'], () => z.object({ item_type: z.enum(['deal', 'organization', 'person']), item_id: id(), remote_id: z.string(), remote_location: z.enum(['googledrive']) }), {
    command: ['files', 'link-remote'],
    summary: 'Link an existing Google Drive file to a deal, person or organization',
    examples: ['crmctl files link-remote --item-type deal --item-id 1 --remote-id 1a2b3c --remote-location googledrive'],
    columns: ['id', 'name', 'deal_id', 'person_id', 'org_id', 'user_id', 'add_time'],
    fields: FILE_FIELDS,
  }, { encoding: 'form' }),
  download: getRow('/api/v1/files/{id}/download', 20, ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'], {
    command: ['files', 'download'],
    handWritten: true,
    summary: 'Download a file to a path or stdout (streamed)',
    examples: ['crmctl files download 1 --out ./contract.pdf'],
  }),
} satisfies OperationTable);
