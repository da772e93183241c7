// Comments of a note: offset-paged list, get, add, update, delete. Ids are UUIDs; the record
// carries both `id` (the interface's name) and `uuid` (the vendor's name) with the same value.
import { randomUUID } from 'node:crypto';
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { objectBody, rejectUnknown, reqString, UUID } from '../../http/validate.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { commentNotFound, comments, loadNote, NOTE_READ, NOTE_WRITE, type Comment } from './common.js';
import { sanitizeHtml } from './sanitize.js';

function loadComment(req: SandboxRequest, ctx: HandlerContext): Comment {
  const note = loadNote(ctx.state, req.user, req.params.id!);
  const id = req.params.commentId!;
  if (!UUID.test(id)) throw invalid('commentId', 'must be a UUID');
  const c = comments(ctx.state).get(id);
  if (!c || c.object_id !== String(note.id)) throw commentNotFound();
  return c;
}

function readContent(raw: unknown): string {
  const b = objectBody(raw);
  rejectUnknown(b, ['content']);
  return sanitizeHtml(reqString(b, 'content'));
}

function list(req: SandboxRequest, ctx: HandlerContext) {
  const note = loadNote(ctx.state, req.user, req.params.id!);
  const rows = comments(ctx.state).filter((c) => c.object_id === String(note.id)).sort((a, b) => a.add_time.localeCompare(b.add_time));
  const page = offsetPage(rows, req.query);
  return ok(page.data, page.additional_data);
}

function add(req: SandboxRequest, ctx: HandlerContext) {
  const note = loadNote(ctx.state, req.user, req.params.id!);
  const content = readContent(req.body);
  const id = randomUUID();
  const now = ctx.now().toISOString();
  const c = comments(ctx.state).insert({
    id, uuid: id, active_flag: true, add_time: now, update_time: now, content, object_id: String(note.id), object_type: 'note',
    user_id: req.userId, updater_id: req.userId, company_id: ctx.state.company.id,
  });
  return ok(c);
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const c = loadComment(req, ctx);
  const content = readContent(req.body);
  if (content !== c.content) comments(ctx.state).update(c.id, { content, updater_id: req.userId, update_time: ctx.now().toISOString() });
  return ok(comments(ctx.state).get(c.id));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const c = loadComment(req, ctx);
  comments(ctx.state).markDeleted(c.id, { active_flag: false });
  return ok(true);
}

export const commentRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/notes/{id}/comments', cost: 20, scopes: NOTE_READ, handler: list },
  { method: 'GET', path: '/api/v1/notes/{id}/comments/{commentId}', cost: 2, scopes: NOTE_READ, handler: (req, ctx) => ok(loadComment(req, ctx)) },
  { method: 'POST', path: '/api/v1/notes/{id}/comments', cost: 10, scopes: NOTE_WRITE, handler: add },
  { method: 'PUT', path: '/api/v1/notes/{id}/comments/{commentId}', cost: 10, scopes: NOTE_WRITE, handler: update },
  { method: 'DELETE', path: '/api/v1/notes/{id}/comments/{commentId}', cost: 6, scopes: NOTE_WRITE, handler: remove },
];
