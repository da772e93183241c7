// Area module: project phases (v2, beta). Boards and phases are seeded by the projects area.
// order_nr runs from 1 to (phases on the board + 1), counting the other phases of the target
// board; inserting, moving and deleting renumber the phases so a board is always 1..n.
// Deleting a phase that still holds projects (archived ones included; status-deleted ones do not
// count) is refused with a 400 naming them, as the service refuses to strand items: move the
// projects first.
import { ok } from '../http/envelope.js';
import { invalid } from '../http/errors.js';
import { has, objectBody, optInt, optString, rejectUnknown, reqInt, reqString } from '../http/validate.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';
import { boardPhases, boards, entityNotFound, phases, PROJECT_READ, PROJECT_WRITE, projects, type Phase } from './projects/store.js';

function loadPhase(state: SandboxState, raw: string): Phase {
  const p = /^\d+$/.test(raw) ? phases(state).get(Number(raw)) : undefined;
  if (!p) throw entityNotFound();
  return p;
}

function checkBoard(state: SandboxState, id: number): void {
  if (!boards(state).get(id)) throw invalid('board_id', `board ${id} does not exist`);
}

/** Write order_nr 1..n in the given order (only records whose number changes are touched). */
function renumber(state: SandboxState, list: Phase[], now: string, userId: number): void {
  list.forEach((p, i) => {
    if (p.order_nr !== i + 1) phases(state).update(p.id, { order_nr: i + 1, update_time: now }, { userId });
  });
}

function checkOrder(order: number, others: Phase[], boardId: number): void {
  const max = others.length + 1;
  if (order > max) throw invalid('order_nr', `must be between 1 and ${max} (board ${boardId} has ${others.length} other phase${others.length === 1 ? '' : 's'})`);
}

const present = (p: Phase) => structuredClone(p);

function list(req: SandboxRequest, ctx: HandlerContext) {
  const board = req.query.int('board_id', { min: 1 });
  if (board === undefined) throw invalid('board_id', 'is required');
  checkBoard(ctx.state, board);
  return ok(boardPhases(ctx.state, board).map(present));
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'board_id', 'order_nr']);
  const name = reqString(b, 'name', { max: 255 });
  const board = reqInt(b, 'board_id', { min: 1 });
  checkBoard(state, board);
  const others = boardPhases(state, board);
  const order = (optInt(b, 'order_nr', { min: 1 }) ?? others.length + 1) as number;
  checkOrder(order, others, board);
  const now = ctx.now().toISOString();
  const phase = phases(state).insert({ name, board_id: board, order_nr: order, add_time: now, update_time: now }, { userId: req.userId });
  others.splice(order - 1, 0, phase);
  renumber(state, others, now, req.userId);
  return ok(present(phase));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const phase = loadPhase(state, req.params.id!);
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'board_id', 'order_nr']);
  if (!['name', 'board_id', 'order_nr'].some((k) => has(b, k))) throw invalid('body', 'give at least one of name, board_id, order_nr');
  const name = optString(b, 'name', { max: 255 });
  const target = (optInt(b, 'board_id', { min: 1 }) ?? phase.board_id) as number;
  checkBoard(state, target);
  const others = boardPhases(state, target).filter((p) => p.id !== phase.id);
  const moving = target !== phase.board_id;
  const order = (optInt(b, 'order_nr', { min: 1 }) ?? (moving ? others.length + 1 : phase.order_nr)) as number;
  checkOrder(order, others, target);
  const now = ctx.now().toISOString();
  const from = phase.board_id;
  phases(state).update(phase.id, { ...(name ? { name } : {}), board_id: target, order_nr: order, update_time: now }, { userId: req.userId });
  if (moving) {
    renumber(state, boardPhases(state, from), now, req.userId);
    // The phase takes its projects along: their board follows the phase.
    for (const p of projects(state).filter((x) => x.phase_id === phase.id)) projects(state).update(p.id, { board_id: target, update_time: now }, { userId: req.userId });
  }
  others.splice(order - 1, 0, phases(state).get(phase.id)!);
  renumber(state, others, now, req.userId);
  return ok(present(phases(state).get(phase.id)!));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const phase = loadPhase(state, req.params.id!);
  const held = projects(state).filter((p) => p.phase_id === phase.id && p.status !== 'deleted').map((p) => p.id);
  if (held.length) {
    throw invalid('id', `phase ${phase.id} still holds ${held.length} project${held.length === 1 ? '' : 's'} (${held.join(', ')}); move them to another phase first`);
  }
  const now = ctx.now().toISOString();
  phases(state).markDeleted(phase.id, { update_time: now }, { userId: req.userId });
  renumber(state, boardPhases(state, phase.board_id), now, req.userId);
  return ok({ id: phase.id });
}

export const phasesArea: AreaModule = {
  name: 'phases',
  routes: [
    { method: 'GET', path: '/api/v2/phases', cost: 10, scopes: PROJECT_READ, handler: list },
    { method: 'GET', path: '/api/v2/phases/{id}', cost: 10, scopes: PROJECT_READ, handler: (req, ctx) => ok(present(loadPhase(ctx.state, req.params.id!))) },
    { method: 'POST', path: '/api/v2/phases', cost: 5, scopes: PROJECT_WRITE, handler: create },
    { method: 'PATCH', path: '/api/v2/phases/{id}', cost: 5, scopes: PROJECT_WRITE, handler: update },
    { method: 'DELETE', path: '/api/v2/phases/{id}', cost: 3, scopes: PROJECT_WRITE, handler: remove },
  ],
};
