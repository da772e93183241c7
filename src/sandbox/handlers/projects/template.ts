// Creating a project from a template copies the template's groups, tasks and activities
// into the new project and places them in its plan (phase by position on the project's board).
import type { SandboxState } from '../../store/state.js';
import { boardPhases, groups, plan, tasks, templates, type Project } from './store.js';
import { v1Time } from '../../engine/time.js';

/** `silent` while seeding: seeds emit no events. */
export function applyTemplate(state: SandboxState, p: Project, templateId: number, userId: number, now: string, silent = false): void {
  const tpl = templates(state).get(templateId)!;
  const phaseAt = (order: number | null) => (order === null ? null : (boardPhases(state, p.board_id)[order - 1]?.id ?? null));
  const groupIds = tpl.groups.map((name, i) => groups(state).insert({ project_id: p.id, name, order_nr: i + 1, active_flag: true }).id);
  const groupAt = (i: number | null) => (i === null ? null : (groupIds[i] ?? null));
  for (const t of tpl.tasks) {
    const task = tasks(state).insert({
      title: t.title, project_id: p.id, description: t.description ?? null, parent_task_id: null, assignee_id: null, assignee_ids: [],
      done: 0, due_date: null, creator_id: userId, add_time: v1Time(now), update_time: v1Time(now), marked_as_done_time: null,
    });
    plan(state).insert({ project_id: p.id, item_type: 'task', item_id: task.id, phase_id: phaseAt(t.phase_order), group_id: groupAt(t.group) });
  }
  for (const a of tpl.activities) {
    const act = insertProjectActivity(state, p.id, { subject: a.subject, type: a.type, owner_id: p.owner_id, duration: a.duration ?? null }, now, userId, silent);
    plan(state).insert({ project_id: p.id, item_type: 'activity', item_id: act.id, phase_id: phaseAt(a.phase_order), group_id: groupAt(a.group) });
  }
}

/** Project activities live in the shared activities collection, linked by project_id. */
export function insertProjectActivity(
  state: SandboxState, projectId: number,
  a: { subject: string; type: string; owner_id: number; due_date?: string | null; due_time?: string | null; duration?: string | null; done?: boolean; location?: string | null },
  now: string, userId: number | null, silent = false,
) {
  return state.activities.insert({
    subject: a.subject, type: a.type, owner_id: a.owner_id, deal_id: null, lead_id: null, person_id: null, org_id: null,
    project_id: projectId, due_date: a.due_date ?? null, due_time: a.due_time ?? null, duration: a.duration ?? null,
    done: a.done ?? false, location: a.location ?? null, public_description: null, busy_flag: false,
    add_time: now, update_time: now, marked_as_done_time: a.done ? now : null, is_deleted: false,
  }, { userId, silent });
}
