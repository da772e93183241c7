// Validation of project create/update bodies (interface, Project table and Errors).
// Every failure is a 400 naming the field and the rule.
import { invalid } from '../../http/errors.js';
import { parseCustomFields } from '../../engine/fields/values.js';
import { has, objectBody, optDate, optEnum, optInt, optString, rejectUnknown, reqString, type Body } from '../../http/validate.js';
import type { SandboxState } from '../../store/state.js';
import { boardPhases, boards, phases, SETTABLE_STATUSES, templates, type Project } from './store.js';
import { fieldByCode } from '../../engine/fields/store.js';

const COMMON = ['title', 'description', 'status', 'board_id', 'phase_id', 'owner_id', 'start_date', 'end_date', 'deal_ids',
  'person_ids', 'org_ids', 'label_ids', 'health_status', 'custom_fields'] as const;

export type ProjectChanges = Partial<Project> & { template_id?: number };

export function parseProjectBody(state: SandboxState, raw: unknown, mode: 'create' | 'update'): ProjectChanges {
  const b = objectBody(raw);
  if (mode === 'update' && has(b, 'template_id')) throw invalid('template_id', 'is only used when creating a project');
  rejectUnknown(b, mode === 'create' ? [...COMMON, 'template_id'] : COMMON);
  const out: ProjectChanges = {};

  if (mode === 'create') out.title = reqString(b, 'title', { max: 255 });
  else if (has(b, 'title')) out.title = optString(b, 'title', { max: 255 }) as string;

  const desc = has(b, 'description') ? (b.description === null ? null : typeof b.description === 'string' ? b.description : undefined) : undefined;
  if (has(b, 'description')) {
    if (desc === undefined) throw invalid('description', 'must be a string');
    if (desc === null && mode === 'create') throw invalid('description', 'must not be null');
    out.description = desc;
  }

  if (has(b, 'status')) {
    if (b.status === 'deleted') throw invalid('status', `must be one of ${SETTABLE_STATUSES.join(', ')} (deleted is set by deleting the project)`);
    out.status = optEnum(b, 'status', SETTABLE_STATUSES)!;
  }

  const board = optInt(b, 'board_id', { min: 1 });
  if (board !== undefined && board !== null) {
    if (!boards(state).get(board)) throw invalid('board_id', `board ${board} does not exist`);
    out.board_id = board;
  }
  const phase = optInt(b, 'phase_id', { min: 1 });
  if (phase !== undefined && phase !== null) {
    if (!phases(state).get(phase)) throw invalid('phase_id', `phase ${phase} does not exist`);
    out.phase_id = phase;
  }

  const owner = optInt(b, 'owner_id', { min: 1 });
  if (owner !== undefined && owner !== null) {
    const u = state.users.get(owner);
    if (!u?.active_flag) throw invalid('owner_id', `user ${owner} does not exist or is not active`);
    out.owner_id = owner;
  }

  for (const k of ['start_date', 'end_date'] as const) {
    const v = optDate(b, k, { nullable: mode === 'update' });
    if (v !== undefined) out[k] = v;
  }

  idList(b, 'deal_ids', out, (id) => Boolean(state.deals.get(id)), 'deal');
  idList(b, 'person_ids', out, (id) => Boolean(state.persons.get(id)), 'person');
  idList(b, 'org_ids', out, (id) => Boolean(state.organizations.get(id)), 'organization');
  // Project labels are the options of the project field `label_ids` (as for organizations and persons).
  const labels = new Set((fieldByCode(state, 'project', 'label_ids')?.options ?? []).map((o) => o.id));
  idList(b, 'label_ids', out, (id) => labels.has(id), 'label');

  const health = optInt(b, 'health_status', { nullable: mode === 'update' });
  if (health !== undefined) out.health_status = health;

  if (mode === 'create') {
    const tpl = optInt(b, 'template_id', { min: 1 });
    if (tpl !== undefined && tpl !== null) {
      if (!templates(state).get(tpl)) throw invalid('template_id', `project template ${tpl} does not exist`);
      out.template_id = tpl;
    }
  }

  if (has(b, 'custom_fields')) out.custom_fields = parseCustomFields(state, 'project', b.custom_fields);
  return out;
}

function idList(b: Body, k: 'deal_ids' | 'person_ids' | 'org_ids' | 'label_ids', out: ProjectChanges, exists: (id: number) => boolean, what: string): void {
  if (!has(b, k)) return;
  const v = b[k];
  if (!Array.isArray(v)) throw invalid(k, 'must be an array of integer ids');
  for (const id of v) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) throw invalid(k, `${JSON.stringify(id)} is not a positive integer id`);
    if (!exists(id)) throw invalid(k, `${what} ${id} does not exist`);
  }
  out[k] = [...new Set(v as number[])];
}

/**
 * Resolve board and phase: the phase must belong to the board. Create defaults to the first
 * board and the board's first phase; a phase alone brings its board. On update a phase alone
 * must belong to the project's board, and a new board alone moves the project to its first phase.
 */
export function placeProject(state: SandboxState, c: ProjectChanges, current?: Project): { board_id: number; phase_id: number } | undefined {
  if (c.board_id === undefined && c.phase_id === undefined) {
    if (current) return undefined;
    const first = boards(state).all().sort((a, b) => a.order_nr - b.order_nr)[0];
    if (!first) throw invalid('board_id', 'the company has no project board');
    return { board_id: first.id, phase_id: firstPhase(state, first.id) };
  }
  if (c.phase_id !== undefined) {
    const phase = phases(state).get(c.phase_id)!;
    const board = c.board_id ?? current?.board_id ?? phase.board_id;
    if (phase.board_id !== board) throw invalid('phase_id', `phase ${phase.id} does not belong to board ${board}`);
    return { board_id: board, phase_id: phase.id };
  }
  const board = c.board_id!;
  if (current && current.board_id === board) return undefined;
  return { board_id: board, phase_id: firstPhase(state, board) };
}

function firstPhase(state: SandboxState, boardId: number): number {
  const p = boardPhases(state, boardId)[0];
  if (!p) throw invalid('board_id', `board ${boardId} has no phases; add one first`);
  return p.id;
}
