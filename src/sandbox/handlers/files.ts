// Area module: files (v1) and call logs with their recordings. An upload keeps the bytes in the
// state (collection fileBlobs, base64), so they survive a restart with --data and a download
// returns them unchanged, with the file's name in Content-Disposition. A file is linked to at most
// one deal, person, organization, product, activity, lead or project (the vendor's documents);
// remote files and links are Google Drive records without bytes.
import { randomUUID } from 'node:crypto';
import { ok } from '../http/envelope.js';
import { ApiError, forbidden, invalid } from '../http/errors.js';
import { offsetPage } from '../http/paginate.js';
import { objectBody } from '../http/validate.js';
import { parseSort } from '../http/sort.js';
import type { UploadedPart } from '../http/body.js';
import type { FileRec, User } from '../store/records.js';
import type { SandboxState } from '../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../types.js';
import { v1Time } from '../engine/time.js';
import { canSeeAttached } from '../engine/access.js';

const READ = ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'];
const WRITE = ['deals:full', 'activities:full', 'contacts:full'];
const PHONE = ['phone-integration'];
/** The largest upload the service takes (docs/interface-deviations.md). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

interface Blob { id: number; data: string; content_type: string; [k: string]: unknown }
interface CallLog { id: string; user_id: number; company_id: number; has_recording: boolean; [k: string]: unknown }

const blobs = (s: SandboxState) => s.collection<Blob>('fileBlobs', { idKind: 'given' });
const callLogs = (s: SandboxState) => s.collection<CallLog>('callLogs', { idKind: 'given' });

const LINKS = [
  ['deal_id', 'deals', 'deal'], ['person_id', 'persons', 'person'], ['org_id', 'organizations', 'organization'], ['product_id', 'products', 'product'],
  ['activity_id', 'activities', 'activity'], ['lead_id', 'leads', 'lead'], ['project_id', 'projects', 'project'],
] as const;

const fields = (req: SandboxRequest): Record<string, unknown> => objectBody(req.body, false);

/**
 * The items a file is linked to, each checked to exist. The vendor's upload takes every link as its own
 * optional field ("the ID of the deal to associate file(s) with", …) and its file object carries them all,
 * so several are taken together (a file on a deal, its person and its organization).
 */
function link(state: SandboxState, b: Record<string, unknown>): Partial<FileRec> {
  const given = LINKS.filter(([k]) => b[k] !== undefined && b[k] !== '' && b[k] !== null);
  const out: Partial<FileRec> = {};
  for (const [k, collection, noun] of given) {
    const raw = String(b[k]);
    const id = k === 'lead_id' ? raw : Number(raw);
    if (k !== 'lead_id' && (!Number.isInteger(id) || (id as number) < 1)) throw invalid(k, 'must be a positive integer');
    if (!state.collection(collection).get(id)) throw invalid(k, `no ${noun} with id ${raw}`);
    (out as Record<string, unknown>)[k] = id;
  }
  return out;
}

function nameOf(state: SandboxState, f: FileRec): Record<string, unknown> {
  const name = (collection: string, id: unknown) => {
    const rec = id === null || id === undefined ? undefined : (state.collection(collection).getAny(id as number) as { name?: string; title?: string } | undefined);
    return rec?.name ?? rec?.title ?? null;
  };
  return {
    deal_name: name('deals', f.deal_id), person_name: name('persons', f.person_id), org_name: name('organizations', f.org_id), product_name: name('products', f.product_id),
    lead_name: name('leads', f.lead_id), project_name: name('projects', f.project_id),
  };
}

function present(state: SandboxState, f: FileRec) {
  return {
    id: f.id, user_id: f.user_id, deal_id: f.deal_id ?? null, person_id: f.person_id ?? null, org_id: f.org_id ?? null, product_id: f.product_id ?? null,
    activity_id: (f.activity_id as number | null | undefined) ?? null, lead_id: (f.lead_id as string | null | undefined) ?? null, project_id: (f.project_id as number | null | undefined) ?? null,
    add_time: f.add_time, update_time: f.update_time, file_name: f.file_name, file_size: f.file_size, active_flag: true, inline_flag: false,
    remote_location: (f.remote_location as string | undefined) ?? 's3', remote_id: (f.remote_id as string | undefined) ?? null, cid: '', s3_bucket: '',
    mail_message_id: '', mail_template_id: '', ...nameOf(state, f), url: f.url, name: f.name, description: f.description,
  };
}

/** A file by path id: 404 when missing, 403 when it is linked to an item the user may not see. */
function loadFile(state: SandboxState, user: User, raw: string): FileRec {
  const f = /^\d+$/.test(raw) ? state.files.get(Number(raw)) : undefined;
  if (!f) throw new ApiError(404, 'File not found');
  if (!canSeeAttached(state, user, f)) throw forbidden();
  return f;
}

/** A file goes only on an item the caller may see. */
function linkVisible(state: SandboxState, user: User, linked: Partial<FileRec>): Partial<FileRec> {
  if (!canSeeAttached(state, user, linked)) throw forbidden();
  return linked;
}

function upload(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = fields(req);
  const part = b.file as UploadedPart | undefined;
  if (!part || typeof part !== 'object' || !Buffer.isBuffer(part.data)) throw invalid('file', 'is required: send the file as the multipart part "file"');
  if (part.data.length > MAX_FILE_BYTES) throw new ApiError(413, 'Request entity too large', `A file may be at most ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
  const linked = linkVisible(state, req.user, link(state, b));
  const now = v1Time(ctx.now().toISOString())!;
  const name = part.filename || 'file';
  const f = state.files.insert({
    user_id: req.userId, deal_id: null, person_id: null, org_id: null, product_id: null, activity_id: null, lead_id: null, project_id: null, ...linked,
    file_name: name, file_type: (name.split('.').pop() ?? '').toLowerCase(), file_size: part.data.length, add_time: now, update_time: now, name, description: '',
    comment: null, url: '', remote_location: 's3', remote_id: null,
  } as Omit<FileRec, 'id'>, { userId: req.userId });
  state.files.update(f.id, { url: `${ctx.baseUrl}/api/v1/files/${f.id}/download` }, { silent: true });
  blobs(state).insert({ id: f.id, data: part.data.toString('base64'), content_type: part.contentType ?? 'application/octet-stream' }, { silent: true });
  return ok(present(state, state.files.get(f.id)!));
}

function remote(kind: 'create' | 'link') {
  return (req: SandboxRequest, ctx: HandlerContext) => {
    const { state } = ctx;
    const b = fields(req);
    const need = kind === 'create' ? ['file_type', 'title', 'item_type', 'item_id', 'remote_location'] : ['item_type', 'item_id', 'remote_id', 'remote_location'];
    for (const k of need) if (b[k] === undefined || b[k] === '') throw invalid(k, 'is required');
    if (b.remote_location !== 'googledrive') throw invalid('remote_location', 'must be googledrive');
    if (kind === 'create' && !['gdoc', 'gslides', 'gsheet', 'gform', 'gdraw'].includes(String(b.file_type))) throw invalid('file_type', 'must be one of gdoc, gslides, gsheet, gform, gdraw');
    const key = ({ deal: 'deal_id', organization: 'org_id', person: 'person_id' } as Record<string, string>)[String(b.item_type)];
    if (!key) throw invalid('item_type', 'must be one of deal, organization, person');
    const linked = linkVisible(state, req.user, link(state, { [key]: b.item_id }));
    const now = v1Time(ctx.now().toISOString())!;
    const remoteId = kind === 'create' ? randomUUID().replace(/-/g, '') : String(b.remote_id);
    const title = kind === 'create' ? String(b.title) : `Google Drive file ${remoteId}`;
    const f = state.files.insert({
      user_id: req.userId, deal_id: null, person_id: null, org_id: null, product_id: null, activity_id: null, lead_id: null, project_id: null, ...linked,
      file_name: title, file_type: kind === 'create' ? String(b.file_type) : 'gdoc', file_size: 0, add_time: now, update_time: now, name: title, description: '',
      comment: null, url: `https://drive.google.com/open?id=${remoteId}`, remote_location: 'googledrive', remote_id: remoteId,
    } as Omit<FileRec, 'id'>, { userId: req.userId });
    return ok(present(state, f));
  };
}

function download(req: SandboxRequest, ctx: HandlerContext) {
  const f = loadFile(ctx.state, req.user, req.params.id!);
  if (f.remote_location === 'googledrive') throw new ApiError(404, 'File has no content', 'A Google Drive file is opened at its url.');
  // Seeded files were never uploaded: they answer with a short text standing in for their content.
  const blob = blobs(ctx.state).get(f.id);
  const data = blob ? Buffer.from(blob.data, 'base64') : Buffer.from(`Sandbox placeholder for ${f.file_name} (file ${f.id}).\n`);
  // The type the upload declared; placeholders are text.
  const type = blob ? blob.content_type : 'text/plain; charset=utf-8';
  const ascii = f.file_name.replace(/[^\x20-\x7e]|"/g, '_');
  return { status: 200, body: data, headers: { 'content-type': type, 'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.file_name)}` } };
}

// ---- call logs ----
const OUTCOMES = ['connected', 'no_answer', 'left_message', 'left_voicemail', 'wrong_number', 'busy'];
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

function createCall(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const b = fields(req);
  for (const k of ['to_phone_number', 'outcome', 'start_time', 'end_time']) if (b[k] === undefined || b[k] === '') throw invalid(k, 'is required');
  if (!OUTCOMES.includes(String(b.outcome))) throw invalid('outcome', `must be one of ${OUTCOMES.join(', ')}`);
  for (const k of ['start_time', 'end_time']) if (!TIME.test(String(b[k])) || Number.isNaN(Date.parse(`${String(b[k]).replace(' ', 'T')}Z`))) throw invalid(k, 'must be a UTC time YYYY-MM-DD HH:MM:SS');
  if (String(b.end_time) < String(b.start_time)) throw invalid('end_time', 'must not be before start_time');
  const refs: Array<[string, string, string]> = [['person_id', 'persons', 'person'], ['org_id', 'organizations', 'organization'], ['deal_id', 'deals', 'deal'], ['lead_id', 'leads', 'lead'], ['activity_id', 'activities', 'activity'], ['user_id', 'users', 'user']];
  for (const [k, collection, noun] of refs) if (b[k] !== undefined && b[k] !== null && !state.collection(collection).get(b[k] as number)) throw invalid(k, `no ${noun} with id ${String(b[k])}`);
  const id = randomUUID().replace(/-/g, '');
  const rec = callLogs(state).insert({
    id, user_id: (b.user_id as number | undefined) ?? req.userId, activity_id: (b.activity_id as number | undefined) ?? null, subject: (b.subject as string | undefined) ?? null,
    duration: (b.duration as string | undefined) ?? null, outcome: b.outcome, from_phone_number: (b.from_phone_number as string | undefined) ?? null,
    to_phone_number: b.to_phone_number, start_time: b.start_time, end_time: b.end_time, person_id: (b.person_id as number | undefined) ?? null,
    org_id: (b.org_id as number | undefined) ?? null, deal_id: (b.deal_id as number | undefined) ?? null, lead_id: (b.lead_id as string | undefined) ?? null,
    note: (b.note as string | undefined) ?? null, has_recording: false, company_id: state.company.id,
  }, { userId: req.userId });
  return ok({ ...rec });
}

function loadCall(state: SandboxState, raw: string): CallLog {
  const c = callLogs(state).get(raw);
  if (!c) throw new ApiError(404, 'Call log not found');
  return c;
}

function recording(req: SandboxRequest, ctx: HandlerContext) {
  const c = loadCall(ctx.state, req.params.id!);
  const part = fields(req).file as UploadedPart | undefined;
  if (!part || typeof part !== 'object' || !Buffer.isBuffer(part.data)) throw invalid('file', 'is required: send the recording as the multipart part "file"');
  if (!/^audio\//.test(part.contentType ?? '') && !/\.(mp3|wav|m4a|ogg|webm|aac)$/i.test(part.filename ?? '')) throw invalid('file', 'must be an audio file (mp3, wav, m4a, ogg, webm, aac)');
  if (c.has_recording) throw invalid('file', 'the call log already has a recording');
  callLogs(ctx.state).update(c.id, { has_recording: true, recording_size: part.data.length }, { userId: req.userId });
  return { status: 200, body: { success: true } };
}

export const filesArea: AreaModule = {
  name: 'files',
  routes: [
    {
      method: 'GET', path: '/api/v1/files', cost: 20, scopes: READ,
      handler: (req, ctx) => {
        const sort = req.query.str('sort');
        // Newest first unless asked otherwise.
        const rows = ctx.state.files.filter((f) => canSeeAttached(ctx.state, req.user, f)).sort(sort ? parseSort(sort, (f) => ['id', 'update_time'].includes(f)) : (a, b) => b.id - a.id);
        const page = offsetPage(rows, req.query, { maxLimit: 100 });
        return ok(page.data.map((f) => present(ctx.state, f)), page.additional_data);
      },
    },
    { method: 'GET', path: '/api/v1/files/{id}', cost: 2, scopes: READ, handler: (req, ctx) => ok(present(ctx.state, loadFile(ctx.state, req.user, req.params.id!))) },
    { method: 'POST', path: '/api/v1/files', cost: 10, scopes: WRITE, body: 'multipart', handler: upload },
    {
      method: 'PUT', path: '/api/v1/files/{id}', cost: 10, scopes: WRITE, body: 'json-or-form',
      handler: (req, ctx) => {
        const f = loadFile(ctx.state, req.user, req.params.id!);
        const b = fields(req);
        const patch: Partial<FileRec> = {};
        if (b.name !== undefined) {
          if (typeof b.name !== 'string' || !b.name.trim()) throw invalid('name', 'must be a non-empty string');
          patch.name = b.name;
        }
        if (b.description !== undefined) patch.description = String(b.description);
        if (!Object.keys(patch).length) throw invalid('body', 'give name or description');
        ctx.state.files.update(f.id, { ...patch, update_time: v1Time(ctx.now().toISOString())! }, { userId: req.userId });
        return ok(present(ctx.state, ctx.state.files.get(f.id)!));
      },
    },
    {
      method: 'DELETE', path: '/api/v1/files/{id}', cost: 6, scopes: WRITE,
      handler: (req, ctx) => {
        const f = loadFile(ctx.state, req.user, req.params.id!);
        ctx.state.files.markDeleted(f.id, {}, { userId: req.userId });
        blobs(ctx.state).remove(f.id);
        return ok({ id: f.id });
      },
    },
    { method: 'POST', path: '/api/v1/files/remote', cost: 10, scopes: WRITE, body: 'json-or-form', handler: remote('create') },
    { method: 'POST', path: '/api/v1/files/remoteLink', cost: 10, scopes: WRITE, body: 'json-or-form', handler: remote('link') },
    { method: 'GET', path: '/api/v1/files/{id}/download', cost: 20, scopes: READ, handler: download },
    {
      method: 'GET', path: '/api/v1/callLogs', cost: 20, scopes: PHONE,
      handler: (req, ctx) => {
        const rows = callLogs(ctx.state).filter((c) => c.user_id === req.userId);
        const page = offsetPage(rows, req.query, { maxLimit: 50 });
        return ok(page.data.map((c) => ({ ...c })), page.additional_data);
      },
    },
    { method: 'GET', path: '/api/v1/callLogs/{id}', cost: 2, scopes: PHONE, handler: (req, ctx) => ok({ ...loadCall(ctx.state, req.params.id!) }) },
    { method: 'POST', path: '/api/v1/callLogs', cost: 10, scopes: PHONE, handler: createCall },
    {
      method: 'DELETE', path: '/api/v1/callLogs/{id}', cost: 6, scopes: PHONE,
      handler: (req, ctx) => {
        const c = loadCall(ctx.state, req.params.id!);
        callLogs(ctx.state).remove(c.id);
        return { status: 200, body: { success: true } };
      },
    },
    { method: 'POST', path: '/api/v1/callLogs/{id}/recordings', cost: 10, scopes: PHONE, body: 'multipart', handler: recording },
  ],
};
