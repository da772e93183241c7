import type { Context } from '../core/context.js';
import { HEALTH_TOOLS, isHealthTool } from '../health/mcp-tool-defs.js';
import { callTool, dataResult, errorResult as fail, type ToolResult } from './call-tool.js';
import { fieldsOf, RESOURCE_PREFIX } from './resources.js';
import { RECENT_RUNS, RUNS_TOOL } from './runs-tool.js';
import { allTools, offeredTools, refusal, type ToolDef, type ToolKind, type ToolPolicy } from './tools.js';

/**
 * The default tool list: three discovery tools that reach every operation of the tables (find one
 * by words or area, describe it with its JSON Schema, cost and scopes, call it) and a few curated
 * tools for the commonest reads and writes. Measured (docs/mcp.md): one tool per operation is 183
 * tools and about 36,000 tokens read-only, more than Cursor (40), Windsurf (50) or VS Code (128)
 * load; this list stays under 40 tools and 8,000 tokens in every policy (test/mcp/evaluation.test.ts), and a call through
 * call_operation goes through the same function (callTool) as a named tool, with the same refusals.
 */

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** The commonest reads, offered as named tools: search, then the records people ask about most. */
export const CURATED_READS = ['search_items', 'deals_list', 'deals_get', 'deals_search', 'leads_list', 'persons_search', 'persons_get', 'organizations_search', 'organizations_get', 'activities_list', 'users_find'];
/** With --allow-writes: the commonest changes (everything else through call_operation). */
export const CURATED_WRITES = ['deals_update', 'activities_create', 'notes_create'];

const AREA_ITEM: Record<string, string> = { deals: 'deal', persons: 'person', organizations: 'organization', products: 'product', activities: 'activity', leads: 'lead', notes: 'note', projects: 'project' };

const hints = (title: string, readOnly: boolean, destructive = false) => ({ title, readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: readOnly, openWorldHint: false });

export const META_TOOLS: ListedTool[] = [
  {
    name: 'find_operations',
    title: 'Find operations',
    description: 'Find the account\'s operations (every command of crmctl) by words and/or area. Returns name, kind (read, write, destructive), summary, cost and whether this server allows it. Then describe_operation for its arguments and call_operation to run it.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'words, e.g. "deal stage history" or "add participant"' },
        area: { type: 'string', description: 'an area, e.g. deals, persons, activities, filters' },
        kind: { type: 'string', enum: ['read', 'write', 'destructive'] },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'default 15' },
      },
      additionalProperties: false,
    },
    annotations: hints('Find operations', true),
  },
  {
    name: 'describe_operation',
    title: 'Describe an operation',
    description: 'An operation\'s JSON Schema for its arguments, method and path, cost, scopes, whether this server allows it, and the account resources (crmctl://account/...) that hold the ids it takes; for writes, the item type\'s custom fields (key, name, options; set them by key or name).',
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'operation name from find_operations, e.g. deals_update' } }, required: ['name'], additionalProperties: false },
    annotations: hints('Describe an operation', true),
  },
  {
    name: 'call_operation',
    title: 'Call an operation',
    description: 'Run any operation by name with its arguments (as describe_operation gives them). Same checks, pacing and refusals as a named tool: writes need a server started with --allow-writes; destructive calls (deletes, archives, deactivations, merges, emptied member lists) --allow-destructive too. Lists return one page.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        arguments: { type: 'object', description: 'the operation\'s arguments; custom fields by key or by name in custom_fields ({"Segment": "Enterprise"})' },
        names: { type: 'boolean', description: 'show custom fields in the result by name, options as labels' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    // It can run writes and deletes (when the server allows them): clients should confirm.
    annotations: { title: 'Call an operation', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
];

export const asListed = (t: ToolDef): ListedTool => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations });

/** What tools/list offers under a policy: the discovery list (default) or one tool per operation. */
export function listedTools(policy: ToolPolicy): ListedTool[] {
  if (policy.mode === 'operations') return offeredTools(policy).map(asListed);
  const byName = new Map(allTools().map((t) => [t.name, t]));
  const curated = [...CURATED_READS, ...(policy.allowWrites ? CURATED_WRITES : [])]
    .map((n) => byName.get(n) ?? fatal(`internal: curated MCP tool ${n} is not an operation of the tables`))
    .filter((t) => refusal(t, policy) === undefined);
  // Account health (src/health/mcp-tools.ts): read tools, listed under every policy.
  return [...META_TOOLS, ...curated.map(asListed), ...HEALTH_TOOLS, RUNS_TOOL];
}

function fatal(message: string): never {
  throw new Error(message);
}


function words(s: string): string[] {
  return s.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);
}

/** Crude stems: "deals" finds "deal", "activities" finds "activity". */
const stem = (w: string) => w.replace(/(ies)$/, 'y').replace(/(es|s)$/, '');

function find(args: Record<string, unknown>, policy: ToolPolicy): ToolResult {
  const limit = typeof args.limit === 'number' ? args.limit : 15;
  const q = typeof args.query === 'string' ? words(args.query).map(stem) : [];
  const area = typeof args.area === 'string' ? args.area.replace(/_/g, '-') : undefined;
  const kind = args.kind as ToolKind | undefined;
  const areas = new Set(allTools().map((t) => t.area));
  if (area && !areas.has(area)) return fail(`Invalid arguments: area: unknown area ${area}; areas: ${[...areas].sort().join(', ')}`);
  const scored = allTools()
    // A write that some arguments make destructive is found as either.
    .filter((t) => (!area || t.area === area) && (!kind || t.kind === kind || (kind === 'destructive' && t.destructiveWhen.length > 0)) && (!policy.areas || policy.areas.has(t.area)))
    .map((t) => {
      const hay = new Set([...words(t.name), ...words(t.op.cli.summary), ...words(t.area)].map(stem));
      const inName = new Set(words(t.name).map(stem));
      const score = q.reduce((n, w) => n + (inName.has(w) ? 2 : hay.has(w) ? 1 : 0), 0);
      return { t, score };
    })
    .filter((x) => !q.length || x.score > 0)
    .sort((a, b) => b.score - a.score || Number(a.t.name.endsWith('_v1')) - Number(b.t.name.endsWith('_v1')));
  const operations = scored.slice(0, limit).map(({ t }) => {
    const refused = refusal(t, policy);
    return { name: t.name, kind: t.kind, ...(t.destructiveWhen.length ? { destructive_when: t.destructiveWhen } : {}), summary: t.op.cli.summary, cost: t.op.cost ?? null, ...(refused ? { refused } : {}) };
  });
  return dataResult({ operations, count: operations.length, more: scored.length > limit });
}

/** Resource URIs holding the ids an operation's arguments take. */
function resourcesFor(t: ToolDef): string[] {
  const props = Object.keys((t.inputSchema.properties as Record<string, unknown> | undefined) ?? {});
  const out: string[] = [];
  if (props.some((p) => p === 'stage_id' || p === 'pipeline_id')) out.push('pipelines');
  if (props.some((p) => /(^|_)user_id$|^owner_id$/.test(p))) out.push('users');
  if (t.area === 'activities' && props.includes('type')) out.push('activity-types');
  const item = AREA_ITEM[t.area];
  if (item) out.push(`fields/${item}`);
  return out.map((p) => `${RESOURCE_PREFIX}${p}`);
}

async function describe(ctx: Context, args: Record<string, unknown>, policy: ToolPolicy): Promise<ToolResult> {
  const t = allTools().find((x) => x.name === args.name);
  if (!t) return fail(`Unknown operation ${String(args.name)}; find_operations lists them.`);
  const refused = refusal(t, policy) ?? (policy.areas && !policy.areas.has(t.area) ? `${t.name} is outside the areas this server offers (--areas)` : undefined);
  const answer: Record<string, unknown> = {
    name: t.name,
    kind: t.kind,
    ...(t.destructiveWhen.length ? { destructive_when: t.destructiveWhen } : {}),
    description: t.description,
    method: t.op.method,
    path: t.op.path,
    cost: t.op.cost ?? null,
    scopes: t.op.scopes,
    allowed: !refused,
    ...(refused ? { refused } : {}),
    input_schema: t.inputSchema,
    account_resources: resourcesFor(t),
  };
  const item = AREA_ITEM[t.area];
  // Writes take custom fields by key: the item type's custom fields, so no extra read is needed.
  if (item && t.kind !== 'read' && t.op.body) {
    try {
      answer.custom_fields = (await fieldsOf(ctx, item)).filter((f) => f.custom);
    } catch (err) {
      answer.custom_fields_unavailable = err instanceof Error ? err.message : String(err);
    }
  }
  return dataResult(answer);
}

/** The discovery tools' calls; undefined for any other name. */
export async function callMetaTool(ctx: Context, name: string, args: Record<string, unknown>, policy: ToolPolicy): Promise<ToolResult | undefined> {
  if (name === RECENT_RUNS) return (await import('./runs-tool.js')).callRunsTool(ctx, args);
  if (isHealthTool(name)) return (await import('../health/mcp-tools.js')).callHealthTool(ctx, name, args);
  if (name === 'find_operations') return find(args, policy);
  if (name === 'describe_operation') return describe(ctx, args, policy);
  if (name === 'call_operation') {
    const t = allTools().find((x) => x.name === args.name);
    if (!t) return fail(`Unknown operation ${String(args.name)}; find_operations lists them.`);
    const inner = args.arguments ?? {};
    if (!inner || typeof inner !== 'object' || Array.isArray(inner)) return fail('Invalid arguments, nothing was sent:\narguments: must be an object');
    if (args.names !== undefined && typeof args.names !== 'boolean') return fail('Invalid arguments, nothing was sent:\nnames: must be true or false');
    // The same function as a named tool: policy, entry, governor, redaction.
    return callTool(ctx, t, inner as Record<string, unknown>, policy, { names: args.names === true });
  }
  return undefined;
}
