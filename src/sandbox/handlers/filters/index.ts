// Area module: filters (v1). Saved filters hold the vendor's condition tree; the lists that take
// filter_id evaluate them (../filter-eval.ts). The service accepts one AND group of at most two groups
// (the first glued AND, the second OR) and at most 16 conditions in all; each condition names a field
// of the filter's item type by id. helpers lists the operators and the shapes.
import { ok } from '../../http/envelope.js';
import { ApiError, invalid, notFound } from '../../http/errors.js';
import { offsetPage } from '../../http/paginate.js';
import { objectBody, rejectUnknown } from '../../http/validate.js';
import type { Filter, FilterCondition } from '../../store/records.js';
import type { SandboxState } from '../../store/state.js';
import type { AreaModule, HandlerContext, SandboxRequest } from '../../types.js';
import { fieldStore } from '../../engine/fields/store.js';
import { v1Time } from '../../engine/time.js';
import { conditionKey, FILTER_ENTITY } from '../../engine/filter-eval.js';

const READ = ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'];
const WRITE = ['deals:full', 'activities:full', 'contacts:full'];
const TYPES = ['deals', 'leads', 'org', 'people', 'products', 'activity', 'projects'] as const;
/** The operators the vendor's documents list (LIKE patterns in single quotes). */
export const OPERATORS = ['=', '!=', '<', '>', '<=', '>=', 'IS NULL', 'IS NOT NULL', "LIKE '$%'", "LIKE '%$%'", "NOT LIKE '$%'"];
const MAX_CONDITIONS = 16;
const OBJECTS: Record<Filter['type'], string[]> = {
  deals: ['deal', 'person', 'organization', 'product', 'activity'], leads: ['lead', 'person', 'organization'], org: ['organization', 'person', 'deal'],
  people: ['person', 'organization', 'deal'], products: ['product'], activity: ['activity', 'deal', 'person', 'organization'], projects: ['project'],
};

function checkConditions(state: SandboxState, type: Filter['type'], raw: unknown): Filter['conditions'] {
  const top = raw as Record<string, unknown>;
  if (!top || typeof top !== 'object' || Array.isArray(top)) throw invalid('conditions', 'must be an object {glue, conditions}');
  if (top.glue !== 'and') throw invalid('conditions.glue', 'must be "and"');
  const groups = top.conditions;
  if (!Array.isArray(groups) || groups.length < 1 || groups.length > 2) throw invalid('conditions.conditions', 'must hold one or two condition groups');
  let total = 0;
  const out: Filter['conditions']['conditions'] = groups.map((g, gi) => {
    const where = `conditions.conditions[${gi}]`;
    const group = g as Record<string, unknown>;
    if (!group || typeof group !== 'object') throw invalid(where, 'must be an object {glue, conditions}');
    // The first group is glued AND, the second OR (the vendor's documents).
    const glue = gi === 0 ? 'and' : 'or';
    if (group.glue !== glue) throw invalid(`${where}.glue`, `must be "${glue}" for group ${gi + 1}`);
    if (!Array.isArray(group.conditions)) throw invalid(`${where}.conditions`, 'must be a list of conditions');
    return {
      glue,
      conditions: group.conditions.map((c, ci) => {
        total++;
        const w = `${where}.conditions[${ci}]`;
        const x = c as Record<string, unknown>;
        if (!x || typeof x !== 'object') throw invalid(w, 'must be a condition object');
        for (const k of Object.keys(x)) if (!['object', 'field_id', 'field_code', 'operator', 'value', 'extra_value', 'json_value_flag'].includes(k)) throw invalid(`${w}.${k}`, 'is not a known member of a condition');
        if (typeof x.object !== 'string' || !OBJECTS[type].includes(x.object)) throw invalid(`${w}.object`, `must be one of ${OBJECTS[type].join(', ')} for a ${type} filter`);
        if (typeof x.operator !== 'string' || !OPERATORS.includes(x.operator)) throw invalid(`${w}.operator`, `must be one of ${OPERATORS.join(', ')}`);
        const cond: FilterCondition = {
          object: x.object, field_id: x.field_id === undefined || x.field_id === null ? null : String(x.field_id), field_code: typeof x.field_code === 'string' ? x.field_code : null,
          operator: x.operator, value: x.value === undefined || x.value === null ? null : String(x.value),
          extra_value: x.extra_value === undefined || x.extra_value === null ? null : String(x.extra_value), json_value_flag: x.json_value_flag === true,
        };
        if (cond.field_id === null && !cond.field_code) throw invalid(`${w}.field_id`, 'is required');
        if (x.object === objectOf(type) && conditionKey(state, type, cond) === undefined && FILTER_ENTITY[type]) throw invalid(`${w}.field_id`, `${cond.field_id} is not a field of ${x.object}s`);
        if (!cond.operator.includes('NULL') && cond.value === null) throw invalid(`${w}.value`, `is required with operator ${cond.operator}`);
        return cond;
      }),
    };
  });
  if (total > MAX_CONDITIONS) throw invalid('conditions', `has ${total} conditions; a filter may have at most ${MAX_CONDITIONS}`);
  return { glue: 'and', conditions: out };
}

const objectOf = (type: Filter['type']) => ({ deals: 'deal', leads: 'lead', org: 'organization', people: 'person', products: 'product', activity: 'activity', projects: 'project' })[type];

export function presentFilter(state: SandboxState, f: Filter, withCode: boolean) {
  const entity = FILTER_ENTITY[f.type];
  const conditions = {
    glue: 'and',
    conditions: f.conditions.conditions.map((g) => ({
      glue: g.glue,
      conditions: g.conditions.map((c) => {
        const id = c.field_id ?? (entity && c.field_code ? String(fieldStore(state, entity).find((x) => x.field_code === c.field_code)?.id ?? '') || null : null);
        const out: Record<string, unknown> = { object: c.object, field_id: id, operator: c.operator, value: c.value, extra_value: c.extra_value, json_value_flag: c.json_value_flag };
        if (withCode) out.field_code = conditionKey(state, f.type, c) ?? null;
        return out;
      }),
    })),
  };
  return {
    id: f.id, name: f.name, filter_code: null, is_editable: true, active_flag: f.active_flag, type: f.type, temporary_flag: null, user_id: f.user_id,
    add_time: v1Time(f.add_time), update_time: v1Time(f.update_time), visible_to: String(f.visible_to ?? 1), last_used_time: null, custom_view_id: null,
    conditions,
  };
}

function loadFilter(req: SandboxRequest, ctx: HandlerContext): Filter {
  const raw = req.params.id!;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid('id', 'must be a positive integer');
  const f = ctx.state.filters.get(Number(raw));
  if (!f) throw notFound('Filter not found');
  return f;
}

function create(req: SandboxRequest, ctx: HandlerContext) {
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'conditions', 'type']);
  if (typeof b.name !== 'string' || !b.name.trim()) throw invalid('name', 'is required');
  if (!TYPES.includes(b.type as never)) throw invalid('type', `must be one of ${TYPES.join(', ')}`);
  if (b.conditions === undefined) throw invalid('conditions', 'is required');
  const type = b.type as Filter['type'];
  const now = ctx.now().toISOString();
  const f = ctx.state.filters.insert({ name: b.name, type, user_id: req.userId, active_flag: true, conditions: checkConditions(ctx.state, type, b.conditions), visible_to: 1, add_time: now, update_time: now }, { userId: req.userId });
  return ok(presentFilter(ctx.state, f, req.query.bool('include_field_code') ?? false));
}

function update(req: SandboxRequest, ctx: HandlerContext) {
  const f = loadFilter(req, ctx);
  const b = objectBody(req.body);
  rejectUnknown(b, ['name', 'conditions']);
  if (b.conditions === undefined) throw invalid('conditions', 'is required');
  if (b.name !== undefined && (typeof b.name !== 'string' || !b.name.trim())) throw invalid('name', 'must be a non-empty string');
  const patch: Partial<Filter> = { conditions: checkConditions(ctx.state, f.type, b.conditions), update_time: ctx.now().toISOString() };
  if (typeof b.name === 'string') patch.name = b.name;
  return ok(presentFilter(ctx.state, ctx.state.filters.update(f.id, patch, { userId: req.userId })!, req.query.bool('include_field_code') ?? false));
}

function deleteMany(req: SandboxRequest, ctx: HandlerContext) {
  const ids = req.query.list('ids');
  if (!ids?.length) throw invalid('ids', 'is required (comma-separated filter ids)');
  for (const i of ids) if (!/^\d+$/.test(i)) throw invalid('ids', `${i} is not a filter id`);
  const found = ids.map(Number).filter((id) => ctx.state.filters.get(id));
  if (found.length !== ids.length) throw new ApiError(404, `Filters not found: ${ids.filter((i) => !found.includes(Number(i))).join(', ')}`, 'Object was not found.');
  for (const id of found) ctx.state.filters.remove(id);
  return ok({ id: found });
}

function helpers(_req: SandboxRequest, ctx: HandlerContext) {
  const ops = (kind: string) => (kind === 'text' ? ['=', '!=', 'IS NULL', 'IS NOT NULL', "LIKE '$%'", "LIKE '%$%'", "NOT LIKE '$%'"] : ['=', '!=', '<', '>', '<=', '>=', 'IS NULL', 'IS NOT NULL']);
  return ok({
    operators: { text: ops('text'), number: ops('number'), date: ops('number'), enum: ['=', '!=', 'IS NULL', 'IS NOT NULL'] },
    deprecated_operators: {},
    relative_dates: { dates: ['today', 'yesterday', 'tomorrow', 'this_week', 'last_week', 'next_week', 'this_month', 'last_month', 'next_month', 'this_quarter', 'this_year'] },
    address_field_components: ['value', 'country', 'admin_area_level_1', 'admin_area_level_2', 'locality', 'sublocality', 'route', 'street_number', 'postal_code'],
    limits: { max_conditions: MAX_CONDITIONS, groups: [{ glue: 'and' }, { glue: 'or' }] },
    types: TYPES, company_id: ctx.state.company.id,
  });
}

export const filtersArea: AreaModule = {
  name: 'filters',
  routes: [
    { method: 'GET', path: '/api/v1/filters/helpers', cost: 20, scopes: READ, handler: helpers },
    { method: 'GET', path: '/api/v1/filters', cost: 20, scopes: READ, handler: (req, ctx) => {
      const type = req.query.oneOf('type', TYPES);
      const rows = ctx.state.filters.filter((f) => !type || f.type === type).sort((a, b) => a.id - b.id);
      const page = offsetPage(rows.map((f) => presentFilter(ctx.state, f, false)), req.query);
      return ok(page.data, page.additional_data);
    } },
    { method: 'GET', path: '/api/v1/filters/{id}', cost: 2, scopes: READ, handler: (req, ctx) => ok(presentFilter(ctx.state, loadFilter(req, ctx), req.query.bool('include_field_code') ?? false)) },
    { method: 'POST', path: '/api/v1/filters', cost: 10, scopes: WRITE, handler: create },
    { method: 'PUT', path: '/api/v1/filters/{id}', cost: 10, scopes: WRITE, handler: update },
    { method: 'DELETE', path: '/api/v1/filters/{id}', cost: 6, scopes: WRITE, handler: (req, ctx) => { const f = loadFilter(req, ctx); ctx.state.filters.remove(f.id); return ok({ id: f.id }); } },
    { method: 'DELETE', path: '/api/v1/filters', cost: 10, scopes: WRITE, handler: deleteMany },
  ],
};
