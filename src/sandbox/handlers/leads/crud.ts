// Lead list, archived list, get, create (201), update, delete, permitted users.
import { customFieldMap, } from '../../engine/fields/store.js';
import { randomUUID } from 'node:crypto';
import { created, ok } from '../../http/envelope.js';
import { invalid } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { parseSort } from '../../http/sort.js';
import { has, objectBody } from '../../http/validate.js';
import type { Lead } from '../../store/records.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../../types.js';
import { canSee, permittedUserIds } from '../../engine/access.js';
import { refuseArchivedEdit } from '../../engine/archived.js';
import { defaultVisibility } from '../roles/store.js';
import { applyFilter } from '../../engine/filter-eval.js';
import { parseLeadBody } from './body.js';
import { LEAD_READ, LEAD_WRITE, loadLead, present } from './common.js';

const LIST_SORT = ['id', 'title', 'owner_id', 'creator_id', 'label_ids', 'value', 'source_name', 'was_seen',
  'expected_close_date', 'next_activity_id', 'add_time', 'update_time', 'visible_to'];
const ARCHIVED_SORT = ['id', 'title', 'owner_id', 'creator_id', 'was_seen', 'expected_close_date', 'next_activity_id',
  'add_time', 'update_time'];

/** Last list computed per sandbox state (one entry: an export pages through one list at a time). */
const listCache = new WeakMap<object, { key: string; rows: Lead[] }>();

function list(archived: boolean) {
  return (req: SandboxRequest, ctx: HandlerContext) => {
    const { state } = ctx;
    const q = req.query;
    const customKeys = new Set(customFieldMap(state, 'deal').keys());
    const sortable = archived ? ARCHIVED_SORT : LIST_SORT;
    const sort = q.str('sort');
    const cmp = sort ? parseSort(sort, (f) => sortable.includes(f) || (!archived && customKeys.has(f))) : null;

    const compute = (): Lead[] => {
      let rows = state.leads.filter((l) => l.is_archived === archived && canSee(state, req.user, l));
      const filterId = q.int('filter_id', { min: 1 });
      if (filterId !== undefined) {
        // filter_id wins over owner/person/organization (interface).
        rows = applyFilter(state, filterId, 'leads', rows);
      } else {
        const owner = q.int('owner_id'), person = q.int('person_id'), org = q.int('organization_id');
        if (owner !== undefined) rows = rows.filter((l) => l.owner_id === owner);
        if (person !== undefined) rows = rows.filter((l) => l.person_id === person);
        if (org !== undefined) rows = rows.filter((l) => l.organization_id === org);
      }
      if (!archived) {
        const since = q.str('updated_since');
        if (since !== undefined) {
          const t = Date.parse(since);
          if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}/.test(since)) throw invalid('updated_since', 'must be an ISO 8601 date-time');
          rows = rows.filter((l) => Date.parse(l.update_time) >= t);
        }
      }
      // Oldest first. Records are stored in creation order, so the sort is usually a no-op: check in
      // O(n) before paying O(n log n) on every page of a large export.
      const byAddTime = (a: { add_time: string }, b: { add_time: string }) => (a.add_time < b.add_time ? -1 : a.add_time > b.add_time ? 1 : 0);
      if (rows.some((r, i) => i > 0 && byAddTime(rows[i - 1]!, r) > 0)) rows = [...rows].sort(byAddTime);
      if (cmp) rows.sort(cmp);
      return rows;
    };
    // The filtered, ordered list is kept until the next write anywhere, so paging through a large
    // collection (an export of 400k leads) costs a slice per page instead of a scan per page.
    const { start: _start, limit: _limit, ...filters } = req.query.toObject();
    const key = JSON.stringify([archived, req.userId, state.writeSeq, Object.entries(filters).sort()]);
    const cached = listCache.get(state);
    let rows: Lead[];
    if (cached?.key === key) rows = cached.rows;
    else {
      rows = compute();
      listCache.set(state, { key, rows });
    }
    // Copy only the page, not the whole collection.
    const page = offsetPage(rows, q);
    return ok(page.data.map(present), page.additional_data);
  };
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const c = parseLeadBody(state, req.body, 'create');
  if ((c.person_id ?? null) === null && (c.organization_id ?? null) === null) {
    throw invalid('person_id', 'a lead needs person_id or organization_id (or both)');
  }
  const now = ctx.now().toISOString();
  const id = randomUUID();
  const n = state.leads.allWithDeleted().length + 1;
  const lead = state.leads.insert({
    id, title: c.title!, owner_id: c.owner_id ?? req.userId, creator_id: req.userId, label_ids: c.label_ids ?? [],
    person_id: c.person_id ?? null, organization_id: c.organization_id ?? null,
    // Leads created through the API get source and origin "API" (interface).
    source_name: 'API', origin: 'API', origin_id: c.origin_id ?? null, channel: c.channel ?? null, channel_id: c.channel_id ?? null,
    source_deal_id: null, is_archived: false, archive_reason: null, was_seen: c.was_seen ?? false, value: c.value ?? null,
    expected_close_date: c.expected_close_date ?? null, next_activity_id: null, add_time: now, update_time: now,
    visible_to: c.visible_to ?? String(defaultVisibility(state, req.user, 'lead')),
    cc_email: `${state.company.domain}+lead${n}@pipedrivemail.com`,
    ...customOnly(c),
  }, { userId: req.userId });
  return created(present(lead));
}

/** Custom-field keys of a change set (everything that is not a standard lead field). */
function customOnly(c: Partial<Lead>): Record<string, unknown> {
  const std = new Set(['title', 'owner_id', 'label_ids', 'person_id', 'organization_id', 'value', 'expected_close_date',
    'visible_to', 'was_seen', 'origin_id', 'channel', 'channel_id', 'is_archived', 'archive_reason']);
  return Object.fromEntries(Object.entries(c).filter(([k]) => !std.has(k)));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const { state } = ctx;
  const lead = loadLead(state, req.user, req.params.id!);
  const b = objectBody(req.body);
  const c = parseLeadBody(state, b, 'update');
  if (lead.is_archived) refuseArchivedEdit('lead', lead.id, c);

  const personAfter = has(c, 'person_id') ? c.person_id : lead.person_id;
  const orgAfter = has(c, 'organization_id') ? c.organization_id : lead.organization_id;
  if ((personAfter ?? null) === null && (orgAfter ?? null) === null) {
    throw invalid(has(c, 'person_id') ? 'person_id' : 'organization_id', 'a lead must stay linked to a person or an organization');
  }

  // archive_reason only goes with archiving: in the same request, or on a lead that is already archived.
  if (has(c, 'archive_reason') && c.archive_reason !== null) {
    const archivingNow = c.is_archived === true;
    if (c.is_archived === false) throw invalid('archive_reason', 'cannot be set while un-archiving the lead (is_archived=false)');
    if (!archivingNow && !lead.is_archived) throw invalid('archive_reason', 'can only be set when the lead is archived or is archived in the same request');
  }
  const patch: Record<string, unknown> = { ...c };
  if (c.is_archived === false) patch.archive_reason = null;
  // A custom value set to null is removed: a value never set is absent from the lead (interface).
  for (const [k, v] of Object.entries(customOnly(c))) if (v === null) patch[k] = undefined;
  const changed = Object.entries(patch).some(([k, v]) => JSON.stringify(lead[k]) !== JSON.stringify(v));
  if (changed) {
    patch.update_time = ctx.now().toISOString();
    state.leads.update(lead.id, patch as Partial<Lead>, { userId: req.userId });
  }
  return ok(present(state.leads.get(lead.id)!));
}

function remove(req: SandboxRequest, ctx: HandlerContext) {
  const lead = loadLead(ctx.state, req.user, req.params.id!);
  ctx.state.leads.markDeleted(lead.id, {}, { userId: req.userId });
  return ok({ id: lead.id });
}

export const crudRoutes: RouteDef[] = [
  { method: 'GET', path: '/api/v1/leads', cost: 20, scopes: LEAD_READ, handler: list(false) },
  { method: 'GET', path: '/api/v1/leads/archived', cost: 40, scopes: LEAD_READ, handler: list(true) },
  { method: 'GET', path: '/api/v1/leads/{id}', cost: 2, scopes: LEAD_READ,
    handler: (req, ctx) => ok(present(loadLead(ctx.state, req.user, req.params.id!))) },
  { method: 'POST', path: '/api/v1/leads', cost: 10, scopes: LEAD_WRITE, handler: create },
  { method: 'PATCH', path: '/api/v1/leads/{id}', cost: 10, scopes: LEAD_WRITE, handler: update },
  { method: 'DELETE', path: '/api/v1/leads/{id}', cost: 6, scopes: LEAD_WRITE, handler: remove },
  { method: 'GET', path: '/api/v1/leads/{id}/permittedUsers', cost: 10, scopes: LEAD_READ,
    handler: (req, ctx) => ok(permittedUserIds(ctx.state, loadLead(ctx.state, req.user, req.params.id!))) },
];
