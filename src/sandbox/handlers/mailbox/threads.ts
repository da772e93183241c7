// Mail threads: list by folder (most recent message first), get, messages, update
// (form-encoded only), delete. Archiving moves an inbox thread to the archive folder.
import { ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { objectBody, UUID } from '../../http/validate.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { FOLDERS, loadThread, MAIL_READ, MAIL_WRITE, mailOk, messages, presentMessage, threads, type Flag, type Folder, type MailThread } from './common.js';

const FIELDS = ['deal_id', 'lead_id', 'shared_flag', 'read_flag', 'archived_flag'] as const;

function list(req: SandboxRequest, ctx: HandlerContext) {
  // Required by the service, with inbox as its default: an absent folder means inbox.
  const folder = req.query.oneOf('folder', FOLDERS) ?? 'inbox';
  const rows = threads(ctx.state)
    .filter((t) => t.user_id === req.userId && t.folders.includes(folder))
    .sort((a, b) => b.last_message_timestamp.localeCompare(a.last_message_timestamp) || b.id - a.id);
  const page = offsetPage(rows.map((t) => structuredClone(t)), req.query);
  return ok(page.data, page.additional_data);
}

function threadMessages(req: SandboxRequest, ctx: HandlerContext) {
  const t = loadThread(ctx.state, req.userId, req.params.id!);
  const rows = messages(ctx.state).filter((m) => m.mail_thread_id === t.id).sort((a, b) => a.message_time.localeCompare(b.message_time));
  return ok(rows.map((m) => presentMessage(m, false)));
}

/** One form value: a single string (a repeated key is an error); '' means "unset". */
function single(b: Record<string, unknown>, k: string): string | undefined {
  if (!(k in b)) return undefined;
  const v = b[k];
  if (Array.isArray(v)) throw invalid(k, 'must be given once');
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw invalid(k, 'must be a single value');
  return v;
}

function flag(b: Record<string, unknown>, k: string): Flag | undefined {
  const v = single(b, k);
  if (v === undefined) return undefined;
  if (v !== '0' && v !== '1') throw invalid(k, 'must be 0 or 1');
  return Number(v) as Flag;
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const t = loadThread(state, req.userId, req.params.id!);
  if (req.body === undefined) throw invalid('body', `give at least one of ${FIELDS.join(', ')}`);
  const b = objectBody(req.body);
  for (const k of Object.keys(b)) if (!(FIELDS as readonly string[]).includes(k)) throw invalid(k, 'is not a known field of this operation');
  if (Object.keys(b).length === 0) throw invalid('body', `give at least one of ${FIELDS.join(', ')}`);
  const patch: Partial<MailThread> = {};

  const deal = single(b, 'deal_id');
  if (deal !== undefined) {
    if (deal === '') { patch.deal_id = null; patch.deal_status = null; }
    else {
      if (!/^\d+$/.test(deal) || Number(deal) < 1) throw invalid('deal_id', 'must be a positive integer');
      const d = state.deals.get(Number(deal));
      if (!d) throw invalid('deal_id', `deal ${deal} does not exist`);
      patch.deal_id = d.id;
      patch.deal_status = d.status;
    }
  }
  const lead = single(b, 'lead_id');
  if (lead !== undefined) {
    if (lead === '') patch.lead_id = null;
    else {
      if (!UUID.test(lead)) throw invalid('lead_id', 'must be a UUID');
      if (!state.leads.get(lead)) throw invalid('lead_id', `lead ${lead} does not exist`);
      patch.lead_id = lead;
    }
  }
  const shared = flag(b, 'shared_flag');
  if (shared !== undefined) patch.shared_flag = shared;
  const read = flag(b, 'read_flag');
  if (read !== undefined) patch.read_flag = read;
  const archived = flag(b, 'archived_flag');
  if (archived === 1 && t.archived_flag !== 1) {
    // Only inbox threads can be archived; archiving moves the thread out of the inbox.
    if (!t.folders.includes('inbox')) throw invalid('archived_flag', `only threads of the inbox folder can be archived (thread ${t.id} is in ${t.folders.join(', ')})`);
    patch.archived_flag = 1;
    patch.folders = [...t.folders.filter((f) => f !== 'inbox'), 'archive'] as Folder[];
  } else if (archived === 0 && t.archived_flag === 1) {
    // Not shown by the interface; the sandbox puts an un-archived thread back in the inbox.
    patch.archived_flag = 0;
    patch.folders = ['inbox', ...t.folders.filter((f) => f !== 'archive')] as Folder[];
  }
  const changed = Object.entries(patch).some(([k, v]) => JSON.stringify(t[k]) !== JSON.stringify(v));
  if (changed) {
    patch.update_time = ctx.now().toISOString();
    patch.version = t.version + 1;
    threads(state).update(t.id, patch, { userId: req.userId });
  }
  return ok(structuredClone(threads(state).get(t.id)));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const t = loadThread(ctx.state, req.userId, req.params.id!);
  threads(ctx.state).markDeleted(t.id, { deleted_flag: 1 }, { userId: req.userId });
  for (const m of messages(ctx.state).filter((x) => x.mail_thread_id === t.id)) messages(ctx.state).markDeleted(m.id, { deleted_flag: 1 });
  return mailOk({ id: t.id });
}

export const threadRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/mailbox/mailThreads', cost: 20, scopes: MAIL_READ, handler: list },
  { method: 'GET', path: '/api/v1/mailbox/mailThreads/{id}', cost: 20, scopes: MAIL_READ, handler: (req, ctx) => ok(structuredClone(loadThread(ctx.state, req.userId, req.params.id!))) },
  { method: 'GET', path: '/api/v1/mailbox/mailThreads/{id}/mailMessages', cost: 20, scopes: MAIL_READ, handler: threadMessages },
  // The vendor spec lists only application/x-www-form-urlencoded for this body: JSON gets 415.
  { method: 'PUT', path: '/api/v1/mailbox/mailThreads/{id}', cost: 10, scopes: MAIL_WRITE, body: 'form', handler: update },
  { method: 'DELETE', path: '/api/v1/mailbox/mailThreads/{id}', cost: 6, scopes: MAIL_WRITE, handler: remove },
];
