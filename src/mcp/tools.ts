import { callEffect, destructiveWhen, mayDestroy, operationEffect } from '../api/effect.js';
import { isIdempotent, isRead, pathParamNames, type Effect, type Operation } from '../api/operation.js';
import { ALL_OPERATIONS } from '../api/operations/index.js';
import { fieldsOf } from '../input/fields.js';
import { jsonSchemaOf, type JsonSchema } from '../input/json-schema.js';

/**
 * MCP tools derived from the operation tables: one tool per operation, each with its exact schema
 * and hints. They are listed one per operation only in the `operations` mode (--areas, --all-tools);
 * the default lists the discovery tools of discovery.ts, which reach these same ToolDefs. Grouping
 * per area was measured and rejected: a group mixes reads with deletes, and readOnlyHint /
 * destructiveHint are per tool.
 */

/** The operation's class by effect (src/api/effect.ts), not by HTTP method. */
export type ToolKind = Effect;

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  op: Operation;
  kind: ToolKind;
  /** What makes a call of this write destructive (its argument rules); [] when no argument decides. */
  destructiveWhen: string[];
  /** The command's area (`deals`, `organization-fields`), what `--areas` selects. */
  area: string;
  /** Where each argument goes in the request. */
  placement: Record<string, 'params' | 'query' | 'body' | 'fields' | 'names'>;
  /** The body is one argument `body` (it is not an object, or its keys clash with path/query names). */
  bodyNested: boolean;
  /** Argument that selects record fields, when the records have a known field list. */
  fieldsArg?: string;
}

/** Records a list returns per call when the caller gives no limit: enough to work with, small enough for a context window. */
export const DEFAULT_PAGE = 50;

/** `deals_products_add`, `persons_followers_list_v1`: the command path, as MCP names allow. */
export function toolName(op: Operation): string {
  const base = op.cli.command.join('_').replace(/-/g, '_');
  return op.cli.switch ? `${base}_${op.cli.switch.replace(/^--/, '').replace(/-/g, '_')}` : base;
}

function describe(op: Operation, kind: ToolKind): string {
  const parts = [`${op.cli.summary.replace(/\.$/, '')}.`];
  if (op.pagination !== 'none') {
    parts.push(`Returns one page (default ${DEFAULT_PAGE} records); pass the returned ${op.pagination === 'cursor' ? 'next_cursor as cursor' : 'next_start as start'} for the next.`);
  }
  if (kind === 'destructive') parts.push('Destructive (needs --allow-destructive).');
  const when = destructiveWhen(op);
  if (when.length) parts.push(`Destructive (needs --allow-destructive) when: ${when.join('; ')}.`);
  if (op.beta) parts.push('Beta in the service.');
  parts.push(`${op.method} ${op.path}; cost ${op.cost ?? 'not stated'}; scopes: ${op.scopes.join(' or ') || 'none'}.`);
  return parts.join(' ');
}

/** zod writes the safe-integer bounds on every integer; they say nothing to a model and cost a tenth of the list. */
function compact(js: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(js)) {
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? compact(x as JsonSchema) : x)) : v && typeof v === 'object' ? compactMap(k, v as Record<string, unknown>) : v;
  }
  return out;
}

function compactMap(key: string, v: Record<string, unknown>): unknown {
  // `properties` maps names to schemas; anything else object-valued is a schema itself.
  return key === 'properties' ? Object.fromEntries(Object.entries(v).map(([n, x]) => [n, compact(x as JsonSchema)])) : compact(v as JsonSchema);
}

function propertiesOf(js: JsonSchema): Record<string, JsonSchema> {
  return js.type === 'object' && js.properties ? js.properties : {};
}

/** The tool's JSON Schema: path parameters, query fields and body fields as the service names them. */
function inputOf(op: Operation): Pick<ToolDef, 'inputSchema' | 'placement' | 'bodyNested' | 'fieldsArg'> {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const placement: ToolDef['placement'] = {};
  const params = op.params ? jsonSchemaOf(op.params) : undefined;
  const intParams = new Set(op.params ? fieldsOf(op.params, 'query').filter((f) => f.kind === 'integer').map((f) => f.key) : []);
  for (const name of pathParamNames(op.path)) {
    // Path ids arrive as text on a command line; a tool caller sends the number.
    properties[name] = intParams.has(name) ? { type: 'integer', minimum: 1, description: 'path parameter' } : { ...(propertiesOf(params ?? {})[name] ?? { type: 'string' }), description: 'path parameter' };
    required.push(name);
    placement[name] = 'params';
  }
  if (op.query) {
    const q = jsonSchemaOf(op.query);
    for (const [k, v] of Object.entries(propertiesOf(q))) {
      properties[k] = v;
      placement[k] = 'query';
    }
    required.push(...(q.required ?? []));
  }
  let bodyNested = false;
  if (op.body) {
    const b = jsonSchemaOf(op.body);
    const bodyProps = propertiesOf(b);
    bodyNested = b.type !== 'object' || Object.keys(bodyProps).some((k) => k in placement || k === 'body');
    if (bodyNested) {
      properties.body = b;
      placement.body = 'body';
      required.push('body');
    } else {
      for (const [k, v] of Object.entries(bodyProps)) {
        properties[k] = v;
        placement[k] = 'body';
      }
      required.push(...(b.required ?? []));
    }
  }
  let fieldsArg: string | undefined;
  if (op.cli.fields?.length) {
    fieldsArg = 'fields' in placement ? 'return_fields' : 'fields';
    // Names are checked on call (an unknown one is refused with the list); an enum here would be a quarter of tools/list.
    properties[fieldsArg] = { type: 'array', items: { type: 'string' }, description: 'return only these fields of each record (the service\'s field names)' };
    placement[fieldsArg] = 'fields';
  }
  if (op.cli.customFields && isRead(op) && !('names' in placement)) {
    // The `--names` of the command line: records keyed by field names, options as labels (src/mcp/names.ts).
    properties.names = { type: 'boolean', description: 'custom fields by name, options as labels' };
    placement.names = 'names';
  }
  const inputSchema = compact({ type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}), additionalProperties: false }) as ToolDef['inputSchema'];
  return { inputSchema, placement, bodyNested, fieldsArg };
}

let cache: ToolDef[] | undefined;

/**
 * Every operation as a tool, except file uploads (an assistant cannot hand over a file's bytes
 * through a tool argument; `crmctl <area> ... --file` does it).
 */
export function allTools(): ToolDef[] {
  cache ??= ALL_OPERATIONS.filter((op) => !op.cli.upload).map((op) => {
    const kind = operationEffect(op);
    const title = op.cli.summary.replace(/\s*\(.*$/, '').replace(/\.$/, '');
    return {
      name: toolName(op),
      title,
      description: describe(op, kind),
      ...inputOf(op),
      // The hint is per tool: a write that some arguments make destructive is hinted destructive, so clients confirm it.
      annotations: { title, readOnlyHint: kind === 'read', destructiveHint: mayDestroy(op), idempotentHint: isIdempotent(op), openWorldHint: false },
      op,
      kind,
      destructiveWhen: destructiveWhen(op),
      area: op.cli.command[0]!,
    };
  });
  return cache;
}

export interface ToolPolicy {
  /** `discovery` (default): find/describe/call plus a curated few; `operations`: one tool per operation (--areas, --all-tools). */
  mode?: 'discovery' | 'operations';
  /** Command areas to offer (and their aliases resolved); undefined: all. */
  areas?: ReadonlySet<string>;
  allowWrites: boolean;
  allowDestructive: boolean;
  /** The client's name as it gave it in `initialize` (known once it has): its writes are recorded as its. */
  clientName?: () => string | undefined;
}

/** Why a tool is not offered under this policy (undefined: it is). */
export function refusal(tool: ToolDef, policy: ToolPolicy): string | undefined {
  if (tool.kind !== 'read' && !policy.allowWrites) return `${tool.name} changes the account and this server runs read-only: start \`crmctl mcp\` with --allow-writes`;
  if (tool.kind === 'destructive' && !policy.allowDestructive) return `${tool.name} is destructive: start \`crmctl mcp\` with --allow-writes --allow-destructive`;
  return undefined;
}

/** Why this call is refused under this policy, its arguments included (undefined: it runs). */
export function callRefusal(tool: ToolDef, body: unknown, policy: ToolPolicy): string | undefined {
  const refused = refusal(tool, policy);
  if (refused || policy.allowDestructive) return refused;
  const { effect, why } = callEffect(tool.op, body);
  if (effect === 'destructive') return `${tool.name} is destructive with these arguments (${why.join('; ')}): start \`crmctl mcp\` with --allow-writes --allow-destructive`;
  return undefined;
}

export function offeredTools(policy: ToolPolicy): ToolDef[] {
  return allTools().filter((t) => (!policy.areas || policy.areas.has(t.area)) && refusal(t, policy) === undefined);
}
