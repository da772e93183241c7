import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { flag01, id, isoDate, offsetQuery, sortString, uuid } from '../schemas.js';
import { createRow, getRow, listRow, offsetPage, updateRow } from './rows.js';

// Notes live on v1 only (the vendor's documents); reads accept deal or contact scopes, writes need a :full one.
const READ = ['deals:read', 'deals:full', 'contacts:read', 'contacts:full'];
const WRITE = ['deals:full', 'contacts:full'];

/**
 * The interface says "about 100,000 characters"; we pick exactly 100000 (JavaScript string length,
 * counted before the service sanitizes the HTML) so the CLI and the sandbox agree on one number.
 */
export const NOTE_CONTENT_MAX = 100_000;

export const NOTE_FIELDS = [
  'id', 'content', 'user_id', 'last_update_user_id', 'lead_id', 'deal_id', 'person_id', 'org_id', 'project_id', 'task_id',
  'add_time', 'update_time', 'active_flag', 'pinned_to_lead_flag', 'pinned_to_deal_flag', 'pinned_to_organization_flag',
  'pinned_to_person_flag', 'pinned_to_project_flag', 'pinned_to_task_flag', 'deal', 'organization', 'person', 'project', 'task', 'user',
];
const NOTE_COLUMNS = ['id', 'add_time', 'user.name', 'lead_id', 'deal_id', 'person_id', 'org_id', 'project_id', 'content'];
const NOTE_SORT = ['id', 'user_id', 'deal_id', 'person_id', 'org_id', 'content', 'add_time', 'update_time'];

export const COMMENT_FIELDS = ['id', 'uuid', 'active_flag', 'add_time', 'update_time', 'content', 'object_id', 'object_type', 'user_id', 'updater_id', 'company_id'];
const COMMENT_COLUMNS = ['id', 'add_time', 'user_id', 'content'];

/** Attachment targets of a note, and the pinned flag that goes with each (a flag of 1 needs its target). */
export const NOTE_TARGETS = ['lead_id', 'deal_id', 'person_id', 'org_id', 'project_id', 'task_id'] as const;
export const PIN_TARGET: Record<string, (typeof NOTE_TARGETS)[number]> = {
  pinned_to_lead_flag: 'lead_id',
  pinned_to_deal_flag: 'deal_id',
  pinned_to_organization_flag: 'org_id',
  pinned_to_person_flag: 'person_id',
  pinned_to_project_flag: 'project_id',
  pinned_to_task_flag: 'task_id',
};
/** Shorter flags for the pinned flags: --pin-deal 1 reads better than --pinned-to-deal-flag 1. */
export const PIN_FLAGS: Record<string, string> = {
  pinned_to_lead_flag: 'pin-lead',
  pinned_to_deal_flag: 'pin-deal',
  pinned_to_organization_flag: 'pin-org',
  pinned_to_person_flag: 'pin-person',
  pinned_to_project_flag: 'pin-project',
  pinned_to_task_flag: 'pin-task',
};
export const targetFlag = (t: string) => `--${t.replace(/_/g, '-')}`;

/** A note's add_time: `YYYY-MM-DD HH:MM:SS` in UTC, a real calendar time, past or future. */
const noteTime = once(() => z.string().check(z.refine((s) => {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === `${m[1]}T${m[2]}:${m[3]}:${m[4]}`;
}, { error: 'must be a UTC date-time "YYYY-MM-DD HH:MM:SS" (past or future)' })));

/** Notes' updated_since is RFC 3339 (interface conventions): date, time and offset all required. */
const rfc3339 = once(() => z.string().check(z.refine((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)), { error: 'must be an RFC 3339 date-time, e.g. 2025-01-01T10:20:00Z' })));

const content = once(() => z
  .string().check(z.maxLength(NOTE_CONTENT_MAX)).check(z.refine((s) => s.trim() !== '', { error: 'must not be empty' })));

const pinFlags = Object.fromEntries(Object.keys(PIN_TARGET).map((k) => [k, z.optional(flag01())])) as Record<keyof typeof PIN_TARGET, z.ZodMiniOptional<ReturnType<typeof flag01>>>;

/** The items a note is attached to: body fields of a write, filters of the list. */
const targetIds = once(() => ({
  lead_id: z.optional(uuid()),
  deal_id: z.optional(id()),
  person_id: z.optional(id()),
  org_id: z.optional(id()),
  project_id: z.optional(id()),
  task_id: z.optional(id()),
}));

const noteFields = once(() => ({
  ...targetIds(),
  user_id: z.optional(id()),
  add_time: z.optional(noteTime()),
  ...pinFlags,
}));

/** Each pinned flag of 1 needs its target id in the same body (update checks the stored note in a preflight). */
function pinsNeedTargets(b: Record<string, unknown>, ctx: z.core.$RefinementCtx): void {
  for (const [flag, target] of Object.entries(PIN_TARGET)) {
    if (b[flag] === 1 && b[target] === undefined) {
      ctx.addIssue({ code: 'custom', path: [flag], message: `needs ${targetFlag(target)}: a note can only be pinned to an item it is attached to` });
    }
  }
}

const createBody = once(() => z.object({ content: content(), ...noteFields() }).check(z.superRefine((b, ctx) => {
  if (NOTE_TARGETS.every((t) => b[t] === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['deal_id'], message: `a note must be attached to something: give at least one of ${NOTE_TARGETS.map(targetFlag).join(', ')}` });
  }
  pinsNeedTargets(b, ctx);
})));

const updateBody = once(() => z.object({ content: z.optional(content()), ...noteFields() }));

const listQuery = once(() => z
  .object({
    user_id: z.optional(id()),
    ...targetIds(),
    sort: z.optional(sortString(NOTE_SORT)),
    start_date: z.optional(isoDate()),
    end_date: z.optional(isoDate()),
    updated_since: z.optional(rfc3339()),
    ...pinFlags,
    ...offsetQuery(),
  }).check(z.superRefine((q, ctx) => {
    // The service would just answer nothing; a reversed range is always a typo.
    if (q.start_date && q.end_date && q.end_date < q.start_date) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: `must not be before --start-date (${q.start_date})` });
    }
  })));

const noteParams = once(() => z.object({ id: id() }));
const commentParams = once(() => z.object({ id: id(), commentId: uuid() }));
const commentBody = once(() => z.object({ content: content() }));

const targetHelp = Object.fromEntries(NOTE_TARGETS.map((t) => [t, `attach to this ${t === 'org_id' ? 'organization' : t.replace(/_id$/, '')}${t === 'lead_id' ? ' (UUID)' : ''}; must exist`]));
const pinHelp = Object.fromEntries(Object.entries(PIN_TARGET).map(([f, t]) => [f, `0 or 1; 1 pins the note to its ${t.replace(/_id$/, '').replace('org', 'organization')} (needs ${targetFlag(t)})`]));
const noteHelp = {
  ...targetHelp,
  ...pinHelp,
  content: `HTML, sanitized by the service; at most ${NOTE_CONTENT_MAX} characters (or use --content-file)`,
  user_id: 'author; only an admin may name another user',
  add_time: 'UTC "YYYY-MM-DD HH:MM:SS", past or future',
};

/** What creating and changing a note show and say alike. */
const NOTE_WRITE_CLI = { columns: NOTE_COLUMNS, fields: NOTE_FIELDS, flagNames: PIN_FLAGS, help: noteHelp };
/** What adding and replacing a comment show and say alike. */
const COMMENT_WRITE_CLI = { columns: COMMENT_COLUMNS, fields: COMMENT_FIELDS, help: { content: 'HTML, sanitized by the service (or use --content-file)' } };

export const noteOps = defineTable('notes', {
  list: listRow('/api/v1/notes', 20, READ, 'offset', () => listQuery(), {
    command: ['notes', 'list'],
    summary: 'List notes; filters narrow by author, attached item, dates and pinning',
    examples: ['crmctl notes list --deal-id 1 --sort "add_time DESC"', 'crmctl notes list --start-date 2025-01-01 --end-date 2025-01-31 --pin-deal 1 --all --output ndjson'],
    columns: NOTE_COLUMNS,
    fields: NOTE_FIELDS,
    flagNames: PIN_FLAGS,
    help: {
      ...Object.fromEntries(NOTE_TARGETS.map((t) => [t, `only notes attached to this ${t.replace(/_id$/, '').replace('org', 'organization')}`])),
      ...Object.fromEntries(Object.keys(PIN_TARGET).map((f) => [f, '0 or 1: only notes (not) pinned there'])),
      user_id: 'only notes written by this user',
      sort: `"field ASC|DESC", comma separated; fields: ${NOTE_SORT.join(', ')}`,
      start_date: 'notes added on or after this date (YYYY-MM-DD)',
      end_date: 'notes added on or before this date (YYYY-MM-DD)',
      updated_since: 'RFC 3339, e.g. 2025-01-01T10:20:00Z; update_time at or after it',
    },
  }),
  get: getRow('/api/v1/notes/{id}', 2, READ, { command: ['notes', 'get'], summary: 'Show one note', examples: ['crmctl notes get 3 --json'], columns: NOTE_FIELDS.filter((f) => !['deal', 'organization', 'person', 'project', 'task'].includes(f)), fields: NOTE_FIELDS }, { params: () => noteParams() }),
  create: createRow('/api/v1/notes', 10, WRITE, () => createBody(), {
    prompts: { deal_id: { from: 'deals.list', label: 'title', or: ['person_id', 'org_id', 'lead_id', 'project_id'] }, person_id: { from: 'persons.list' }, org_id: { from: 'organizations.list' }, lead_id: { from: 'leads.list', label: 'title' }, project_id: { from: 'projects.list', label: 'title' }, user_id: { from: 'users.list' } },
    command: ['notes', 'create'],
    summary: 'Add a note to a lead, deal, person, organization, project or task',
    examples: ['crmctl notes create --deal-id 1 --content "<p>Called, sending the quote Monday.</p>" --pin-deal 1', 'crmctl notes create --lead-id <lead-uuid> --content-file minutes.html'],
    ...NOTE_WRITE_CLI,
  }),
  update: updateRow('PUT', '/api/v1/notes/{id}', 10, WRITE, {
    command: ['notes', 'update'],
    summary: 'Change a note: only the fields you give change (same rules as create)',
    examples: ['crmctl notes update 3 --content-file - < note.html', 'crmctl notes update 3 --pin-deal 0'],
    ...NOTE_WRITE_CLI,
  }, { params: () => noteParams(), body: () => updateBody() }),
  delete: {
    method: 'DELETE',
    path: '/api/v1/notes/{id}',
    cost: 6,
    scopes: WRITE,
    pagination: 'none',
    params: () => noteParams(),
    cli: { command: ['notes', 'delete'], summary: 'Delete a note (and its comments)', examples: ['crmctl notes delete 3 --yes'], confirm: true },
  },
  commentsList: listRow('/api/v1/notes/{id}/comments', 20, READ, 'offset', offsetPage, { command: ['notes', 'comments', 'list'], summary: 'List the comments of a note, oldest first', examples: ['crmctl notes comments list 3'], columns: COMMENT_COLUMNS, fields: COMMENT_FIELDS }, { params: () => noteParams() }),
  commentsGet: getRow('/api/v1/notes/{id}/comments/{commentId}', 2, READ, { command: ['notes', 'comments', 'get'], summary: 'Show one comment of a note', examples: ['crmctl notes comments get 3 <comment-uuid>'], columns: COMMENT_FIELDS, fields: COMMENT_FIELDS }, { params: () => commentParams() }),
  commentsAdd: createRow('/api/v1/notes/{id}/comments', 10, WRITE, () => commentBody(), {
    command: ['notes', 'comments', 'add'],
    summary: 'Comment on a note',
    examples: ['crmctl notes comments add 3 --content "Quote sent, see the deal."'],
    ...COMMENT_WRITE_CLI,
  }, { params: () => noteParams() }),
  commentsUpdate: updateRow('PUT', '/api/v1/notes/{id}/comments/{commentId}', 10, WRITE, {
    command: ['notes', 'comments', 'update'],
    summary: 'Replace the text of a comment',
    examples: ['crmctl notes comments update 3 <comment-uuid> --content "Quote sent on Monday."'],
    ...COMMENT_WRITE_CLI,
  }, { params: () => commentParams(), body: () => commentBody() }),
  commentsDelete: {
    method: 'DELETE',
    path: '/api/v1/notes/{id}/comments/{commentId}',
    cost: 6,
    scopes: WRITE,
    pagination: 'none',
    params: () => commentParams(),
    cli: { command: ['notes', 'comments', 'delete'], summary: 'Delete a comment of a note', examples: ['crmctl notes comments delete 3 <comment-uuid> --yes'], confirm: true },
  },
} satisfies OperationTable);
