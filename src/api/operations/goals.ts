import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { id, isoDate } from '../schemas.js';
import { createRow, deleteRow, getRow, updateRow } from './rows.js';

// Goals (v1). Query filters use the service's dotted names (type.name, assignee.id, period.start...).
export const GOAL_TYPES = ['deals_won', 'deals_progressed', 'activities_completed', 'activities_added', 'deals_started', 'revenue_forecast'] as const;
/** The interface lists these five for the find filter (no revenue_forecast). */
export const FIND_GOAL_TYPES = ['deals_won', 'deals_progressed', 'activities_completed', 'activities_added', 'deals_started'] as const;
const ACTIVITY_TYPES = ['activities_completed', 'activities_added'];
export const ASSIGNEE_TYPES = ['person', 'company', 'team'] as const;
export const METRICS = ['quantity', 'sum'] as const;
export const INTERVALS = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;

const READ = ['goals:read', 'goals:full'];
const WRITE = ['goals:full'];
export const GOAL_FIELDS = ['id', 'owner_id', 'title', 'type', 'assignee', 'interval', 'duration', 'expected_outcome', 'is_active', 'report_ids'];
const COLUMNS = ['id', 'title', 'type.name', 'assignee.type', 'assignee.id', 'expected_outcome.target', 'expected_outcome.tracking_metric', 'interval', 'duration.start', 'duration.end'];

/** Goal ids are hex strings (the vendor's documents). */
const goalId = once(() => z.string().check(z.regex(/^[0-9a-f]+$/i, { error: 'must be a goal id (a hex string, see crmctl goals find)' })));
const idList = once(() => z.array(id()).check(z.minLength(1)));
const goalParams = () => z.object({ id: goalId() });

/** Friendly flags for the dotted field paths, shared by find, create, update and results. */
const FLAGS: Record<string, string> = {
  'type.params.pipeline_id': 'pipeline-ids',
  'type.params.stage_id': 'stage-id',
  'type.params.activity_type_id': 'activity-type-ids',
  'expected_outcome.target': 'target',
  'expected_outcome.tracking_metric': 'metric',
  'expected_outcome.currency_id': 'currency-id',
  'duration.start': 'start',
  'duration.end': 'end',
  'period.start': 'start',
  'period.end': 'end',
};
const HELP: Record<string, string> = {
  'assignee.id': 'user id (person), company id (company) or team id (team)',
  'assignee.type': 'who the goal is for',
  'type.name': 'what is tracked',
  'type.params.pipeline_id': 'only deals of these pipelines (default: all; --all-pipelines sends null)',
  'type.params.stage_id': 'the stage deals must enter; only for deals_progressed (required there)',
  'type.params.activity_type_id': 'only these activity types; only for activities_* (default: all; --all-activity-types sends null)',
  'expected_outcome.target': 'the number to reach (count, or amount for sum)',
  'expected_outcome.tracking_metric': 'count (quantity) or add up deal values (sum)',
  'expected_outcome.currency_id': 'currency of a sum goal; only with --metric sum',
  'duration.start': 'first day YYYY-MM-DD',
  'duration.end': 'last day YYYY-MM-DD (default: open-ended; --open-ended sends null)',
  interval: 'how progress is bucketed',
  title: 'goal name (default: the type, e.g. "Deals won")',
};

type GoalBody = {
  type?: { name?: string; params?: { pipeline_id?: number[] | null; stage_id?: number; activity_type_id?: number[] | null } };
  expected_outcome?: { tracking_metric?: string; currency_id?: number };
  duration?: { start?: string; end?: string | null };
};

/** Cross-field rules of the Goal table; on an update only the fields sent can be checked (the service checks the merged goal). */
function goalRules(create: boolean) {
  return (b: GoalBody, ctx: z.core.$RefinementCtx) => {
    const name = b.type?.name;
    const params = b.type?.params ?? {};
    if (name !== undefined && params.stage_id !== undefined && name !== 'deals_progressed') {
      ctx.addIssue({ code: 'custom', path: ['type', 'params', 'stage_id'], message: 'is only for --type-name deals_progressed' });
    }
    if (create && name === 'deals_progressed' && params.stage_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['type', 'params', 'stage_id'], message: 'is required for --type-name deals_progressed (the stage deals must enter)' });
    }
    if (name !== undefined && params.activity_type_id != null && !ACTIVITY_TYPES.includes(name)) {
      ctx.addIssue({ code: 'custom', path: ['type', 'params', 'activity_type_id'], message: 'is only for --type-name activities_completed or activities_added' });
    }
    const metric = b.expected_outcome?.tracking_metric;
    if (b.expected_outcome?.currency_id !== undefined && (create || metric !== undefined) && metric !== 'sum') {
      ctx.addIssue({ code: 'custom', path: ['expected_outcome', 'currency_id'], message: 'is only for --metric sum' });
    }
    if (metric === 'sum' && name !== undefined && ACTIVITY_TYPES.includes(name)) {
      ctx.addIssue({ code: 'custom', path: ['expected_outcome', 'tracking_metric'], message: 'must be quantity for activity goals (activities are counted)' });
    }
    const { start, end } = b.duration ?? {};
    if (start && end && end < start) ctx.addIssue({ code: 'custom', path: ['duration', 'end'], message: `must not be before --start ${start}` });
  };
}

const params = once(() => z.object({ pipeline_id: z.optional(z.nullable(idList())), stage_id: z.optional(id()), activity_type_id: z.optional(z.nullable(idList())) }));

const createBody = once(() => z
  .object({
    title: z.optional(z.string().check(z.trim()).check(z.minLength(1))),
    assignee: z.object({ id: id(), type: z.enum(ASSIGNEE_TYPES) }),
    type: z.object({ name: z.enum(GOAL_TYPES), params: z.optional(params()) }),
    expected_outcome: z.object({ target: z.number().check(z.positive()), tracking_metric: z.enum(METRICS), currency_id: z.optional(id()) }),
    duration: z.object({ start: isoDate(), end: z.optional(z.nullable(isoDate())) }),
    interval: z.enum(INTERVALS),
  }).check(z.superRefine(goalRules(true))));

const updateBody = once(() => z
  .object({
    title: z.optional(z.string().check(z.trim()).check(z.minLength(1))),
    assignee: z.optional(z.object({ id: z.optional(id()), type: z.optional(z.enum(ASSIGNEE_TYPES)) })),
    type: z.optional(z.object({ name: z.optional(z.enum(GOAL_TYPES)), params: z.optional(params()) })),
    expected_outcome: z.optional(z.object({ target: z.optional(z.number().check(z.positive())), tracking_metric: z.optional(z.enum(METRICS)), currency_id: z.optional(id()) })),
    duration: z.optional(z.object({ start: z.optional(isoDate()), end: z.optional(z.nullable(isoDate())) })),
    interval: z.optional(z.enum(INTERVALS)),
  }).check(z.superRefine(goalRules(false))));

const period = (required: boolean) => ({
  'period.start': required ? isoDate() : z.optional(isoDate()),
  'period.end': required ? isoDate() : z.optional(isoDate()),
});

type FindQuery = Record<string, unknown>;
const findQuery = once(() => z.catchall(z
  .object({
    'type.name': z.optional(z.enum(FIND_GOAL_TYPES)),
    title: z.optional(z.string().check(z.minLength(1))),
    is_active: z.optional(z.boolean()),
    'assignee.id': z.optional(id()),
    'assignee.type': z.optional(z.enum(ASSIGNEE_TYPES)),
    'expected_outcome.target': z.optional(z.number().check(z.positive())),
    'expected_outcome.tracking_metric': z.optional(z.enum(METRICS)),
    'expected_outcome.currency_id': z.optional(id()),
    'type.params.pipeline_id': z.optional(z.nullable(idList())),
    'type.params.stage_id': z.optional(id()),
    'type.params.activity_type_id': z.optional(z.nullable(idList())),
    ...period(false),
  }), z.string()).check(z.superRefine((q: FindQuery, ctx) => {
    if ((q['period.start'] === undefined) !== (q['period.end'] === undefined)) {
      const missing = q['period.start'] === undefined ? 'period.start' : 'period.end';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'must be given together with the other end of the period (--start and --end)' });
    }
    if (typeof q['period.start'] === 'string' && typeof q['period.end'] === 'string' && q['period.end'] < q['period.start']) {
      ctx.addIssue({ code: 'custom', path: ['period.end'], message: 'must not be before --start' });
    }
    if (q['expected_outcome.currency_id'] !== undefined && q['expected_outcome.tracking_metric'] !== 'sum') {
      ctx.addIssue({ code: 'custom', path: ['expected_outcome.currency_id'], message: 'is only for --metric sum' });
    }
    if (q['type.params.stage_id'] !== undefined && q['type.name'] !== 'deals_progressed') {
      ctx.addIssue({ code: 'custom', path: ['type.params.stage_id'], message: 'is only for --type-name deals_progressed' });
    }
    if (q['type.params.activity_type_id'] != null && !ACTIVITY_TYPES.includes(String(q['type.name']))) {
      ctx.addIssue({ code: 'custom', path: ['type.params.activity_type_id'], message: 'is only for --type-name activities_completed or activities_added' });
    }
  })));

const resultsQuery = once(() => z.object(period(true)).check(z.superRefine((q: FindQuery, ctx) => {
  if (String(q['period.end']) < String(q['period.start'])) ctx.addIssue({ code: 'custom', path: ['period.end'], message: 'must not be before --start' });
})));

export const goalOps = defineTable('goals', {
  find: getRow('/api/v1/goals/find', 20, READ, {
    command: ['goals', 'find'],
    summary: "Find goals (yours by default; everyone's when filtering by type, assignee type, outcome or params)",
    description: 'Without --assignee-id only your own goals are returned. --type-name, --assignee-type, --target, --metric, --currency-id and the params filters return matching goals of everyone. --start and --end (a period the goal overlaps) go together. --where matches any other goal field.',
    examples: ['crmctl goals find --type-name deals_won --metric sum', 'crmctl goals find --assignee-id 2 --start 2025-01-01 --end 2025-03-31', 'crmctl goals find --assignee-type company --where interval=quarterly'],
    unwrap: 'goals',
    columns: [...COLUMNS, 'is_active'],
    fields: GOAL_FIELDS,
    flagNames: FLAGS,
    help: { ...HELP, is_active: 'active goals (default true)', title: 'goal title contains this text', 'period.start': 'period start YYYY-MM-DD (with --end)', 'period.end': 'period end YYYY-MM-DD (with --start)', 'type.params.pipeline_id': 'goals tracking any of these pipelines (--all-pipelines: goals over all pipelines)', 'type.params.activity_type_id': 'goals tracking any of these activity types; needs an activities_* --type-name' },
  }, { query: () => findQuery() }),
  create: createRow('/api/v1/goals', 10, WRITE, () => createBody(), {
    prompts: { 'type.params.stage_id': { from: 'stages.list' }, 'type.params.pipeline_id': { from: 'pipelines.list' }, 'type.params.activity_type_id': { from: 'activityTypes.list' }, 'expected_outcome.currency_id': { from: 'currencies.list', label: '{code} {name}' } },
    command: ['goals', 'create'],
    summary: 'Create a goal (and its progress report)',
    examples: [
      'crmctl goals create --title "Q3 revenue" --assignee-type company --assignee-id 1 --type-name deals_won --metric sum --currency-id 1 --target 50000 --start 2025-07-01 --end 2025-09-30 --interval monthly',
      'crmctl goals create --assignee-type person --assignee-id 2 --type-name activities_completed --activity-type-ids 1,2 --metric quantity --target 40 --start 2025-01-01 --interval weekly',
    ],
    unwrap: 'goal',
    columns: [...COLUMNS, 'report_ids'],
    fields: GOAL_FIELDS,
    flagNames: FLAGS,
    help: HELP,
  }),
  update: updateRow('PUT', '/api/v1/goals/{id}', 10, WRITE, {
    command: ['goals', 'update'],
    summary: 'Change a goal: only the fields you give change; the result must still be a valid goal',
    examples: ['crmctl goals update <goal-id> --target 60000 --end 2025-12-31', 'crmctl goals update <goal-id> --open-ended --all-pipelines'],
    unwrap: 'goal',
    columns: COLUMNS,
    fields: GOAL_FIELDS,
    flagNames: FLAGS,
    help: HELP,
  }, { params: goalParams, body: () => updateBody() }),
  delete: deleteRow('/api/v1/goals/{id}', 6, WRITE, { command: ['goals', 'delete'], summary: 'Delete a goal', examples: ['crmctl goals delete <goal-id> --yes'], columns: ['id'] }, { params: goalParams }),
  results: getRow('/api/v1/goals/{id}/results', 20, READ, {
    command: ['goals', 'results'],
    summary: "Show a goal's progress over a period inside its duration",
    examples: ['crmctl goals results <goal-id> --start 2025-01-01 --end 2025-03-31'],
    columns: ['progress', 'goal.expected_outcome.target', 'goal.expected_outcome.tracking_metric', 'goal.title', 'goal.type.name'],
    fields: ['progress', 'goal'],
    flagNames: FLAGS,
    help: { 'period.start': 'first day YYYY-MM-DD, not before the goal starts', 'period.end': 'last day YYYY-MM-DD, not after the goal ends' },
  }, { params: goalParams, query: () => resultsQuery() }),
} satisfies OperationTable);
