// What hangs off one person: changelog, files (two forms), flow, followers (v2 and v1)
// and their changelog, mail messages, permitted users, picture, products, activities, deals.
import { ok } from '../../http/envelope.js';
import { invalid, notFound } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { parseSort } from '../../http/sort.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee, canSeeAttached, permittedUserIds } from '../../engine/access.js';
import {
  dealProducts, dealsOf, files, loadPerson, mailMessages, MAIL, pictures,
  products, READ, RECENTS, v1Time, type MailMessage,
} from './common.js';
import { v1Activity, v1Deal } from './present.js';
import { customFieldMap } from '../../engine/fields/store.js';
import { changelogRoute, changesOf } from '../../engine/changelog.js';
import { followerRoutes, followersOf } from '../../engine/followers.js';
import { flag01 } from '../shared/related.js';

const FILE_SORT_API = ['id', 'update_time'];
const FILE_SORT_V1 = ['id', 'user_id', 'deal_id', 'person_id', 'org_id', 'product_id', 'add_time', 'update_time', 'file_name', 'file_type', 'file_size', 'comment'];
export const FLOW_ITEMS = [
  'call', 'activity', 'plannedActivity', 'change', 'note', 'deal', 'file', 'dealChange', 'personChange', 'organizationChange',
  'follower', 'dealFollower', 'personFollower', 'organizationFollower', 'participant', 'comment', 'mailMessage',
  'mailMessageWithAttachment', 'invoice', 'document', 'marketing_campaign_stat', 'marketing_status_change',
];
const DEAL_STATUSES = ['open', 'won', 'lost', 'deleted', 'all_not_deleted'] as const;
const DAY = 24 * 3600 * 1000;

function personFiles(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadPerson(ctx.state, req.user, req.params.id!);
  // The two forms differ in what `sort` accepts (interface); the Limits table caps both at 100 a page.
  const v1Form = req.path.startsWith('/v1/');
  const sortable = v1Form ? FILE_SORT_V1 : FILE_SORT_API;
  const sort = req.query.str('sort');
  let rows = files(ctx.state).filter((f) => f.person_id === p.id);
  if (sort) rows = [...rows].sort(parseSort(sort, (f) => sortable.includes(f)));
  const page = offsetPage(rows, req.query, { maxLimit: 100 });
  return ok(page.data, page.additional_data);
}

function flow(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  const all = flag01(req, 'all_changes') === 1;
  const items = req.query.list('items');
  for (const i of items ?? []) if (!FLOW_ITEMS.includes(i)) throw invalid('items', `${i} is not one of ${FLOW_ITEMS.join(', ')}`);
  const custom = customFieldMap(state, 'person');
  const out: { object: string; timestamp: string; data: Record<string, unknown> }[] = [];
  // What else is attached elsewhere is shown only to who may see those items too.
  const seen = (r: Record<string, unknown>) => canSeeAttached(state, req.user, r);
  for (const n of state.notes.filter((x) => x.person_id === p.id && seen(x))) out.push({ object: 'note', timestamp: n.add_time, data: { ...n } });
  for (const a of state.activities.filter((x) => x.person_id === p.id && seen(x))) {
    out.push({ object: a.done ? 'activity' : 'plannedActivity', timestamp: v1Time(a.add_time)!, data: v1Activity(state, a) });
  }
  for (const f of files(state).filter((x) => x.person_id === p.id)) out.push({ object: 'file', timestamp: f.add_time, data: { ...f } });
  for (const d of state.deals.filter((x) => x.person_id === p.id && canSee(state, req.user, x))) out.push({ object: 'deal', timestamp: v1Time(d.add_time)!, data: v1Deal(state, d) });
  for (const c of changesOf(state, 'person', p.id)) {
    // Custom field changes only with all_changes=1 (interface).
    if (custom.has(c.field_key) && !all) continue;
    out.push({ object: 'personChange', timestamp: v1Time(c.time)!, data: { id: c.id, item_id: p.id, user_id: c.actor_user_id, field_key: c.field_key, old_value: c.old_value, new_value: c.new_value, is_bulk_update_flag: c.is_bulk_update_flag, log_time: v1Time(c.time), change_source: c.change_source } });
  }
  for (const f of followersOf(state, 'person', p.id)) {
    out.push({ object: 'personFollower', timestamp: v1Time(f.add_time)!, data: { id: f.id, user_id: f.user_id, person_id: p.id, add_time: v1Time(f.add_time) } });
  }
  for (const m of mailMessages(state).filter((x) => x.person_id === p.id)) {
    out.push({ object: m.has_attachments_flag ? 'mailMessageWithAttachment' : 'mailMessage', timestamp: v1Time(m.message_time)!, data: mailData(m, false) });
  }
  const rows = out.filter((x) => !items || items.includes(x.object)).sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  const page = offsetPage(rows, req.query);
  // related_objects: the users, persons, organizations and deals the page mentions (the vendor's documents).
  const rel: Record<string, Record<string, unknown>> = { user: {}, person: {}, organization: {}, deal: {} };
  const addUser = (id: unknown) => { const u = typeof id === 'number' ? state.users.getAny(id) : undefined; if (u) rel.user![u.id] = { id: u.id, name: u.name, email: u.email, has_pic: 0, pic_hash: null, active_flag: u.active_flag }; };
  rel.person![p.id] = { id: p.id, name: p.name, email: p.emails, phone: p.phones, owner_id: p.owner_id, active_flag: !p.is_deleted };
  const org = p.org_id ? state.organizations.getAny(p.org_id) : undefined;
  if (org) rel.organization![org.id] = { id: org.id, name: org.name, people_count: state.persons.filter((x) => x.org_id === org.id).length, owner_id: org.owner_id, address: org.address?.value ?? null, cc_email: null };
  for (const it of page.data) {
    addUser(it.data.user_id);
    const dealId = it.data.deal_id ?? (it.object === 'deal' ? it.data.id : undefined);
    const d = typeof dealId === 'number' ? state.deals.getAny(dealId) : undefined;
    if (d) rel.deal![d.id] = { id: d.id, title: d.title, status: d.status, value: d.value, currency: d.currency, stage_id: d.stage_id, pipeline_id: d.pipeline_id };
  }
  return { status: 200, body: { success: true, data: page.data, additional_data: page.additional_data, related_objects: rel } };
}

function mailData(m: MailMessage, withBody: boolean): Record<string, unknown> {
  const { person_id: _p, body, ...rest } = m;
  // The body is sent only with include_body=1 (interface); body_url is always there.
  return { ...rest, body_url: `https://mail.sandbox.invalid/messages/${m.id}/body`, ...(withBody ? { body } : {}) };
}

function mail(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadPerson(ctx.state, req.user, req.params.id!);
  const withBody = flag01(req, 'include_body') === 1;
  const rows = mailMessages(ctx.state).filter((m) => m.person_id === p.id).sort((a, b) => b.message_time.localeCompare(a.message_time));
  const page = offsetPage(rows.map((m) => ({ object: 'mailMessage', timestamp: v1Time(m.message_time), data: mailData(m, withBody) })), req.query);
  return ok(page.data, page.additional_data);
}

function picture(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadPerson(ctx.state, req.user, req.params.id!);
  const pic = p.picture_id ? pictures(ctx.state).get(p.picture_id) : undefined;
  if (!pic) throw notFound('Person picture not found');
  const { add_time: _a, ...rest } = pic;
  return ok(rest);
}

function personProducts(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  const entries: Record<string, unknown>[] = [];
  for (const d of dealsOf(state, p.id)) {
    for (const dp of dealProducts(state).filter((x) => x.deal_id === d.id)) {
      const prod = products(state).get(dp.product_id);
      if (!prod) continue;
      // Each entry is keyed by the deal id, as the service sends it.
      entries.push({ [d.id]: { deal: v1Deal(state, d), product: { ...prod, deal_id: d.id, quantity: dp.quantity, item_price: dp.item_price, currency: dp.currency } } });
    }
  }
  const page = offsetPage(entries, req.query);
  return ok(page.data, page.additional_data);
}

function activities(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  const done = flag01(req, 'done');
  const exclude = new Set<number>();
  for (const x of req.query.list('exclude') ?? []) {
    if (!/^\d+$/.test(x)) throw invalid('exclude', `${x} is not an activity id`);
    exclude.add(Number(x));
  }
  const rows = state.activities
    .filter((a) => a.person_id === p.id && !exclude.has(a.id) && (done === undefined || a.done === (done === 1)) && canSeeAttached(state, req.user, a))
    .sort((a, b) => String(a.due_date ?? '9999').localeCompare(String(b.due_date ?? '9999')) || a.id - b.id);
  const page = offsetPage(rows.map((a) => v1Activity(state, a)), req.query);
  return ok(page.data, page.additional_data);
}

function deals(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  const status = req.query.oneOf('status', DEAL_STATUSES) ?? 'all_not_deleted';
  const cutoff = ctx.now().getTime() - 30 * DAY;
  const rows = dealsOf(state, p.id, true).filter((d) => {
    // Archived deals are served only by the archived list (since 2025-07-15).
    if (d.is_archived) return false;
    const deleted = state.deals.isDeleted(d.id);
    // deleted: deals deleted in the last 30 days (interface).
    if (status === 'deleted') return deleted && Date.parse(String(d.delete_time ?? d.update_time)) >= cutoff;
    if (deleted) return false;
    return status === 'all_not_deleted' || d.status === status;
  });
  let recs = rows.sort((a, b) => a.id - b.id).map((d) => v1Deal(state, d));
  const sort = req.query.str('sort');
  if (sort) {
    const keys = new Set([...Object.keys(v1Deal(state, rows[0] ?? state.deals.allWithDeleted()[0]!)), ...customFieldMap(state, 'deal').keys()]);
    recs = recs.sort(parseSort(sort, (f) => keys.has(f)));
  }
  const page = offsetPage(recs, req.query);
  return ok(page.data, page.additional_data);
}

const personOf = (req: SandboxRequest, ctx: HandlerContext) => loadPerson(ctx.state, req.user, req.params.id!);

export const relatedRoutes: RouteDef[] = [
  changelogRoute({ object: 'person', path: '/api/v1/persons/{id}', scopes: RECENTS, load: personOf }),
  // One route serves /api/v1/... and its /v1/... alias; the handler tells the two file forms apart.
  { method: 'GET', path: '/api/v1/persons/{id}/files', cost: 20, scopes: READ, handler: personFiles },
  { method: 'GET', path: '/api/v1/persons/{id}/flow', cost: 40, scopes: RECENTS, handler: flow },
  ...followerRoutes({ object: 'person', v2: '/api/v2/persons/{id}', v1: '/api/v1/persons/{id}', v1Key: 'person_id', read: READ, write: ['contacts:full'], load: personOf }),
  { method: 'GET', path: '/api/v1/persons/{id}/mailMessages', cost: 20, scopes: MAIL, handler: mail },
  { method: 'GET', path: '/api/v1/persons/{id}/permittedUsers', cost: 10, scopes: READ,
    handler: (req, ctx) => ok(permittedUserIds(ctx.state, loadPerson(ctx.state, req.user, req.params.id!))) },
  { method: 'GET', path: '/api/v2/persons/{id}/picture', cost: 1, scopes: READ, handler: picture },
  { method: 'GET', path: '/api/v1/persons/{id}/products', cost: 20, scopes: READ, handler: personProducts },
  // Costs of the /v1 activities and deals lists are not stated; the typical v1 list cost (20) is charged.
  { method: 'GET', path: '/v1/persons/{id}/activities', cost: 20, scopes: READ, handler: activities },
  { method: 'GET', path: '/v1/persons/{id}/deals', cost: 20, scopes: READ, handler: deals },
];
