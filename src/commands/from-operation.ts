import type { z } from 'zod';
import { pathParamNames, type Operation } from '../api/operation.js';
import type { CommandSpec, OptionSpec } from '../core/command.js';
import type { Context } from '../core/context.js';
import { UsageError, ValidationError } from '../core/errors.js';
import { readAll } from '../core/stdin.js';
import { coerceField, issuesToError, readMaybeFile, setPath } from './coerce.js';
import { fieldsOf, nullableKeys, type FieldSpec } from './schema-fields.js';

/** Query fields the paginator owns; shown as --limit/--all/--start/--cursor instead. */
const PAGING = new Set(['start', 'limit', 'cursor']);

export interface BuiltInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** The flags of an operation: path params as args, query and body fields as typed options. */
export function operationFields(op: Operation): { args: string[]; fields: FieldSpec[] } {
  const args = op.cli.args ?? pathParamNames(op.path);
  const fields = [
    ...fieldsOf(op.query, 'query', op.cli.flagNames, op.cli.help).filter((f) => !(op.pagination !== 'none' && PAGING.has(f.key))),
    ...fieldsOf(op.body, 'body', op.cli.flagNames, op.cli.help),
  ];
  return { args, fields };
}

function optionFor(f: FieldSpec): OptionSpec {
  const placeholder = f.kind === 'boolean' ? '[bool]' : f.kind === 'array' ? '<list>' : f.kind === 'json' ? '<json>' : f.choices ? '<value>' : f.kind === 'string' ? '<text>' : '<n>';
  // Without a written description, say what the field is and what it takes.
  const what = f.description ?? `${f.location === 'query' ? 'filter: ' : ''}${f.key.replace(/[._]/g, ' ')}`;
  const takes =
    f.kind === 'array' ? `comma-separated ${f.itemKind === 'integer' ? 'integers' : 'values'}` : f.kind === 'json' ? 'JSON or @file' : f.kind === 'integer' ? 'integer' : f.kind === 'number' ? 'number' : f.kind === 'boolean' ? 'true|false' : undefined;
  const notes = [what, f.description ? undefined : takes, f.required ? 'required' : undefined].filter(Boolean);
  return {
    flags: `--${f.flag} ${placeholder}`,
    description: notes.join('; '),
    choices: f.kind === 'enum' ? f.choices : undefined,
    repeatable: f.kind === 'array',
  };
}

export function isUpdate(op: Operation): boolean {
  return op.method === 'PATCH' || op.method === 'PUT';
}

/** Command spec generated from one operation row (Stripe's NewOperationCmd). */
export function commandFromOperation(op: Operation): CommandSpec {
  const { args, fields } = operationFields(op);
  const nullable = nullableKeys(op.body);
  const options: OptionSpec[] = fields.map(optionFor);
  if (op.body) options.push({ flags: '--data <json>', description: 'request body as JSON, @file or - for stdin; flags override its fields' });
  if (isUpdate(op) && nullable.length) options.push({ flags: '--unset <fields>', description: `clear these fields (sent as null): ${nullable.join(', ')}` });
  if (op.pagination !== 'none') {
    options.push({ flags: '--limit <n>', description: `at most this many records (page size up to ${op.maxLimit ?? 500})` });
    options.push({ flags: '--all', description: 'follow every page' });
    options.push({ flags: op.pagination === 'offset' ? '--start <n>' : '--cursor <cursor>', description: 'start from this position (resume)' });
  }
  return {
    generated: true,
    path: op.cli.command,
    summary: op.cli.summary + (op.beta ? ' (beta)' : ''),
    description: op.cli.description,
    examples: op.cli.examples,
    args: args.map((a) => ({ name: a, description: `${a.replace(/_/g, ' ')} (path parameter)`, required: false })),
    options,
    operations: [op],
    fields: op.cli.fields,
    run: (ctx, input) => runOperation(ctx, op, input.args, input.opts),
  };
}

/** Collects, coerces and validates every input of an operation. Throws before anything is sent. */
export async function buildInput(ctx: Context, op: Operation, argv: string[], opts: Record<string, unknown>): Promise<BuiltInput> {
  const { args, fields } = operationFields(op);
  const params: Record<string, unknown> = {};
  for (const [i, name] of args.entries()) {
    let v: unknown = argv[i];
    if (v === undefined || v === '') {
      if (!ctx.canPrompt) throw new UsageError(`missing argument <${name}>`, `Usage: crmctl ${op.cli.command.join(' ')} ${args.map((a) => `<${a}>`).join(' ')}`);
      v = await (await import('../prompts/missing.js')).askArg(ctx, op, name, params);
    }
    params[name] = v;
  }
  if (op.params) {
    const r = op.params.safeParse(coerceParams(op.params, params), { reportInput: true });
    if (!r.success) {
      throw new ValidationError(r.error.issues.map((i) => ({ field: `<${String(i.path[0] ?? 'argument')}>`, rule: issuesToError([i], [], 'argument').issues[0]!.rule })));
    }
    Object.assign(params, r.data);
  }

  let body: unknown = undefined;
  if (opts.data !== undefined) {
    const text = opts.data === '-' ? await readAll(ctx.io.stdin) : readMaybeFile(String(opts.data), '--data');
    try {
      body = JSON.parse(text);
    } catch {
      throw new ValidationError([{ field: '--data', rule: 'must be JSON' }]);
    }
    // An array or a bare value where the operation takes an object: name --data, not "body".
    const wantsObject = (op.body as { def?: { type?: string } } | undefined)?.def?.type === 'object';
    if (wantsObject && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      throw new ValidationError([{ field: '--data', rule: `must be a JSON object of the body's fields (got ${Array.isArray(body) ? 'an array' : JSON.stringify(body)})` }]);
    }
  }
  const query: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = opts[camel(f.flag)];
    if (raw === undefined) continue;
    const value = raw === '-' && f.kind === 'json' ? JSON.parse(await readAll(ctx.io.stdin)) : coerceField(f, raw);
    if (f.location === 'query') query[f.key] = value;
    else {
      if (body === undefined || body === null || typeof body !== 'object') body = {};
      setPath(body as Record<string, unknown>, f.path, value);
    }
  }
  if (opts.unset !== undefined) {
    const allowed = nullableKeys(op.body);
    for (const name of String(opts.unset).split(',').map((s) => s.trim()).filter(Boolean)) {
      const key = allowed.find((a) => a === name || a.replace(/_/g, '-') === name);
      if (!key) throw new ValidationError([{ field: '--unset', rule: `${name} cannot be cleared; clearable: ${allowed.join(', ')}` }]);
      if (body === undefined || body === null || typeof body !== 'object') body = {};
      (body as Record<string, unknown>)[key] = null;
    }
  }
  if (op.body && body === undefined && isUpdate(op) && ctx.canPrompt) {
    body = await (await import('../prompts/missing.js')).askChange(ctx, op, fields, params);
  }
  if (op.body && body === undefined && isUpdate(op)) {
    throw new UsageError(`nothing to update: give at least one of ${fields.filter((f) => f.location === 'body').map((f) => `--${f.flag}`).join(', ')}`);
  }
  await promptMissing(ctx, op, fields, params, query, body === undefined ? (body = {}) : body);
  const q = validate(op.query, query, fields, 'query');
  const b = op.body ? validate(op.body, body ?? {}, fields, 'body') : undefined;
  return { params, query: q as Record<string, unknown>, body: op.body ? b : undefined };
}

function validate(schema: z.ZodType | undefined, value: unknown, fields: FieldSpec[], where: string): unknown {
  if (!schema) return value;
  // reportInput: issues carry the value, so "is required" and "must be an integer" can be told apart.
  const r = schema.safeParse(value, { reportInput: true });
  if (!r.success) throw issuesToError(r.error.issues, fields, where);
  return r.data;
}

/**
 * On a terminal, asks for required inputs that no flag gave (selects filled from the account where the
 * table's `cli.prompts` names a list; see src/prompts). Elsewhere validation names the missing flag.
 */
async function promptMissing(ctx: Context, op: Operation, fields: FieldSpec[], params: Record<string, unknown>, query: Record<string, unknown>, body: unknown): Promise<void> {
  if (!ctx.canPrompt) return;
  const { promptMissingInputs } = await import('../prompts/missing.js');
  await promptMissingInputs(ctx, op, fields, { params, query, body });
}

function get(obj: unknown, path: string[]): unknown {
  let cur = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function coerceParams(schema: z.ZodObject<z.ZodRawShape>, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  for (const f of fieldsOf(schema, 'query')) {
    const v = out[f.key];
    if (typeof v === 'string' && (f.kind === 'integer' || f.kind === 'number') && /^-?\d+(\.\d+)?$/.test(v)) out[f.key] = Number(v);
  }
  return out;
}

export function camel(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function pagingOptions(opts: Record<string, unknown>): { limit?: number; all?: boolean; from?: string | number } {
  let limit: number | undefined;
  if (opts.limit !== undefined) {
    limit = Number(opts.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new ValidationError([{ field: '--limit', rule: `must be a positive integer (got ${JSON.stringify(opts.limit)})` }]);
  }
  const from = (opts.start ?? opts.cursor) as string | undefined;
  if (opts.start !== undefined && !/^\d+$/.test(String(opts.start))) throw new ValidationError([{ field: '--start', rule: 'must be a non-negative integer' }]);
  return { limit, all: Boolean(opts.all), from };
}

/** Runs a generated command: validate, confirm, call (paged when the operation is), render. */
export interface RunHooks {
  /** Checks that need the account's data (labels exist, channel configured); may read, must not write. */
  preflight?: (ctx: Context, input: BuiltInput) => Promise<void>;
  /** Adjusts the validated input before sending (hand-written verbs such as `leads archive`). */
  transform?: (input: BuiltInput) => BuiltInput;
}

export async function runOperation(ctx: Context, op: Operation, argv: string[], opts: Record<string, unknown>, hooks: RunHooks = {}): Promise<void> {
  let input = await buildInput(ctx, op, argv, opts);
  if (hooks.transform) input = hooks.transform(input);
  if (hooks.preflight) await hooks.preflight(ctx, input);
  const paging = op.pagination !== 'none' ? pagingOptions(opts) : {};
  if (op.pagination !== 'none' && paging.limit !== undefined && !paging.all && op.maxLimit && paging.limit > op.maxLimit) {
    // More than one page's worth: follow pages until the limit.
    paging.all = true;
  }
  const { checkFields, renderRecords, renderRecord } = await import('../output/render.js');
  checkFields(ctx, op.cli.fields);
  if (op.cli.confirm) await ctx.confirm(`${op.cli.summary} ${Object.values(input.params).join(' ')}?`);
  const http = await ctx.http();
  const { callOperation, paginate, recordsOf } = await import('../api/call.js');
  if (op.pagination !== 'none') {
    await renderRecords(ctx, paginate(http, op, input, paging), { columns: op.cli.columns, fields: op.cli.fields });
    return;
  }
  const { envelope } = await ctx.spin(`${op.method} ${op.path}`, () => callOperation(http, op, input));
  const data = recordsOf(op, envelope);
  if (Array.isArray(data)) await renderRecords(ctx, data, { columns: op.cli.columns, fields: op.cli.fields });
  else await renderRecord(ctx, data ?? { success: envelope.success ?? true }, { columns: op.cli.columns, fields: op.cli.fields });
}
