// Routes of a described resource (resource.ts): v2 list (cursor), get, create, update (PATCH), delete.
// Reads check visibility; writes check the body against the member rules and custom fields before
// anything changes, then emit the service's events through the collection.
import { ok } from '../http/envelope.js';
import { forbidden, invalid, notFound } from '../http/errors.js';
import { cursorPage, decodeCursor, encodeCursor } from '../http/paginate.js';
import type { Query } from '../http/query.js';
import type { Rec } from '../store/collection.js';
import type { SandboxState } from '../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../types.js';
import { canSee, canSeeAttached } from './access.js';
import { applyFilter } from './filter-eval.js';
import { recordChanges } from './changelog.js';
import { parseCustomFields } from './fields/values.js';
import { onePage } from './page-index.js';
import type { Input, ListFilter, PresentOptions, ResourceSpec, WriteEnv } from './resource.js';
import { parseMembers } from './rules.js';

type R = Rec & { id: number };

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function rfc3339(q: Query, name: string): number | undefined {
  const v = q.str(name);
  if (v === undefined) return undefined;
  if (!RFC3339.test(v) || Number.isNaN(Date.parse(v))) throw invalid(name, 'must be an RFC 3339 date-time, e.g. 2025-01-31T12:00:00Z');
  return Date.parse(v);
}

/** include_fields, custom_fields (at most 15), include_option_labels, include_labels. */
export function presentOptions<T extends R>(spec: ResourceSpec<T>, q: Query): PresentOptions {
  const include = q.list('include_fields') ?? [];
  const allowed = spec.include ?? [];
  for (const f of include) if (!allowed.includes(f)) throw invalid('include_fields', allowed.length ? `${f} is not one of ${allowed.join(', ')}` : 'is not supported here');
  const customKeys = q.list('custom_fields');
  if (customKeys && customKeys.length > 15) throw invalid('custom_fields', 'must have at most 15 keys');
  return { include, customKeys, optionLabels: q.bool('include_option_labels') ?? false, labels: q.bool('include_labels') ?? false };
}

/** A path id: 400 when malformed, 404 when missing or deleted, 403 when the caller may not see it. */
export function loadRecord<T extends R>(spec: ResourceSpec<T>, state: SandboxState, req: SandboxRequest, raw = req.params.id!): T {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid('id', 'must be a positive integer');
  const rec = spec.collection(state).get(Number(raw));
  if (!rec) throw notFound(spec.notFound);
  if (spec.owned && !canSee(state, req.user, rec as never)) throw forbidden();
  if (spec.attached && !canSeeAttached(state, req.user, rec)) throw forbidden();
  return rec;
}

export function readFilter<T>(q: Query, name: string, f: ListFilter<T>): unknown {
  switch (f.kind) {
    case 'int': return q.int(name);
    case 'bool': return q.bool(name);
    case 'string': return q.str(name);
    case 'ints': {
      const l = q.list(name);
      if (!l) return undefined;
      for (const x of l) if (!/^\d+$/.test(x)) throw invalid(name, `${x} is not an integer id`);
      return l.map(Number);
    }
  }
}

export function writeEnv(req: SandboxRequest, ctx: HandlerContext): WriteEnv {
  return { state: ctx.state, userId: req.userId, ctx, req, now: ctx.now().toISOString() };
}

/** Checks a create/update body: member rules, then custom fields. Nothing is written. */
export function parseInput<T extends R>(spec: ResourceSpec<T>, env: WriteEnv, body: unknown, mode: 'create' | 'update'): Input {
  const members = { ...spec.members };
  const refused: Record<string, string> = {};
  for (const k of (mode === 'create' ? spec.updateOnly : spec.createOnly) ?? []) {
    delete members[k];
    refused[k] = mode === 'create' ? 'can only be set on an update' : 'can only be set on a create';
  }
  const input = parseMembers(members, body, env, { required: mode === 'create' ? spec.required : [], refused });
  if (spec.fields && input.custom_fields !== undefined && input.custom_fields !== null) input.custom_fields = parseCustomFields(env.state, spec.fields, input.custom_fields);
  if (mode === 'update' && Object.keys(input).length === 0) throw invalid('body', 'at least one field to change is needed');
  return input;
}

/** Merges custom values: null clears. */
export function mergeCustom(current: Record<string, unknown> | undefined, patch: unknown): Record<string, unknown> {
  const out = { ...(current ?? {}) };
  for (const [k, v] of Object.entries((patch ?? {}) as Record<string, unknown>)) {
    if (v === null) delete out[k]; else out[k] = v;
  }
  return out;
}

export function listRows<T extends R>(spec: ResourceSpec<T>, state: SandboxState, req: SandboxRequest): T[] {
  const q = req.query;
  const l = spec.list ?? {};
  const filterId = l.filterType ? q.int('filter_id', { min: 1 }) : undefined;
  let rows = l.rows ? l.rows(state, q, { byFilter: filterId !== undefined }) : spec.collection(state).all();
  if (spec.owned) rows = rows.filter((r) => canSee(state, req.user, r as never));
  if (spec.attached) rows = rows.filter((r) => canSeeAttached(state, req.user, r));
  const values = Object.entries(l.filters ?? {}).map(([name, f]) => ({ name, f, v: readFilter(q, name, f) }));
  let ids: Set<number> | undefined;
  if (l.ids) {
    const raw = q.list('ids');
    if (raw) {
      if (raw.length > 100) throw invalid('ids', 'must have at most 100 ids');
      for (const i of raw) if (!/^\d+$/.test(i)) throw invalid('ids', `${i} is not an integer id`);
      ids = new Set(raw.map(Number));
    }
  }
  if (filterId !== undefined) rows = applyFilter(state, filterId, l.filterType as never, rows);
  // Ids that do not exist or are not visible are simply left out.
  if (ids && filterId === undefined) rows = rows.filter((r) => ids!.has(r.id));
  for (const { f, v } of values) {
    if (v === undefined || (filterId !== undefined && f.overriddenByFilter !== false)) continue;
    rows = rows.filter((r) => f.test(r, v as never, state));
  }
  if (l.updated) {
    const since = rfc3339(q, 'updated_since'), until = rfc3339(q, 'updated_until');
    if (since !== undefined) rows = rows.filter((r) => Date.parse(String(r.update_time)) >= since);
    if (until !== undefined) rows = rows.filter((r) => Date.parse(String(r.update_time)) < until);
  }
  return rows;
}

/** Sorts by sort_by/sort_direction (id, update_time, add_time, or the resource's own keys), ties by id. */
export function sortRows<T extends R>(rows: T[], q: Query, allowed: readonly string[]): T[] {
  const sortBy = q.oneOf('sort_by', allowed as readonly string[]) ?? 'id';
  const direction = q.oneOf('sort_direction', ['asc', 'desc'] as const) ?? 'asc';
  const key = (r: T): number | string => {
    const v = r[sortBy];
    if (sortBy.endsWith('_time') && typeof v === 'string') return Date.parse(v);
    return (v as number | string | null) ?? '';
  };
  const dir = direction === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = key(a), y = key(b);
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return (c || a.id - b.id) * dir;
  });
}

/**
 * The filtered, ordered list of one query is kept until the next write anywhere (as the leads list
 * does), so paging through 400,000 records costs a slice per page, not a scan and a sort per page.
 */
const listCache = new WeakMap<SandboxState, Map<string, { seq: number; rows: R[] }>>();
const CACHED_QUERIES = 8;

function cachedRows<T extends R>(spec: ResourceSpec<T>, state: SandboxState, req: SandboxRequest): T[] {
  const { cursor: _c, limit: _l, ...filters } = req.query.toObject();
  const key = JSON.stringify([spec.base, req.userId, Object.entries(filters).sort()]);
  let perState = listCache.get(state);
  if (!perState) {
    perState = new Map();
    listCache.set(state, perState);
  }
  const hit = perState.get(key);
  if (hit && hit.seq === state.writeSeq) return hit.rows as T[];
  const rows = sortRows(listRows(spec, state, req), req.query, spec.list?.sortBy ?? ['id', 'update_time', 'add_time']);
  if (perState.size >= CACHED_QUERIES) perState.delete(perState.keys().next().value!);
  perState.set(key, { seq: state.writeSeq, rows });
  return rows;
}

/** One page of the list. In the default order (id ascending) the cursor's id is found by bisection. */
function listPage<T extends R>(rows: T[], q: SandboxRequest['query'], maxLimit: number): { data: T[]; next_cursor: string | null } {
  const byId = (q.str('sort_by') ?? 'id') === 'id' && (q.str('sort_direction') ?? 'asc') === 'asc';
  if (!byId) {
    const page = cursorPage(rows.map((r, rank) => ({ id: r.id, rank, r })), q, { field: 'rank', maxLimit });
    return { data: page.data.map(({ r }) => r), next_cursor: page.additional_data.next_cursor };
  }
  const limit = q.int('limit', { min: 1, max: maxLimit }) ?? 100;
  const raw = q.str('cursor');
  const from = raw === undefined ? 0 : lowerBound(rows, Number(decodeCursor(raw).id));
  const next = rows[from + limit];
  return { data: rows.slice(from, from + limit), next_cursor: next ? encodeCursor({ field: 'id', fieldValue: next.id, sortDirection: 'asc', id: next.id }) : null };
}

/** First index whose id is at least `id` in rows sorted by id. */
function lowerBound(rows: R[], id: number): number {
  if (!Number.isFinite(id)) return rows.length;
  let lo = 0, hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid]!.id < id) lo = mid + 1; else hi = mid;
  }
  return lo;
}

export function crudRoutes<T extends R>(spec: ResourceSpec<T>, which: ReadonlyArray<'list' | 'get' | 'create' | 'update' | 'delete'> = ['list', 'get', 'create', 'update', 'delete']): RouteDef[] {
  const cost = { list: 10, get: 1, create: 5, update: 5, delete: 3, ...(spec.costs ?? {}) };
  const col = (ctx: HandlerContext) => spec.collection(ctx.state);
  const routes: Record<string, RouteDef> = {
    list: {
      method: 'GET', path: spec.base, cost: cost.list, scopes: spec.scopes.read,
      handler: (req, ctx) => {
        const o = presentOptions(spec, req.query);
        req.query.int('limit', { min: 1, max: spec.list?.maxLimit ?? 500 });
        const page = listPage(cachedRows(spec, ctx.state, req), req.query, spec.list?.maxLimit ?? 500);
        return ok(onePage(ctx.state, () => page.data.map((r) => spec.present(ctx.state, r, o))), { next_cursor: page.next_cursor });
      },
    },
    get: {
      method: 'GET', path: `${spec.base}/{id}`, cost: cost.get, scopes: spec.scopes.read,
      handler: (req, ctx) => ok(spec.present(ctx.state, loadRecord(spec, ctx.state, req), presentOptions(spec, req.query))),
    },
    create: {
      method: 'POST', path: spec.base, cost: cost.create, scopes: spec.scopes.write,
      handler: (req, ctx) => {
        const env = writeEnv(req, ctx);
        const input = parseInput(spec, env, req.body, 'create');
        const built = spec.build(env, input);
        // A record goes only on items the caller may see (their own reads would be 403).
        if (spec.attached && !canSeeAttached(ctx.state, req.user, built as Record<string, unknown>)) throw forbidden();
        const rec = col(ctx).insert(built, { userId: req.userId });
        spec.after?.(env, rec, 'create');
        return ok(spec.present(ctx.state, col(ctx).get(rec.id)!, { include: [], optionLabels: false, labels: false }), null, spec.createStatus ?? 200);
      },
    },
    update: {
      method: 'PATCH', path: `${spec.base}/{id}`, cost: cost.update, scopes: spec.scopes.write,
      handler: (req, ctx) => {
        const rec = loadRecord(spec, ctx.state, req);
        const env = writeEnv(req, ctx);
        const input = parseInput(spec, env, req.body, 'update');
        const patch: Input = { ...(spec.change ? spec.change(env, rec, input) : input) };
        // custom_fields merge into the record's: only the sent keys change, null clears.
        if (input.custom_fields !== undefined) patch.custom_fields = mergeCustom(rec.custom_fields as Record<string, unknown>, input.custom_fields);
        if (spec.attached && !canSeeAttached(ctx.state, req.user, { ...rec, ...patch })) throw forbidden();
        const before = structuredClone(rec) as Record<string, unknown>;
        col(ctx).update(rec.id, { ...patch, update_time: env.now } as unknown as Partial<T>, { userId: req.userId });
        if (spec.changelog) recordChanges(ctx.state, spec.object, before, col(ctx).get(rec.id)!, req.userId, env.now, String(req.headers['user-agent'] ?? '') || null);
        spec.after?.(env, col(ctx).get(rec.id)!, 'update');
        return ok(spec.present(ctx.state, col(ctx).get(rec.id)!, { include: [], optionLabels: false, labels: false }));
      },
    },
    delete: {
      method: 'DELETE', path: `${spec.base}/{id}`, cost: cost.delete, scopes: spec.scopes.write,
      handler: (req, ctx) => {
        const rec = loadRecord(spec, ctx.state, req);
        const env = writeEnv(req, ctx);
        if (spec.remove) spec.remove(env, rec);
        else col(ctx).markDeleted(rec.id, { is_deleted: true, update_time: env.now } as unknown as Partial<T>, { userId: req.userId });
        return ok({ id: rec.id });
      },
    },
  };
  return which.map((w) => routes[w]!);
}
