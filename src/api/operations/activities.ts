import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { isoDate, uuid, cursorQuery, dateTime, id } from '../schemas.js';
import { createRow, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of an activity record. */
const ACTIVITY_FIELDS = [
  'id', 'subject', 'type', 'owner_id', 'creator_user_id', 'is_deleted', 'add_time', 'update_time', 'deal_id', 'lead_id',
  'person_id', 'org_id', 'project_id', 'due_date', 'due_time', 'duration', 'busy', 'done', 'marked_as_done_time', 'location',
  'participants', 'attendees', 'conference_meeting_client', 'conference_meeting_url', 'conference_meeting_id',
  'public_description', 'priority', 'note',
];

/** HH:MM, as the activity's due time and duration are written. */
const hhmm = once(() => z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time HH:MM (24-hour)' })));
const ACTIVITY_HELP = {
  type: 'the key_string of an activity type (crmctl activity-types list): call, meeting, task...',
  due_date: 'YYYY-MM-DD; without it the activity has no date',
  due_time: 'HH:MM (needs --due-date)',
  duration: 'HH:MM',
  participants: 'JSON [{"person_id":1,"primary":true}]',
  attendees: 'JSON [{"email":"a@example.com","name":"A"}]',
};

/** A due time needs a due date. */
function timeNeedsDate(b: { due_date?: string | null; due_time?: string | null }, ctx: z.core.$RefinementCtx): void {
  if (b.due_time && b.due_date === undefined) ctx.addIssue({ code: 'custom', path: ['due_time'], message: 'needs --due-date (a time without a date has no day)' });
}

/** Columns and known fields of one activity as a read or a write answers it. */
const SHOWN = { columns: ['id', 'subject', 'type', 'deal_id', 'person_id', 'org_id', 'owner_id'], fields: ACTIVITY_FIELDS };

export const activityOps = defineTable('activities', {
  list: listRow('/api/v2/activities', 10, ['activities:read', 'activities:full'], 'cursor', () => z.object({ filter_id: z.optional(id()), ids: z.optional(z.array(id()).check(z.maxLength(100))), owner_id: z.optional(id()), deal_id: z.optional(id()), lead_id: z.optional(z.string()), person_id: z.optional(id()), org_id: z.optional(id()), done: z.optional(z.boolean()), updated_since: z.optional(dateTime()), updated_until: z.optional(dateTime()), sort_by: z.optional(z.enum(['id', 'update_time', 'add_time', 'due_date'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), include_fields: z.optional(z.array(z.enum(['attendees']))), ...cursorQuery(500) }), {
    command: ['activities', 'list'],
    summary: 'List activities (filter by owner, deal, person, organization, done)',
    examples: ['crmctl activities list'],
    columns: ['id', 'subject', 'type', 'due_date', 'due_time', 'done', 'owner_id'],
    fields: ACTIVITY_FIELDS,
  }),
  get: getRow('/api/v2/activities/{id}', 1, ['activities:read', 'activities:full'], {
    command: ['activities', 'get'],
    summary: 'Show one activity',
    examples: ['crmctl activities get 1'],
    ...SHOWN,
  }, { query: () => z.object({ include_fields: z.optional(z.array(z.enum(['attendees']))) }) }),
  create: createRow('/api/v2/activities', 5, ['activities:full'], () => z.object({ subject: z.optional(z.string().check(z.trim()).check(z.minLength(1))), type: z.optional(z.string()), owner_id: z.optional(id()), deal_id: z.optional(id()), lead_id: z.optional(uuid()), person_id: z.optional(id()), org_id: z.optional(id()), project_id: z.optional(id()), due_date: z.optional(z.nullable(isoDate())), due_time: z.optional(z.nullable(hhmm())), duration: z.optional(z.nullable(hhmm())), busy: z.optional(z.boolean()), done: z.optional(z.boolean()), location: z.optional(z.object({ value: z.optional(z.string()), country: z.optional(z.string()), admin_area_level_1: z.optional(z.string()), admin_area_level_2: z.optional(z.string()), locality: z.optional(z.string()), sublocality: z.optional(z.string()), route: z.optional(z.string()), street_number: z.optional(z.string()), subpremise: z.optional(z.string()), postal_code: z.optional(z.string()) })), participants: z.optional(z.array(z.object({ person_id: z.optional(id()), primary: z.optional(z.boolean()) }))), attendees: z.optional(z.array(z.object({ email: z.optional(z.string()), name: z.optional(z.string()), status: z.optional(z.string()), is_organizer: z.optional(z.boolean()), person_id: z.optional(id()), user_id: z.optional(id()) }))), public_description: z.optional(z.string()), priority: z.optional(z.int()), note: z.optional(z.string()) }).check(z.superRefine(timeNeedsDate)), {
    help: ACTIVITY_HELP,
    command: ['activities', 'create'],
    summary: 'Create an activity (a call, meeting, task...) linked to a deal, lead, person or organization',
    examples: ['crmctl activities create --subject "Call Alice" --type call --due-date 2026-02-03 --deal-id 1'],
    ...SHOWN,
  }),
  update: updateRow('PATCH', '/api/v2/activities/{id}', 5, ['activities:full'], {
    help: ACTIVITY_HELP,
    command: ['activities', 'update'],
    summary: 'Change an activity: only the fields you give change (mark it done)',
    examples: ['crmctl activities update 1 --done true'],
    ...SHOWN,
  }, {
    body: () => z.object({ subject: z.optional(z.string().check(z.trim()).check(z.minLength(1))), type: z.optional(z.string()), owner_id: z.optional(id()), deal_id: z.optional(id()), lead_id: z.optional(uuid()), person_id: z.optional(id()), org_id: z.optional(id()), project_id: z.optional(id()), due_date: z.optional(z.nullable(isoDate())), due_time: z.optional(z.nullable(hhmm())), duration: z.optional(z.nullable(hhmm())), busy: z.optional(z.boolean()), done: z.optional(z.boolean()), location: z.optional(z.object({ value: z.optional(z.string()), country: z.optional(z.string()), admin_area_level_1: z.optional(z.string()), admin_area_level_2: z.optional(z.string()), locality: z.optional(z.string()), sublocality: z.optional(z.string()), route: z.optional(z.string()), street_number: z.optional(z.string()), subpremise: z.optional(z.string()), postal_code: z.optional(z.string()) })), participants: z.optional(z.array(z.object({ person_id: z.optional(id()), primary: z.optional(z.boolean()) }))), attendees: z.optional(z.array(z.object({ email: z.optional(z.string()), name: z.optional(z.string()), status: z.optional(z.string()), is_organizer: z.optional(z.boolean()), person_id: z.optional(id()), user_id: z.optional(id()) }))), public_description: z.optional(z.string()), priority: z.optional(z.int()), note: z.optional(z.string()) }).check(z.superRefine(timeNeedsDate)),
  }),
  delete: deleteRow('/api/v2/activities/{id}', 3, ['activities:full'], {
    command: ['activities', 'delete'],
    summary: 'Delete an activity',
    examples: ['crmctl activities delete 1'],
  }),
} satisfies OperationTable);
