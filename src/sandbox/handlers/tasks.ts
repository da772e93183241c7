// Area module: project tasks, v2 (beta) and v1. A task belongs to a project and may sit under a
// parent task of the same project (one level, as the web app); done sets marked_as_done_time;
// deleting a task deletes its subtasks. The v1 form is the same record with v1 names and times.
import { ok } from '../http/envelope.js';
import { invalid } from '../http/errors.js';
import { cursorPage } from '../http/paginate.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../types.js';
import { crudRoutes, loadRecord, parseInput, writeEnv } from '../engine/crud.js';
import type { Input, ResourceSpec, WriteEnv } from '../engine/resource.js';
import { r, REF, type Rule } from '../engine/rules.js';
import { v1Time, v2Time } from '../engine/time.js';
import { PROJECT_READ, PROJECT_WRITE, tasks, type Task } from './projects/store.js';

const flag01: Rule = r.int({ min: 0, max: 1 });

/** A parent is a live root task of the same project (checked once the project is known). */
function checkParent(env: WriteEnv, projectId: number, parentId: number | null | undefined, self?: number): void {
  if (parentId === undefined || parentId === null) return;
  const parent = tasks(env.state).get(parentId);
  if (!parent) throw invalid('parent_task_id', `no task with id ${parentId}`);
  if (parent.id === self) throw invalid('parent_task_id', 'a task cannot be its own parent');
  if (parent.project_id !== projectId) throw invalid('parent_task_id', `task ${parentId} belongs to project ${parent.project_id}, not ${projectId}`);
  if (parent.parent_task_id !== null) throw invalid('parent_task_id', `task ${parentId} is a subtask itself; subtasks have one level`);
}

/** assignee_id is the first of assignee_ids (v1 names one, v2 a list); giving either replaces both. */
function assignees(input: Input): { assignee_id: number | null; assignee_ids: number[] } | undefined {
  if (input.assignee_ids === undefined && input.assignee_id === undefined) return undefined;
  const ids = (input.assignee_ids as number[] | undefined) ?? (input.assignee_id == null ? [] : [input.assignee_id as number]);
  const first = (input.assignee_id as number | null | undefined) ?? ids[0] ?? null;
  return { assignee_id: first, assignee_ids: first !== null && !ids.includes(first) ? [first, ...ids] : ids };
}

export const taskSpec: ResourceSpec<Task> = {
  object: 'task',
  collection: tasks,
  notFound: 'Task not found',
  base: '/api/v2/tasks',
  createStatus: 201,
  scopes: { read: PROJECT_READ, write: PROJECT_WRITE },
  costs: { list: 10, get: 1, create: 5, update: 5, delete: 3 },
  members: {
    title: r.string({ max: 255 }),
    project_id: r.ref(REF.project),
    parent_task_id: r.nullable(r.int({ min: 1 })),
    description: r.nullable(r.string({ empty: true })),
    done: flag01,
    milestone: flag01,
    due_date: r.nullable(r.date()),
    start_date: r.nullable(r.date()),
    assignee_id: r.nullable(r.ref(REF.user)),
    assignee_ids: r.ids({ ref: REF.user, max: 10 }),
    priority: r.nullable(r.int({ min: 0 })),
  },
  required: ['title', 'project_id'],
  build: (env, input) => {
    checkParent(env, input.project_id as number, input.parent_task_id as number | null | undefined);
    const done = (input.done as 0 | 1 | undefined) ?? 0;
    return {
      title: input.title as string, project_id: input.project_id as number, description: (input.description as string | null | undefined) ?? null,
      parent_task_id: (input.parent_task_id as number | null | undefined) ?? null, ...(assignees(input) ?? { assignee_id: null, assignee_ids: [] }),
      done, milestone: (input.milestone as 0 | 1 | undefined) ?? 0, due_date: (input.due_date as string | null | undefined) ?? null,
      start_date: (input.start_date as string | null | undefined) ?? null, priority: (input.priority as number | null | undefined) ?? null,
      creator_id: env.userId, add_time: env.now, update_time: env.now, marked_as_done_time: done ? env.now : null,
    };
  },
  change: (env, t, input) => {
    const projectId = (input.project_id as number | undefined) ?? t.project_id;
    const parent = input.parent_task_id === undefined ? (projectId === t.project_id ? undefined : t.parent_task_id) : (input.parent_task_id as number | null);
    checkParent(env, projectId, parent, t.id);
    const patch: Partial<Task> = { ...(input as Partial<Task>) };
    delete (patch as Input).assignee_id;
    delete (patch as Input).assignee_ids;
    Object.assign(patch, assignees(input) ?? {});
    if (input.done !== undefined && input.done !== t.done) patch.marked_as_done_time = input.done === 1 ? env.now : null;
    return patch;
  },
  remove: (env, t) => {
    const w = { userId: env.userId };
    for (const sub of tasks(env.state).filter((x) => x.parent_task_id === t.id)) tasks(env.state).markDeleted(sub.id, { update_time: env.now }, w);
    tasks(env.state).markDeleted(t.id, { update_time: env.now }, w);
  },
  present: (_s, t) => ({
    id: t.id, title: t.title, creator_id: t.creator_id, description: t.description, project_id: t.project_id, is_done: t.done === 1,
    is_milestone: t.milestone === 1, due_date: t.due_date, start_date: (t.start_date as string | null | undefined) ?? null, parent_task_id: t.parent_task_id,
    assignee_ids: t.assignee_ids, priority: (t.priority as number | null | undefined) ?? null, add_time: v2Time(t.add_time), update_time: v2Time(t.update_time),
    marked_as_done_time: v2Time(t.marked_as_done_time),
  }),
  list: {
    filters: {
      is_done: { kind: 'bool', test: (t, v: boolean) => (t.done === 1) === v },
      is_milestone: { kind: 'bool', test: (t, v: boolean) => (t.milestone === 1) === v },
      assignee_id: { kind: 'int', test: (t, v: number) => t.assignee_ids.includes(v) || t.assignee_id === v },
      project_id: { kind: 'int', test: (t, v: number) => t.project_id === v },
      // "null" lists the root tasks (the vendor's documents).
      parent_task_id: { kind: 'string', test: (t, v: string) => (v === 'null' ? t.parent_task_id === null : t.parent_task_id === Number(v)) },
    },
  },
};

const v1Task = (t: Task) => ({
  id: t.id, title: t.title, project_id: t.project_id, description: t.description, parent_task_id: t.parent_task_id, assignee_id: t.assignee_id,
  assignee_ids: t.assignee_ids, done: t.done, due_date: t.due_date, creator_id: t.creator_id, add_time: v1Time(t.add_time),
  update_time: v1Time(t.update_time), marked_as_done_time: v1Time(t.marked_as_done_time),
});

function v1List(req: SandboxRequest, ctx: HandlerContext) {
  const q = req.query;
  const project = q.int('project_id', { min: 1 }), assignee = q.int('assignee_id', { min: 1 }), parent = q.int('parent_task_id', { min: 1 });
  const done = q.int('done', { min: 0, max: 1 });
  const rows = tasks(ctx.state).filter((t) => (project === undefined || t.project_id === project) && (assignee === undefined || t.assignee_ids.includes(assignee) || t.assignee_id === assignee)
    && (parent === undefined || t.parent_task_id === parent) && (done === undefined || t.done === done));
  const page = cursorPage(rows.sort((a, b) => a.id - b.id), q, { maxLimit: 500 });
  return ok(page.data.map(v1Task), page.additional_data);
}

function v1Write(mode: 'create' | 'update') {
  return (req: SandboxRequest, ctx: HandlerContext) => {
    const env = writeEnv(req, ctx);
    const input = parseInput(taskSpec, env, req.body, mode);
    if (mode === 'create') return ok(v1Task(tasks(ctx.state).insert(taskSpec.build(env, input) as Task, { userId: req.userId })), null, 201);
    const t = loadRecord(taskSpec, ctx.state, req);
    tasks(ctx.state).update(t.id, { ...taskSpec.change!(env, t, input), update_time: env.now }, { userId: req.userId });
    return ok(v1Task(tasks(ctx.state).get(t.id)!));
  };
}

export const tasksArea = {
  name: 'tasks',
  routes: [
    ...crudRoutes(taskSpec),
    { method: 'GET', path: '/api/v1/tasks', cost: 20, scopes: PROJECT_READ, handler: v1List },
    { method: 'GET', path: '/api/v1/tasks/{id}', cost: 2, scopes: PROJECT_READ, handler: (req, ctx) => ok(v1Task(loadRecord(taskSpec, ctx.state, req))) },
    { method: 'POST', path: '/api/v1/tasks', cost: 10, scopes: PROJECT_WRITE, handler: v1Write('create') },
    { method: 'PUT', path: '/api/v1/tasks/{id}', cost: 10, scopes: PROJECT_WRITE, handler: v1Write('update') },
    { method: 'DELETE', path: '/api/v1/tasks/{id}', cost: 6, scopes: PROJECT_WRITE, handler: (req, ctx) => {
      const t = loadRecord(taskSpec, ctx.state, req);
      taskSpec.remove!(writeEnv(req, ctx), t);
      return ok({ id: t.id });
    } },
  ] satisfies RouteDef[],
};
