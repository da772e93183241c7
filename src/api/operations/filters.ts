import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { id } from '../schemas.js';
import { createRow, deleteRow, getRow, updateRow } from './rows.js';

/** Fields of a filter record. */
const FILTER_FIELDS = [
  'id', 'name', 'filter_code', 'is_editable', 'active_flag', 'type', 'temporary_flag', 'user_id', 'add_time', 'update_time',
  'visible_to', 'last_used_time', 'custom_view_id', 'conditions',
];

export const FILTER_TYPES = ['deals', 'leads', 'org', 'people', 'products', 'activity', 'projects'] as const;
export const FILTER_OPERATORS = ['IS NOT NULL', 'IS NULL', '<=', '>=', '<', '>', '!=', '=', "LIKE '$%'", "LIKE '%$%'", "NOT LIKE '$%'"] as const;
export const FILTER_OBJECTS = ['person', 'deal', 'organization', 'product', 'activity'] as const;
/** A filter holds at most 16 conditions (interface, Limits). */
export const MAX_FILTER_CONDITIONS = 16;

/**
 * A condition as the service takes it (object, field_id, operator, value, extra_value: the vendor's
 * request schema). `filters get` answers each with `json_value_flag` (and `field_code` with
 * include_field_code): the service sets them, so they are accepted here, so that get → edit → update
 * round-trips, and left out of what is sent.
 */
const condition = once(() => z.pipe(z
  .object({
    object: z.enum(FILTER_OBJECTS),
    field_id: z.union([z.int().check(z.gte(1)), z.string().check(z.minLength(1))]),
    operator: z.enum(FILTER_OPERATORS),
    value: z.optional(z.unknown()),
    extra_value: z.optional(z.unknown()),
    json_value_flag: z.optional(z.boolean()).check(z.describe('read-only (as filters get returns it); not sent')),
    field_code: z.optional(z.nullable(z.string())).check(z.describe('read-only (as filters get returns it); not sent')),
  }), z.transform(({ json_value_flag: _flag, field_code: _code, ...sent }) => sent)));
const glue = once(() => z.enum(['and', 'or']));
/** {"glue":"and","conditions":[{"glue":"and","conditions":[CONDITION...]},{"glue":"or","conditions":[...]}]} (the vendor's form). */
const conditions = once(() => z.object({ glue: glue(), conditions: z.array(z.object({ glue: glue(), conditions: z.array(condition()) })).check(z.minLength(1)) }).check(z.superRefine((c, ctx) => {
  const n = c.conditions.reduce((sum, g) => sum + g.conditions.length, 0);
  if (n > MAX_FILTER_CONDITIONS) ctx.addIssue({ code: 'custom', path: [], message: `has ${n} conditions; a filter may have at most ${MAX_FILTER_CONDITIONS}` });
})));
const FILTER_HELP = {
  conditions: 'JSON {"glue":"and","conditions":[{"glue":"and","conditions":[{"object":"deal","field_id":1,"operator":">","value":10000}]}]} (at most 16 conditions), @file or -, or the conditions by name with --where; json_value_flag and field_code as filters get returns them are accepted and not sent (the service sets them)',
  type: 'the item type the filter is for',
};
/** Conditions by field name (src/names/conditions.ts turns them into `conditions` at the entry, for every door). */
const byName = once(() => ({
  where: z.optional(z.array(z.string())).check(z.describe('conditions by field name, all of which must hold: NAME OP VALUE, e.g. "Budget > 1000", "Stage = Qualified" (instead of conditions)')),
  or_where: z.optional(z.array(z.string())).check(z.describe('conditions by field name of which at least one must hold (same form as where)')),
}));

export const filterOps = defineTable('filters', {
  list: {
    method: 'GET',
    path: '/api/v1/filters',
    cost: 20,
    scopes: ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'],
    pagination: 'none',
    query: () => z.object({ type: z.optional(z.enum(['deals', 'leads', 'org', 'people', 'products', 'activity', 'projects'])) }),
    cli: {
      command: ['filters', 'list'],
      summary: 'List saved filters, optionally of one item type',
      examples: ['crmctl filters list'],
      columns: ['id', 'name', 'type', 'user_id', 'active_flag'],
      fields: ['id', 'name', 'filter_code', 'is_editable', 'active_flag', 'type', 'temporary_flag', 'user_id', 'add_time', 'update_time', 'visible_to', 'last_used_time', 'custom_view_id'],
    },
  },
  get: getRow('/api/v1/filters/{id}', 2, ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'], {
    command: ['filters', 'get'],
    summary: 'Show one filter with its conditions',
    examples: ['crmctl filters get 1'],
    columns: ['id', 'name', 'type', 'user_id', 'add_time', 'update_time'],
    fields: FILTER_FIELDS,
  }, { query: () => z.object({ include_field_code: z.optional(z.boolean()) }) }),
  create: createRow('/api/v1/filters', 10, ['deals:full', 'activities:full', 'contacts:full'], () =>
    z
      .object({ name: z.string().check(z.trim()).check(z.minLength(1)), conditions: z.optional(conditions()), type: z.enum(FILTER_TYPES), ...byName() }).check(z.superRefine((b, ctx) => {
        // Conditions by name stand for them until the entry translates them (a file checked before anything is read).
        if (b.conditions === undefined && b.where === undefined && b.or_where === undefined) ctx.addIssue({ code: 'custom', path: ['conditions'], message: 'is required (or give the conditions by name with where)' });
      })), {
    help: FILTER_HELP,
    command: ['filters', 'create'],
    summary: 'Create a filter (at most 16 conditions)',
    examples: ['crmctl filters create --name "Big open deals" --type deals --conditions @conditions.json'],
    columns: ['id', 'name', 'type', 'user_id', 'add_time', 'update_time'],
    fields: FILTER_FIELDS,
  }, { query: () => z.object({ include_field_code: z.optional(z.boolean()) }) }),
  update: updateRow('PUT', '/api/v1/filters/{id}', 10, ['deals:full', 'activities:full', 'contacts:full'], {
    help: FILTER_HELP,
    command: ['filters', 'update'],
    summary: 'Change a filter\'s name or conditions',
    examples: ['crmctl filters update 1 --name "Bigger open deals"'],
    columns: ['id', 'name', 'type', 'user_id', 'add_time', 'update_time'],
    fields: FILTER_FIELDS,
  }, {
    query: () => z.object({ include_field_code: z.optional(z.boolean()) }),
    body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), conditions: z.optional(conditions()), ...byName() }),
  }),
  delete: deleteRow('/api/v1/filters/{id}', 6, ['deals:full', 'activities:full', 'contacts:full'], {
    command: ['filters', 'delete'],
    summary: 'Delete a filter',
    examples: ['crmctl filters delete 1'],
  }),
  deleteMany: {
    method: 'DELETE',
    path: '/api/v1/filters',
    cost: 10,
    scopes: ['deals:full', 'activities:full', 'contacts:full'],
    pagination: 'none',
    query: () => z.object({ ids: z.array(id()) }),
    cli: {
      command: ['filters', 'delete-many'],
      summary: 'Delete several filters at once',
      examples: ['crmctl filters delete-many --ids 3,4 --yes'],
      columns: ['id'],
      fields: ['id'],
      confirm: true,
    },
  },
  helpers: {
    method: 'GET',
    path: '/api/v1/filters/helpers',
    cost: 20,
    scopes: ['deals:read', 'deals:full', 'activities:read', 'activities:full', 'contacts:read', 'contacts:full'],
    pagination: 'none',
    cli: {
      command: ['filters', 'helpers'],
      summary: 'Show what conditions a filter can use (operators, date ranges, field types)',
      examples: ['crmctl filters helpers'],
    },
  },
} satisfies OperationTable);
