// Person lists and details: v2 list (cursor) and get, v1 list (offset), v1 get,
// and the beta v1 collection (cursor, global admins only).
import { ok } from '../../http/envelope.js';
import { forbidden, invalid } from '../../http/errors.js';
import { cursorPage, offsetPage } from '../../http/paginate.js';
import type { Query } from '../../http/query.js';
import { parseSort } from '../../http/sort.js';
import type { Person } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee } from '../../engine/access.js';
import { applyFilter } from '../../engine/filter-eval.js';
import { onePage } from '../../engine/page-index.js';
import { dealsOf, loadPerson, parseTime, pictures, READ } from './common.js';
import { collectionPerson, INCLUDE_FIELDS, v1Person, v2Person, type DetailOptions } from './present.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** include_fields, custom_fields (at most 15), include_option_labels, include_labels. */
function detailOptions(q: Query): DetailOptions {
  const include = q.list('include_fields') ?? [];
  for (const f of include) {
    if (!(INCLUDE_FIELDS as readonly string[]).includes(f)) throw invalid('include_fields', `${f} is not one of ${INCLUDE_FIELDS.join(', ')}`);
  }
  const customKeys = q.list('custom_fields');
  if (customKeys && customKeys.length > 15) throw invalid('custom_fields', 'must have at most 15 keys');
  return { include, customKeys, optionLabels: q.bool('include_option_labels') ?? false, labels: q.bool('include_labels') ?? false };
}

function rfc3339(q: Query, name: string): number | undefined {
  const v = q.str(name);
  if (v === undefined) return undefined;
  if (!RFC3339.test(v) || Number.isNaN(Date.parse(v))) throw invalid(name, 'must be an RFC 3339 date-time, e.g. 2025-01-31T12:00:00Z');
  return Date.parse(v);
}

const visible = (state: SandboxState, req: SandboxRequest) => state.persons.filter((p) => canSee(state, req.user, p));

function listV2(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const q = req.query;
  const opts = detailOptions(q);
  const ids = q.list('ids');
  if (ids) {
    if (ids.length > 100) throw invalid('ids', 'must have at most 100 ids');
    for (const i of ids) if (!/^\d+$/.test(i)) throw invalid('ids', `${i} is not an integer id`);
  }
  const owner = q.int('owner_id'), org = q.int('org_id'), deal = q.int('deal_id');
  const since = rfc3339(q, 'updated_since'), until = rfc3339(q, 'updated_until');
  const sortBy = q.oneOf('sort_by', ['id', 'update_time', 'add_time'] as const) ?? 'id';
  const direction = q.oneOf('sort_direction', ['asc', 'desc'] as const) ?? 'asc';
  q.int('limit', { min: 1, max: 500 });

  let rows = visible(state, req);
  const filterId = q.int('filter_id', { min: 1 });
  if (filterId !== undefined) {
    // With filter_id the service ignores ids, owner_id, org_id and deal_id (interface).
    rows = applyFilter(state, filterId, 'people', rows);
  } else {
    // Ids that do not exist or are not visible are simply left out.
    if (ids) { const want = new Set(ids.map(Number)); rows = rows.filter((p) => want.has(p.id)); }
    if (owner !== undefined) rows = rows.filter((p) => p.owner_id === owner);
    if (org !== undefined) rows = rows.filter((p) => p.org_id === org);
    if (deal !== undefined) rows = rows.filter((p) => dealsOf(state, p.id).some((d) => d.id === deal));
  }
  if (since !== undefined) rows = rows.filter((p) => Date.parse(p.update_time) >= since);
  if (until !== undefined) rows = rows.filter((p) => Date.parse(p.update_time) < until);
  const key = (p: Person) => (sortBy === 'id' ? p.id : Date.parse(p[sortBy]));
  rows = [...rows].sort((a, b) => ((key(a) - key(b)) || (a.id - b.id)) * (direction === 'desc' ? -1 : 1));
  const ranked = rows.map((p, rank) => ({ id: p.id, rank, p }));
  const page = cursorPage(ranked, q, { field: 'rank' });
  return ok(onePage(state, () => page.data.map((r) => v2Person(state, r.p, opts))), page.additional_data);
}

function getV2(req: SandboxRequest, ctx: HandlerContext) {
  const p = loadPerson(ctx.state, req.user, req.params.id!);
  return ok(v2Person(ctx.state, p, detailOptions(req.query)));
}

function firstChar(q: Query): string | undefined {
  const c = q.str('first_char');
  if (c !== undefined && [...c].length !== 1) throw invalid('first_char', 'must be a single character');
  return c?.toLowerCase();
}

function listV1(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const q = req.query;
  const fc = firstChar(q);
  const user = q.int('user_id', { min: 1 });
  let rows = visible(state, req);
  const filterId = q.int('filter_id', { min: 1 });
  // filter_id wins over user_id (interface).
  if (filterId !== undefined) rows = applyFilter(state, filterId, 'people', rows);
  else if (user !== undefined) rows = rows.filter((p) => p.owner_id === user);
  if (fc !== undefined) rows = rows.filter((p) => p.name.toLowerCase().startsWith(fc));
  let recs = onePage(state, () => rows.map((p) => v1Person(state, p)));
  const sort = q.str('sort');
  if (sort) {
    const keys = new Set(recs[0] ? Object.keys(recs[0]) : []);
    // First-level keys only; objects such as owner_id sort by their id ("value").
    const flat = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) && 'value' in v ? (v as { value: unknown }).value : v]));
    const cmp = parseSort(sort, (f) => keys.size === 0 || keys.has(f));
    recs = recs.map((r) => ({ r, f: flat(r) })).sort((a, b) => cmp(a.f, b.f)).map((x) => x.r);
  }
  const page = offsetPage(recs, q);
  return ok(page.data, page.additional_data);
}

function getV1(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const p = loadPerson(state, req.user, req.params.id!);
  const rec = v1Person(state, p);
  // marketing_status only when the campaigns (marketing) app is in use (interface).
  if ((state.company as unknown as { marketing_app_enabled?: boolean }).marketing_app_enabled) rec.marketing_status = p.marketing_status ?? 'no_consent';
  const owner = state.users.getAny(p.owner_id);
  const org = p.org_id ? state.organizations.getAny(p.org_id) : undefined;
  const pic = p.picture_id ? pictures(state).get(p.picture_id) : undefined;
  const related: Record<string, unknown> = {};
  if (owner) related.user = { [owner.id]: { id: owner.id, name: owner.name, email: owner.email, has_pic: 0, pic_hash: null, active_flag: owner.active_flag } };
  if (org) related.organization = { [org.id]: { id: org.id, name: org.name, people_count: state.persons.filter((x) => x.org_id === org.id).length, owner_id: org.owner_id, address: org.address?.value ?? null, active_flag: !org.is_deleted } };
  if (pic) related.picture = { [pic.id]: { id: pic.id, item_type: 'person', item_id: p.id, active_flag: pic.active_flag, pictures: pic.pictures } };
  return { status: 200, body: { success: true, data: rec, additional_data: { dropbox_email: `${state.company.domain}+person${p.id}@pipedrivemail.com` }, related_objects: related } };
}

function collection(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  // Only global admins may read the collection; everyone else gets 403 (interface, Errors).
  if (!req.user.is_admin) throw forbidden();
  const q = req.query;
  const time = (name: string) => {
    const v = q.str(name);
    if (v === undefined) return undefined;
    const t = parseTime(v);
    if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}/.test(v)) throw invalid(name, 'must be a date-time, e.g. 2025-01-31 12:00:00');
    return t;
  };
  const since = time('since'), until = time('until');
  const owner = q.int('owner_id', { min: 1 });
  const fc = firstChar(q);
  q.int('limit', { min: 1, max: 500 });
  let rows = state.persons.all();
  if (since !== undefined) rows = rows.filter((p) => Date.parse(p.update_time) >= since);
  if (until !== undefined) rows = rows.filter((p) => Date.parse(p.update_time) <= until);
  if (owner !== undefined) rows = rows.filter((p) => p.owner_id === owner);
  if (fc !== undefined) rows = rows.filter((p) => p.name.toLowerCase().startsWith(fc));
  rows = [...rows].sort((a, b) => a.id - b.id);
  const page = cursorPage(rows, q);
  return ok(page.data.map((p) => collectionPerson(p, state)), page.additional_data);
}

export const listRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v2/persons', cost: 10, scopes: READ, handler: listV2 },
  { method: 'GET', path: '/api/v2/persons/{id}', cost: 1, scopes: READ, handler: getV2 },
  // The v1 list, collection and get have no cost in the interface; typical v1 costs (list 20, get 2) are charged.
  { method: 'GET', path: '/v1/persons', cost: 20, scopes: READ, handler: listV1 },
  { method: 'GET', path: '/v1/persons/collection', cost: 20, scopes: READ, handler: collection },
  { method: 'GET', path: '/v1/persons/{id}', cost: 2, scopes: READ, handler: getV1 },
];
