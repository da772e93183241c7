// Notes: list (filters, sort, offset pages), get, create, update, delete.
import { ok } from '../../http/envelope.js';
import { forbidden, invalid } from '../../http/errors.js';
import { canSeeAttached } from '../../engine/access.js';
import { offsetPage } from '../../http/paginate.js';
import { parseSort } from '../../http/sort.js';
import { isDate, UUID } from '../../http/validate.js';
import type { Note } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { parseNoteBody, type NoteChanges } from './body.js';
import { comments, loadNote, NOTE_READ, NOTE_WRITE, PINS, presentNote, TARGETS } from './common.js';
import { sanitizeHtml } from './sanitize.js';
import { v1Time } from '../../engine/time.js';

const SORTABLE = ['id', 'user_id', 'deal_id', 'person_id', 'org_id', 'content', 'add_time', 'update_time'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const asUtc = (v1: string) => Date.parse(`${v1.replace(' ', 'T')}Z`);

function list(req: SandboxRequest, ctx: HandlerContext) {
  const q = req.query;
  // Notes on items the caller may not see are left out, as those items are.
  let rows = ctx.state.notes.filter((n) => canSeeAttached(ctx.state, req.user, n));
  const intFilters = ['user_id', 'deal_id', 'person_id', 'org_id', 'project_id', 'task_id'] as const;
  for (const k of intFilters) {
    const v = q.int(k, { min: 1 });
    if (v !== undefined) rows = rows.filter((n) => n[k] === v);
  }
  const lead = q.str('lead_id');
  if (lead !== undefined) {
    if (!UUID.test(lead)) throw invalid('lead_id', 'must be a UUID');
    rows = rows.filter((n) => n.lead_id === lead);
  }
  for (const flag of Object.keys(PINS)) {
    const v = q.oneOf(flag, ['0', '1'] as const);
    if (v !== undefined) rows = rows.filter((n) => Boolean(n[flag]) === (v === '1'));
  }
  const start = q.str('start_date'), end = q.str('end_date');
  if (start !== undefined && !isDate(start)) throw invalid('start_date', 'must be a date in YYYY-MM-DD format');
  if (end !== undefined && !isDate(end)) throw invalid('end_date', 'must be a date in YYYY-MM-DD format');
  if (start !== undefined) rows = rows.filter((n) => n.add_time.slice(0, 10) >= start);
  if (end !== undefined) rows = rows.filter((n) => n.add_time.slice(0, 10) <= end);
  const since = q.str('updated_since');
  if (since !== undefined) {
    if (!RFC3339.test(since) || Number.isNaN(Date.parse(since))) throw invalid('updated_since', 'must be an RFC 3339 date-time, e.g. 2025-01-01T10:20:00Z');
    const t = Date.parse(since);
    rows = rows.filter((n) => asUtc(n.update_time) >= t);
  }
  const sort = q.str('sort');
  // Default order: creation (id ascending).
  rows = [...rows].sort((a, b) => a.id - b.id);
  if (sort) rows.sort(parseSort(sort, (f) => SORTABLE.includes(f)));
  const page = offsetPage(rows, q);
  return ok(page.data.map((n) => presentNote(ctx.state, n, req.user)), page.additional_data);
}

/** Whole-note rules, checked on the note as it would be after the write. */
function checkNote(state: SandboxState, req: SandboxRequest, after: Note, c: NoteChanges, before: Note | null): void {
  if (TARGETS.every((t) => after[t] == null)) {
    throw invalid(TARGETS.join('|'), 'at least one is required: a note must be attached to a lead, deal, person, organization, project or task');
  }
  for (const [flag, target] of Object.entries(PINS)) {
    if (after[flag] === true && after[target] == null) throw invalid(flag, `needs ${target}: a note can only be pinned to an item it is attached to`);
  }
  // A note goes only on items the caller may see (the item's own read would be 403).
  if (!canSeeAttached(state, req.user, after)) throw forbidden();
  // Only an admin can make someone else the author (create) or change the author (update).
  const author = before ? before.user_id : req.userId;
  if (c.user_id !== undefined && c.user_id !== author && !req.user.is_admin) {
    throw forbidden('user_id: only an admin can change the author of a note');
  }
}

function changesToPatch(c: NoteChanges): Partial<Note> {
  const { pins, content, ...rest } = c;
  const patch: Partial<Note> = { ...rest, ...pins };
  if (content !== undefined) patch.content = sanitizeHtml(content);
  return patch;
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const c = parseNoteBody(state, req.body, 'create');
  const now = v1Time(ctx.now());
  const note: Note = {
    id: 0, content: '', user_id: req.userId, last_update_user_id: req.userId, lead_id: null, deal_id: null, person_id: null,
    org_id: null, project_id: null, task_id: null, add_time: now, update_time: now, active_flag: true,
    pinned_to_lead_flag: false, pinned_to_deal_flag: false, pinned_to_organization_flag: false, pinned_to_person_flag: false,
    pinned_to_project_flag: false, pinned_to_task_flag: false,
    ...changesToPatch(c),
  };
  checkNote(state, req, note, c, null);
  const { id: _placeholder, ...rec } = note;
  const saved = state.notes.insert(rec, { userId: req.userId });
  return ok(presentNote(state, saved, req.user));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const note = loadNote(state, req.user, req.params.id!);
  const c = parseNoteBody(state, req.body, 'update');
  const patch = changesToPatch(c);
  checkNote(state, req, { ...note, ...patch }, c, note);
  const changed = Object.entries(patch).some(([k, v]) => JSON.stringify(note[k]) !== JSON.stringify(v));
  if (changed) {
    patch.update_time = v1Time(ctx.now());
    patch.last_update_user_id = req.userId;
    state.notes.update(note.id, patch, { userId: req.userId });
  }
  return ok(presentNote(state, state.notes.get(note.id)!, req.user));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const note = loadNote(ctx.state, req.user, req.params.id!);
  ctx.state.notes.markDeleted(note.id, { active_flag: false }, { userId: req.userId });
  // Comments go with their note.
  for (const cm of comments(ctx.state).filter((x) => x.object_id === String(note.id))) {
    comments(ctx.state).markDeleted(cm.id, { active_flag: false });
  }
  return ok(true);
}

export const noteRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/notes', cost: 20, scopes: NOTE_READ, handler: list },
  { method: 'GET', path: '/api/v1/notes/{id}', cost: 2, scopes: NOTE_READ, handler: (req, ctx) => ok(presentNote(ctx.state, loadNote(ctx.state, req.user, req.params.id!), req.user)) },
  { method: 'POST', path: '/api/v1/notes', cost: 10, scopes: NOTE_WRITE, handler: create },
  { method: 'PUT', path: '/api/v1/notes/{id}', cost: 10, scopes: NOTE_WRITE, handler: update },
  { method: 'DELETE', path: '/api/v1/notes/{id}', cost: 6, scopes: NOTE_WRITE, handler: remove },
];
