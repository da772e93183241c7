import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { id, uuid } from '../schemas.js';
import { createRow, deleteRow } from './rows.js';

export const meetingOps = defineTable('meetings', {
  link: createRow('/api/v1/meetings/userProviderLinks', 10, ['video-calls'], () => z.object({ user_provider_id: uuid(), user_id: id(), company_id: id(), marketplace_client_id: z.string() }), {
    command: ['meetings', 'link-provider'],
    summary: 'Link a user to a video call provider (for a provider integration)',
    examples: ['crmctl meetings link-provider --user-provider-id 1e3943c8-6c06-4b0d-a5e0-1d4e4fa0fb9b --user-id 1 --company-id 1 --marketplace-client-id 3c1e2b4e'],
    columns: ['message'],
    fields: ['message'],
  }),
  unlink: deleteRow('/api/v1/meetings/userProviderLinks/{id}', 6, ['video-calls'], {
    command: ['meetings', 'unlink-provider'],
    summary: 'Remove a user\'s link to a video call provider',
    examples: ['crmctl meetings unlink-provider <id>'],
    columns: ['message'],
    fields: ['message'],
  }, { params: () => z.object({ id: uuid() }) }),
} satisfies OperationTable);
