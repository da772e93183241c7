import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, id, isoDate, searchQuery } from '../schemas.js';
import { USER_IDS } from './record-fields.js';
import { actionRow, createRow, cursorPage, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of a project in the v1 form. */
const V1_PROJECT_FIELDS = [
  'id', 'title', 'board_id', 'phase_id', 'description', 'status', 'owner_id', 'start_date', 'end_date', 'deal_ids', 'org_id',
  'person_id', 'labels', 'health_status', 'add_time', 'update_time', 'status_change_time', 'archive_time',
];
/** Fields of a planned project item. */
const PLAN_ITEM_FIELDS = ['item_id', 'item_type', 'phase_id', 'group_id'];

const READ = ['projects:read', 'projects:full'];
const WRITE = ['projects:full'];

/** Status filter values (interface, Project table); `deleted` is only listed when asked for. */
export const PROJECT_STATUSES = ['open', 'completed', 'canceled', 'deleted'] as const;
/** Statuses a create or update may set: `deleted` comes from deleting, which this interface does not show. */
export const SETTABLE_STATUSES = ['open', 'completed', 'canceled'] as const;

export const PROJECT_FIELDS = [
  'id', 'title', 'description', 'status', 'board_id', 'phase_id', 'owner_id', 'start_date', 'end_date', 'deal_ids', 'person_ids',
  'org_ids', 'label_ids', 'health_status', 'add_time', 'update_time', 'status_change_time', 'archive_time', 'custom_fields',
];
const COLUMNS = ['id', 'title', 'status', 'board_id', 'phase_id', 'owner_id', 'end_date', 'health_status'];

/** A custom field key of a project: the 40-character hash, or `<hash>_currency` for a monetary field. */
export const CUSTOM_FIELD_KEY = /^[0-9a-f]{40}(_currency)?$/;

/**
 * custom_fields: keys are field hashes, null clears a value; an empty array is refused because the
 * service rejects it for multi-option (`set`) fields and no other field type takes an array.
 */
export const customFields = once(() => z.record(z.string(), z.unknown()).check(z.superRefine((cf, ctx) => {
  for (const [key, value] of Object.entries(cf)) {
    if (!CUSTOM_FIELD_KEY.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: `${key}: must be a 40-character custom field key (hex hash)` });
    else if (Array.isArray(value) && value.length === 0) {
      ctx.addIssue({ code: 'custom', path: [key], message: `${key}: an empty array cannot clear a multi-option field; use null` });
    }
  }
})));

const ids = once(() => z.array(id()));

const common = once(() => ({
  description: z.optional(z.string()),
  status: z.optional(z.enum(SETTABLE_STATUSES)),
  board_id: z.optional(id()),
  phase_id: z.optional(id()),
  owner_id: z.optional(id()),
  start_date: z.optional(isoDate()),
  end_date: z.optional(isoDate()),
  deal_ids: z.optional(ids()),
  person_ids: z.optional(ids()),
  org_ids: z.optional(ids()),
  label_ids: z.optional(ids()),
  health_status: z.optional(z.int()),
  custom_fields: z.optional(customFields()),
}));

/**
 * Body object that refuses keys it does not know (a plain z.object would silently drop them from
 * --data), with a pointed message for template_id on updates.
 */
function projectBody<T extends z.core.$ZodShape>(shape: T, mode: 'create' | 'update') {
  return z.looseObject(shape).check(z.superRefine((b: Record<string, unknown>, ctx) => {
    for (const k of Object.keys(b)) {
      if (k in shape) continue;
      const rule = k === 'template_id' && mode === 'update' ? 'is only used when creating a project; it cannot be sent on update' : 'is not a field of a project';
      ctx.addIssue({ code: 'custom', path: [k], message: rule });
    }
  }));
}

const createBody = once(() => projectBody({ title: z.string().check(z.trim()).check(z.minLength(1)), ...common(), template_id: z.optional(id()) }, 'create'));

const updateBody = once(() => projectBody(
  {
    title: z.optional(z.string().check(z.trim()).check(z.minLength(1))),
    ...common(),
    description: z.optional(z.nullable(z.string())),
    start_date: z.optional(z.nullable(isoDate())),
    end_date: z.optional(z.nullable(isoDate())),
    health_status: z.optional(z.nullable(z.int())),
  },
  'update',
));

const statusFilter = once(() => z.optional(z.array(z.enum(PROJECT_STATUSES))));

const HELP = {
  board_id: 'project board; the phase must belong to it (default: the first board)',
  phase_id: 'phase of the board (default: the first phase of the board)',
  deal_ids: 'linked deal ids',
  person_ids: 'linked person ids',
  org_ids: 'linked organization ids',
  label_ids: 'project label ids',
  custom_fields: 'custom field values as a JSON object keyed by field hash (see also --custom-field)',
  status: 'open, completed or canceled',
  owner_id: 'user id (default: you)',
  start_date: 'YYYY-MM-DD',
  end_date: 'YYYY-MM-DD',
  health_status: 'health indicator (integer)',
};

/** The cli hints every v1 form of a project row shares (reached with `--v1`). */
const V1_FORM = { columns: ['id', 'title', 'status', 'person_id', 'org_id', 'owner_id', 'add_time'], fields: V1_PROJECT_FIELDS, switch: '--v1' };

/** Body fields of a v1 create and update (the create adds template_id; the title is required there). */
const v1Body = <T extends z.ZodMiniType>(title: T) => ({
  title, board_id: z.optional(z.number()), phase_id: z.optional(z.number()), description: z.optional(z.string()), status: z.optional(z.string()), owner_id: z.optional(z.number()),
  start_date: z.optional(isoDate()), end_date: z.optional(isoDate()), deal_ids: z.optional(z.array(id())), org_id: z.optional(z.number()), person_id: z.optional(z.number()),
  labels: z.optional(z.array(z.int())), health_status: z.optional(z.nullable(z.int())),
});

/** Placing one item of a project in its plan: the same row for activities and tasks. */
function planRow<P extends string>(path: P, item: 'an activity' | 'a task', command: string) {
  return updateRow('PUT', path, 10, WRITE, {
    command: ['projects', command],
    summary: `Place ${item} of a project in its plan (phase and group)`,
    examples: [`crmctl projects ${command} 1 2 --phase-id 1`],
    columns: PLAN_ITEM_FIELDS,
    fields: PLAN_ITEM_FIELDS,
  }, { body: () => z.object({ phase_id: z.optional(z.number()), group_id: z.optional(z.number()) }) });
}

export const projectOps = defineTable('projects', {
  list: listRow('/api/v2/projects', 10, READ, 'cursor', () => z.object({
    filter_id: z.optional(id()),
    status: statusFilter(),
    phase_id: z.optional(id()),
    deal_id: z.optional(id()),
    person_id: z.optional(id()),
    org_id: z.optional(id()),
    ...cursorQuery(500),
  }), {
    customFields: 'project', command: ['projects', 'list'],
    summary: 'List projects that are not archived (deleted ones only with --status deleted)',
    examples: ['crmctl projects list --status open,completed --phase-id 2', 'crmctl projects list --all --output ndjson > projects.ndjson'],
    columns: COLUMNS,
    fields: PROJECT_FIELDS,
    help: { filter_id: 'saved project filter id', status: 'comma list of open, completed, canceled, deleted (deleted hidden by default)', phase_id: 'projects in this phase', deal_id: 'projects linked to this deal', person_id: 'projects linked to this person', org_id: 'projects linked to this organization' },
  }),
  get: getRow('/api/v2/projects/{id}', 1, READ, { customFields: 'project', command: ['projects', 'get'], summary: 'Show one project (custom fields inside custom_fields)', examples: ['crmctl projects get 3 --json'], columns: PROJECT_FIELDS, fields: PROJECT_FIELDS }),
  create: createRow('/api/v2/projects', 5, WRITE, () => createBody(), {
    prompts: { board_id: { from: 'boards.list' }, phase_id: { from: 'phases.list', query: { board_id: '$board_id' } }, owner_id: { from: 'users.list' }, label_ids: { from: 'leadLabels.list' } },
    customFields: 'project', command: ['projects', 'create'],
    summary: 'Create a project on a board, optionally from a template',
    examples: [
      'crmctl projects create --title "Acme rollout" --board-id 1 --phase-id 2 --deal-ids 1 --template-id 1',
      'crmctl projects create --title "Globex rollout" --custom-field 21063e5924b1743bcdc93c0cdb53d1c727db42b6=GLX-7 --custom-field cbfe577c29db28188e2c4779eec302a32ec52ea6=[11,13]',
    ],
    columns: COLUMNS,
    fields: PROJECT_FIELDS,
    help: { ...HELP, template_id: 'project template to copy groups, tasks and activities from (create only)' },
  }, { successStatus: 201 }),
  update: updateRow('PATCH', '/api/v2/projects/{id}', 5, WRITE, {
    prompts: { id: { from: 'projects.list', label: 'title' }, board_id: { from: 'boards.list' }, phase_id: { from: 'phases.list', query: { board_id: '$board_id' } }, owner_id: { from: 'users.list' } },
    customFields: 'project', command: ['projects', 'update'],
    summary: 'Change a project: only the fields you give change; --unset clears description, dates, health',
    examples: ['crmctl projects update 3 --phase-id 3 --status completed', 'crmctl projects update 3 --custom-field cbfe577c29db28188e2c4779eec302a32ec52ea6=null --unset end_date'],
    columns: COLUMNS,
    fields: PROJECT_FIELDS,
    help: HELP,
  }, { body: () => updateBody() }),
  // Archiving twice leaves the project archived once: safe to resend.
  archive: actionRow('/api/v2/projects/{id}/archive', 3, WRITE, {
    prompts: { id: { from: 'projects.list', label: 'title' } },
    command: ['projects', 'archive'],
    summary: 'Archive a project (it leaves `projects list` and shows in `projects archived`)',
    examples: ['crmctl projects archive 3 --yes'],
    confirm: true,
    columns: ['id', 'title', 'status', 'archive_time'],
    fields: PROJECT_FIELDS,
  }, { idempotent: true }),
  archived: listRow('/api/v2/projects/archived', 10, READ, 'cursor', () => z.object({ filter_id: z.optional(id()), status: statusFilter(), phase_id: z.optional(id()), ...cursorQuery(500) }), {
    customFields: 'project', command: ['projects', 'archived'],
    summary: 'List archived projects',
    examples: ['crmctl projects archived --status completed --limit 50'],
    columns: [...COLUMNS.slice(0, 5), 'archive_time'],
    fields: PROJECT_FIELDS,
    help: { filter_id: 'saved project filter id', status: 'comma list of open, completed, canceled, deleted', phase_id: 'archived projects in this phase' },
  }),
  search: listRow('/api/v2/projects/search', 20, [...READ, 'search:read'], 'cursor', () => searchQuery({
    term: z.string(),
    fields: z.optional(z.array(z.enum(['custom_fields', 'notes', 'title', 'description']))),
    exact_match: z.optional(z.boolean()),
    person_id: z.optional(id()),
    organization_id: z.optional(id()),
    ...cursorQuery(100),
  }), {
    command: ['projects', 'search'],
    summary: 'Search projects by title, description, notes or custom fields',
    examples: ['crmctl projects search --term rollout --search-fields title,description', 'crmctl projects search --term X --exact-match --json'],
    unwrap: 'items',
    columns: ['item.id', 'item.title', 'item.status', 'item.phase.name', 'item.organization.name', 'result_score'],
    // --fields is the global output-field selector.
    flagNames: { fields: 'search-fields' },
    help: { term: 'at least 2 characters (1 with --exact-match)', fields: 'where to search: custom_fields, notes, title, description (default all)', exact_match: 'whole-value matches only (case-insensitive)', person_id: 'projects linked to this person', organization_id: 'projects linked to this organization' },
  }, { beta: true, maxLimit: 100 }),
  activities: getRow('/api/v1/projects/{id}/activities', 20, READ, {
    command: ['projects', 'activities'],
    summary: 'List the activities of a project',
    examples: ['crmctl projects activities 3'],
    columns: ['id', 'subject', 'type', 'user_id', 'due_date', 'due_time', 'done'],
  }),
  changelog: listRow('/api/v2/projects/{id}/changelog', 10, READ, 'cursor', cursorPage, {
    command: ['projects', 'changelog'],
    summary: 'Show the change history of a project, newest first',
    examples: ['crmctl projects changelog 3 --limit 20 --json'],
    columns: ['time', 'actor_user_id', 'change_source', 'old_values', 'new_values'],
  }),
  groups: getRow('/api/v1/projects/{id}/groups', 20, READ, { command: ['projects', 'groups'], summary: 'List the active groups of a project', examples: ['crmctl projects groups 3'], columns: ['id', 'name', 'order_nr'] }),
  permittedUsers: getRow('/api/v2/projects/{id}/permittedUsers', 5, READ, {
    command: ['projects', 'permitted-users'],
    summary: 'List the ids of users who may access a project',
    examples: ['crmctl projects permitted-users 3 --output tsv'],
    ...USER_IDS,
  }),
  plan: getRow('/api/v1/projects/{id}/plan', 20, READ, {
    command: ['projects', 'plan'],
    summary: 'Show the plan of a project: its tasks and activities with their phase and group',
    examples: ['crmctl projects plan 3 --output tsv'],
    columns: ['item_type', 'item_id', 'phase_id', 'group_id'],
  }),
  tasks: getRow('/api/v1/projects/{id}/tasks', 20, READ, {
    command: ['projects', 'tasks'],
    summary: 'List the tasks of a project',
    examples: ['crmctl projects tasks 3'],
    columns: ['id', 'title', 'assignee_id', 'due_date', 'done', 'parent_task_id'],
  }),
  listV1: listRow('/api/v1/projects', 20, READ, 'cursor', () => z.object({ filter_id: z.optional(id()), status: z.optional(z.string()), phase_id: z.optional(id()), include_archived: z.optional(z.boolean()), ...cursorQuery(500) }), {
    command: ['projects', 'list'], summary: 'List projects (v1 form)', examples: ['crmctl projects list'], ...V1_FORM,
  }),
  getV1: getRow('/api/v1/projects/{id}', 2, READ, { command: ['projects', 'get'], summary: 'Show one project (v1 form)', examples: ['crmctl projects get 1'], ...V1_FORM }),
  createV1: createRow('/api/v1/projects', 10, WRITE, () => z.object({ ...v1Body(z.string()), template_id: z.optional(z.number()) }), {
    command: ['projects', 'create'], summary: 'Create a project (v1 form)', examples: ['crmctl projects create'], ...V1_FORM,
  }, { successStatus: 201 }),
  updateV1: updateRow('PUT', '/api/v1/projects/{id}', 10, WRITE, {
    command: ['projects', 'update'], summary: 'Change a project (v1 form)', examples: ['crmctl projects update 1'], ...V1_FORM,
  }, { body: () => z.object(v1Body(z.optional(z.string()))) }),
  delete: deleteRow('/api/v2/projects/{id}', 3, WRITE, {
    command: ['projects', 'delete'],
    summary: 'Delete a project',
    examples: ['crmctl projects delete 1'],
  }),
  deleteV1: deleteRow('/api/v1/projects/{id}', 6, WRITE, {
    command: ['projects', 'delete'],
    summary: 'Delete a project (v1 form)',
    examples: ['crmctl projects delete 1'],
    columns: ['success', 'data'],
    fields: ['success', 'data'],
    switch: '--v1',
  }),
  archiveV1: actionRow('/api/v1/projects/{id}/archive', 10, WRITE, { command: ['projects', 'archive'], summary: 'Archive a project (v1 form)', examples: ['crmctl projects archive 1'], ...V1_FORM }, { effect: 'destructive' }),
  planActivity: planRow('/api/v1/projects/{id}/plan/activities/{activityId}', 'an activity', 'plan-activity'),
  planTask: planRow('/api/v1/projects/{id}/plan/tasks/{taskId}', 'a task', 'plan-task'),
} satisfies OperationTable);
