// Records and collections of the projects area (projects, boards, phases, templates,
// groups, tasks, plan placement, changelog, project custom-field metadata). Shapes follow
// the vendor's documents (v2 Project, v2 Phase) and the vendor OpenAPI for the v1 sub-resources.
import { ApiError } from '../../http/errors.js';
import type { SandboxState } from '../../store/state.js';

export const PROJECT_READ = ['projects:read', 'projects:full'];
export const PROJECT_WRITE = ['projects:full'];

export const STATUSES = ['open', 'completed', 'canceled', 'deleted'] as const;
/** A create or update may set these; `deleted` comes from deleting (not part of the interface). */
export const SETTABLE_STATUSES = ['open', 'completed', 'canceled'] as const;
export type ProjectStatus = (typeof STATUSES)[number];

export interface Project {
  id: number;
  title: string;
  description: string | null;
  status: ProjectStatus;
  board_id: number;
  phase_id: number;
  owner_id: number;
  start_date: string | null;
  end_date: string | null;
  deal_ids: number[];
  person_ids: number[];
  org_ids: number[];
  label_ids: number[];
  health_status: number | null;
  add_time: string;
  update_time: string;
  status_change_time: string;
  archive_time: string | null;
  custom_fields: Record<string, unknown>;
  [k: string]: unknown;
}

export interface Board { id: number; name: string; order_nr: number; add_time: string; update_time: string; [k: string]: unknown }
export interface Phase { id: number; name: string; board_id: number; order_nr: number; add_time: string; update_time: string; [k: string]: unknown }

/** Template items name a group by index and a phase by its position on the project's board. */
export interface Template {
  id: number;
  title: string;
  description: string;
  groups: string[];
  tasks: { title: string; group: number | null; phase_order: number | null; description?: string }[];
  activities: { subject: string; type: string; group: number | null; phase_order: number | null; duration?: string }[];
  [k: string]: unknown;
}

export interface Group { id: number; project_id: number; name: string; order_nr: number; active_flag: boolean; [k: string]: unknown }

export interface Task {
  id: number;
  title: string;
  project_id: number;
  description: string | null;
  parent_task_id: number | null;
  assignee_id: number | null;
  assignee_ids: number[];
  done: 0 | 1;
  due_date: string | null;
  creator_id: number;
  add_time: string;
  update_time: string;
  marked_as_done_time: string | null;
  [k: string]: unknown;
}

/** Where a task or activity sits in the project plan. */
export interface PlanItem { id: number; project_id: number; item_type: 'task' | 'activity'; item_id: number; phase_id: number | null; group_id: number | null; [k: string]: unknown }

export interface ChangelogEntry {
  id: number;
  project_id: number;
  time: string;
  actor_user_id: number;
  change_source: string | null;
  change_source_user_agent: string | null;
  old_values: Record<string, unknown>;
  new_values: Record<string, unknown>;
  [k: string]: unknown;
}

export const projects = (s: SandboxState) => s.collection<Project>('projects', { idKind: 'int' });
export const boards = (s: SandboxState) => s.collection<Board>('projectBoards', { idKind: 'int' });
export const phases = (s: SandboxState) => s.collection<Phase>('projectPhases', { idKind: 'int' });
export const templates = (s: SandboxState) => s.collection<Template>('projectTemplates', { idKind: 'int' });
export const groups = (s: SandboxState) => s.collection<Group>('projectGroups', { idKind: 'int' });
export const tasks = (s: SandboxState) => s.collection<Task>('projectTasks', { idKind: 'int' });
export const plan = (s: SandboxState) => s.collection<PlanItem>('projectPlan', { idKind: 'int' });
export const changelog = (s: SandboxState) => s.collection<ChangelogEntry>('projectChangelog', { idKind: 'int' });

/** v2 404 body (the vendor's documents). */
export const entityNotFound = () => new ApiError(404, 'Entity was not found', 'Object was not found.');

/** A project that exists (archived and status-deleted ones included), else 404. */
export function loadProject(state: SandboxState, rawId: string): Project {
  const id = /^\d+$/.test(rawId) ? Number(rawId) : NaN;
  const p = Number.isInteger(id) ? projects(state).get(id) : undefined;
  if (!p) throw entityNotFound();
  return p;
}

/** Phases of a board in board order. */
export const boardPhases = (state: SandboxState, boardId: number): Phase[] =>
  phases(state).filter((p) => p.board_id === boardId).sort((a, b) => a.order_nr - b.order_nr);

/** Response form: a copy, so later changes do not leak into a sent body. */
export const presentProject = (p: Project): Project => {
  const { id, ...rest } = structuredClone(p);
  return { id, ...rest } as Project;
};

/** v1 timestamps are "YYYY-MM-DD HH:MM:SS" UTC. */
