import { z } from 'zod';
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
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be a time HH:MM (24-hour)' });
const ACTIVITY_HELP = {
  type: 'the key_string of an activity type (crmctl activity-types list): call, meeting, task...',
  due_date: 'YYYY-MM-DD; without it the activity has no date',
  due_time: 'HH:MM (needs --due-date)',
  duration: 'HH:MM',
  participants: 'JSON [{"person_id":1,"primary":true}]',
  attendees: 'JSON [{"email":"a@example.com","name":"A"}]',
};

/** A due time needs a due date. */
function timeNeedsDate(b: { due_date?: string | null; due_time?: string | null }, ctx: z.RefinementCtx): void {
  if (b.due_time && b.due_date === undefined) ctx.addIssue({ code: 'custom', path: ['due_time'], message: 'needs --due-date (a time without a date has no day)' });
}

/** Columns and known fields of one activity as a read or a write answers it. */
const SHOWN = { columns: ['id', 'subject', 'type', 'deal_id', 'person_id', 'org_id', 'owner_id'], fields: ACTIVITY_FIELDS };

export const activityOps = defineTable('activities', {
  list: listRow('/api/v2/activities', 10, ['activities:read', 'activities:full'], 'cursor', () => z.object({ filter_id: id.optional(), ids: z.array(id).max(100).optional(), owner_id: id.optional(), deal_id: id.optional(), lead_id: z.string().optional(), person_id: id.optional(), org_id: id.optional(), done: z.boolean().optional(), updated_since: dateTime.optional(), updated_until: dateTime.optional(), sort_by: z.enum(['id', 'update_time', 'add_time', 'due_date']).optional(), sort_direction: z.enum(['asc', 'desc']).optional(), include_fields: z.array(z.enum(['attendees'])).optional(), ...cursorQuery(500) }), {
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
  }, { query: () => z.object({ include_fields: z.array(z.enum(['attendees'])).optional() }) }),
  create: createRow('/api/v2/activities', 5, ['activities:full'], () => z.object({ subject: z.string().trim().min(1).optional(), type: z.string().optional(), owner_id: id.optional(), deal_id: id.optional(), lead_id: uuid.optional(), person_id: id.optional(), org_id: id.optional(), project_id: id.optional(), due_date: isoDate.nullable().optional(), due_time: hhmm.nullable().optional(), duration: hhmm.nullable().optional(), busy: z.boolean().optional(), done: z.boolean().optional(), location: z.object({ value: z.string().optional(), country: z.string().optional(), admin_area_level_1: z.string().optional(), admin_area_level_2: z.string().optional(), locality: z.string().optional(), sublocality: z.string().optional(), route: z.string().optional(), street_number: z.string().optional(), subpremise: z.string().optional(), postal_code: z.string().optional() }).optional(), participants: z.array(z.object({ person_id: id.optional(), primary: z.boolean().optional() })).optional(), attendees: z.array(z.object({ email: z.string().optional(), name: z.string().optional(), status: z.string().optional(), is_organizer: z.boolean().optional(), person_id: id.optional(), user_id: id.optional() })).optional(), public_description: z.string().optional(), priority: z.int().optional(), note: z.string().optional() }).superRefine(timeNeedsDate), {
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
    body: () => z.object({ subject: z.string().trim().min(1).optional(), type: z.string().optional(), owner_id: id.optional(), deal_id: id.optional(), lead_id: uuid.optional(), person_id: id.optional(), org_id: id.optional(), project_id: id.optional(), due_date: isoDate.nullable().optional(), due_time: hhmm.nullable().optional(), duration: hhmm.nullable().optional(), busy: z.boolean().optional(), done: z.boolean().optional(), location: z.object({ value: z.string().optional(), country: z.string().optional(), admin_area_level_1: z.string().optional(), admin_area_level_2: z.string().optional(), locality: z.string().optional(), sublocality: z.string().optional(), route: z.string().optional(), street_number: z.string().optional(), subpremise: z.string().optional(), postal_code: z.string().optional() }).optional(), participants: z.array(z.object({ person_id: id.optional(), primary: z.boolean().optional() })).optional(), attendees: z.array(z.object({ email: z.string().optional(), name: z.string().optional(), status: z.string().optional(), is_organizer: z.boolean().optional(), person_id: id.optional(), user_id: id.optional() })).optional(), public_description: z.string().optional(), priority: z.int().optional(), note: z.string().optional() }).superRefine(timeNeedsDate),
  }),
  delete: deleteRow('/api/v2/activities/{id}', 3, ['activities:full'], {
    command: ['activities', 'delete'],
    summary: 'Delete an activity',
    examples: ['crmctl activities delete 1'],
  }),
} satisfies OperationTable);
