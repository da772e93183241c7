import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { dateTime, id, uuid } from '../schemas.js';
import { createRow, getRow, listRow } from './rows.js';

/** Fields of a call log. */
const CALL_LOG_FIELDS = [
  'user_id', 'activity_id', 'subject', 'duration', 'outcome', 'from_phone_number', 'to_phone_number', 'start_time', 'end_time',
  'person_id', 'org_id', 'deal_id', 'lead_id', 'note', 'id', 'has_recording', 'company_id',
];

/** Call log ids are strings the service makes up, not the integer ids the row builders assume. */
const callLogParams = () => z.object({ id: z.string().check(z.trim()).check(z.minLength(1)) });
/** Columns and known fields of one call log as a read or a create answers it. */
const SHOWN = { columns: ['id', 'subject', 'deal_id', 'person_id', 'org_id', 'user_id'], fields: CALL_LOG_FIELDS };

export const callLogOps = defineTable('callLogs', {
  list: listRow('/api/v1/callLogs', 20, ['phone-integration'], 'offset', () => z.object({ start: z.optional(z.int().check(z.gte(0))), limit: z.optional(z.int().check(z.gte(1)).check(z.lte(50))) }), {
    command: ['call-logs', 'list'],
    summary: 'List the call logs of the authorized user',
    examples: ['crmctl call-logs list'],
    columns: ['id', 'subject', 'outcome', 'to_phone_number', 'start_time', 'has_recording'],
    fields: CALL_LOG_FIELDS,
  }, { maxLimit: 50 }),
  get: getRow('/api/v1/callLogs/{id}', 2, ['phone-integration'], {
    command: ['call-logs', 'get'],
    summary: 'Show one call log',
    examples: ['crmctl call-logs get <id>'],
    ...SHOWN,
  }, { params: callLogParams }),
  create: createRow('/api/v1/callLogs', 10, ['phone-integration'], () => z.object({ user_id: z.optional(id()), activity_id: z.optional(id()), subject: z.optional(z.string()), duration: z.optional(z.string()), outcome: z.enum(['connected', 'no_answer', 'left_message', 'left_voicemail', 'wrong_number', 'busy']), from_phone_number: z.optional(z.string()), to_phone_number: z.string(), start_time: dateTime(), end_time: dateTime(), person_id: z.optional(id()), org_id: z.optional(id()), deal_id: z.optional(id()), lead_id: z.optional(uuid()), note: z.optional(z.string()) }), {
    command: ['call-logs', 'create'],
    summary: 'Log a call (outcome, numbers, times; linked to a deal, lead, person or organization)',
    examples: ['crmctl call-logs create --outcome connected --to-phone-number "+3725551234" --start-time "2026-11-20 10:00:00" --end-time "2026-11-20 10:12:00" --deal-id 1'],
    ...SHOWN,
  }),
  delete: {
    method: 'DELETE',
    path: '/api/v1/callLogs/{id}',
    cost: 6,
    scopes: ['phone-integration'],
    pagination: 'none',
    params: callLogParams,
    cli: {
      command: ['call-logs', 'delete'],
      summary: 'Delete a call log (and its recording)',
      examples: ['crmctl call-logs delete <id>'],
      confirm: true,
    },
  },
  uploadRecording: createRow('/api/v1/callLogs/{id}/recordings', 10, ['phone-integration'], () => z.object({}), {
    command: ['call-logs', 'recording-upload'],
    upload: { field: 'file' },
    summary: 'Attach an audio recording to a call log from a file',
    examples: ['crmctl call-logs recording-upload <call-log-id> --file ./call.mp3'],
  }, { params: callLogParams, encoding: 'multipart' }),
} satisfies OperationTable);
