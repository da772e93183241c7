import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { cursorQuery, flag01, id, isoDate } from '../schemas.js';
import { createRow, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of a task (v2). */
const TASK_FIELDS = [
  'id', 'title', 'creator_id', 'description', 'project_id', 'is_done', 'is_milestone', 'due_date', 'start_date',
  'parent_task_id', 'assignee_ids', 'priority', 'add_time', 'update_time', 'marked_as_done_time',
];
/** Fields of a task in the v1 form. */
const V1_TASK_FIELDS = [
  'id', 'title', 'project_id', 'description', 'parent_task_id', 'assignee_id', 'assignee_ids', 'done', 'due_date', 'creator_id',
  'add_time', 'update_time', 'marked_as_done_time',
];

/** Columns and known fields of one task as a read or a write answers it. */
const SHOWN = { columns: ['id', 'title', 'due_date', 'add_time', 'update_time'], fields: TASK_FIELDS };
/** The cli hints every v1 form of a task row shares (reached with `--v1`). */
const V1_FORM = { columns: ['id', 'title', 'due_date', 'done', 'add_time', 'update_time'], fields: V1_TASK_FIELDS, switch: '--v1' };

/** Body fields of a v2 create and update after the title and project (required on create, optional on update). */
const taskBody = () => ({
  parent_task_id: z.optional(z.nullable(id())), description: z.optional(z.nullable(z.string())), done: z.optional(flag01()), milestone: z.optional(flag01()),
  due_date: z.optional(z.nullable(isoDate())), start_date: z.optional(z.nullable(isoDate())), assignee_id: z.optional(z.nullable(id())),
  assignee_ids: z.optional(z.array(id()).check(z.maxLength(10))), priority: z.optional(z.nullable(z.int().check(z.gte(0)))),
});
/** Body fields of a v1 create and update after the title and project. */
const v1TaskBody = () => ({
  description: z.optional(z.string()), parent_task_id: z.optional(z.number()), assignee_id: z.optional(z.number()),
  assignee_ids: z.optional(z.array(z.number()).check(z.maxLength(10))), done: z.optional(flag01()), due_date: z.optional(isoDate()),
});

export const taskOps = defineTable('tasks', {
  list: listRow('/api/v2/tasks', 10, ['projects:read', 'projects:full'], 'cursor', () => z.object({ is_done: z.optional(z.boolean()), is_milestone: z.optional(z.boolean()), assignee_id: z.optional(id()), project_id: z.optional(id()), parent_task_id: z.optional(z.string()), ...cursorQuery(500) }), {
    command: ['tasks', 'list'],
    summary: 'List project tasks (of a project, a parent task, an assignee; done or not)',
    examples: ['crmctl tasks list'],
    columns: ['id', 'title', 'project_id', 'assignee_id', 'is_done', 'due_date'],
    fields: TASK_FIELDS,
  }, { beta: true }),
  listV1: listRow('/api/v1/tasks', 20, ['projects:read', 'projects:full'], 'cursor', () => z.object({ assignee_id: z.optional(id()), project_id: z.optional(id()), parent_task_id: z.optional(id()), done: z.optional(flag01()), ...cursorQuery(500) }), {
    command: ['tasks', 'list'],
    summary: 'List tasks (v1 form)',
    examples: ['crmctl tasks list'],
    ...V1_FORM,
  }),
  get: getRow('/api/v2/tasks/{id}', 1, ['projects:read', 'projects:full'], {
    command: ['tasks', 'get'],
    summary: 'Show one task',
    examples: ['crmctl tasks get 1'],
    ...SHOWN,
  }, { beta: true }),
  getV1: getRow('/api/v1/tasks/{id}', 2, ['projects:read', 'projects:full'], {
    command: ['tasks', 'get'],
    summary: 'Show one task (v1 form)',
    examples: ['crmctl tasks get 1'],
    ...V1_FORM,
  }),
  create: createRow('/api/v2/tasks', 5, ['projects:full'], () => z.object({ title: z.string().check(z.maxLength(255)), project_id: id(), ...taskBody() }), {
    command: ['tasks', 'create'],
    summary: 'Create a task in a project (optionally under a parent task)',
    examples: ['crmctl tasks create --title "Kick-off" --project-id 1'],
    ...SHOWN,
  }, { beta: true, successStatus: 201 }),
  createV1: createRow('/api/v1/tasks', 10, ['projects:full'], () => z.object({ title: z.string(), project_id: z.number(), ...v1TaskBody() }), {
    command: ['tasks', 'create'],
    summary: 'Create a task (v1 form)',
    examples: ['crmctl tasks create'],
    ...V1_FORM,
  }, { successStatus: 201 }),
  update: updateRow('PATCH', '/api/v2/tasks/{id}', 5, ['projects:full'], {
    command: ['tasks', 'update'],
    summary: 'Change a task: only the fields you give change',
    examples: ['crmctl tasks update 1 --is-done true'],
    ...SHOWN,
  }, {
    beta: true,
    body: () => z.object({ title: z.optional(z.string().check(z.maxLength(255))), project_id: z.optional(id()), ...taskBody() }),
  }),
  updateV1: updateRow('PUT', '/api/v1/tasks/{id}', 10, ['projects:full'], {
    command: ['tasks', 'update'],
    summary: 'Change a task (v1 form)',
    examples: ['crmctl tasks update 1'],
    ...V1_FORM,
  }, {
    body: () => z.object({ title: z.optional(z.string()), project_id: z.optional(z.number()), ...v1TaskBody() }),
  }),
  delete: deleteRow('/api/v2/tasks/{id}', 3, ['projects:full'], {
    command: ['tasks', 'delete'],
    summary: 'Delete a task (and its subtasks)',
    examples: ['crmctl tasks delete 1'],
  }, { beta: true }),
  deleteV1: deleteRow('/api/v1/tasks/{id}', 6, ['projects:full'], {
    command: ['tasks', 'delete'],
    summary: 'Delete a task (v1 form)',
    examples: ['crmctl tasks delete 1'],
    columns: ['success', 'data'],
    fields: ['success', 'data'],
    switch: '--v1',
  }),
} satisfies OperationTable);
