import type * as z from 'zod/mini';
import type { RawInput, ValidInput } from '../api/entry-types.js';
import { pathParamNames, type Operation, type OperationSpec } from '../api/operation.js';
import { pathParamProblem } from '../api/path-param.js';
import { ValidationError } from '../core/errors.js';
import { fieldsOf, nullableKeys, type FieldSpec } from './fields.js';
import { issuesToError } from './issues.js';
import { precomputedFields } from './precomputed-fields.js';

/** Query fields the paginator owns; generated commands show them as --limit/--all/--start/--cursor. */
export const PAGING_KEYS: ReadonlySet<string> = new Set(['start', 'limit', 'cursor']);

// The shapes of an operation's input are the entry's contracts (src/api/entry-types.ts): the call layer
// and the account checks below this folder name them too.
export type { RawInput, ValidInput } from '../api/entry-types.js';

const cache = new WeakMap<object, { args: string[]; fields: FieldSpec[] }>();

/** The inputs of an operation as the command line sees them: path params as args, query and body fields as flags. */
export function operationFields(op: OperationSpec): { args: string[]; fields: FieldSpec[] } {
  let f = cache.get(op);
  if (!f) {
    f = {
      args: op.cli.args ?? pathParamNames(op.path),
      fields: precomputedFields(op)?.fields ?? liveFields(op),
    };
    cache.set(op, f);
  }
  return f;
}

/** Top-level body keys that accept null (what --unset may clear): the build's when it worked them out. */
export function clearableKeys(op: OperationSpec): string[] {
  return precomputedFields(op)?.nullable ?? nullableKeys(op.body);
}

/** The fields derived from the zod schemas (JSON Schema of the query and the body); scripts/lib/op-fields.mjs stores them per row. */
export function liveFields(op: OperationSpec): FieldSpec[] {
  return [
    ...fieldsOf(op.query, 'query', op.cli.flagNames, op.cli.help).filter((x) => !(op.pagination !== 'none' && PAGING_KEYS.has(x.key))),
    ...fieldsOf(op.body, 'body', op.cli.flagNames, op.cli.help),
  ];
}

/**
 * Checks every input of an operation with its zod schemas and returns what they produced. Issues name
 * the flag a person typed (`--value-amount`), or the field path when no flag matches. Nothing is sent
 * before this passed.
 */
export function validateInput(op: Operation, raw: RawInput): ValidInput {
  const { fields } = operationFields(op);
  const params = validateParams(op, raw.params);
  const query = parse(op.query, raw.query ?? {}, fields, 'query') as Record<string, unknown>;
  const body = op.body ? parse(op.body, raw.body ?? {}, fields, 'body') : undefined;
  return { params, query: query ?? {}, body };
}

/** Path parameters checked alone (named `<id>`): what a command line's positional arguments give. */
export function validateParams(op: Operation, raw: Record<string, unknown>): Record<string, unknown> {
  if (!op.params) return checkPathValues(op, { ...raw });
  const r = op.params.safeParse(numericParams(op.params, raw), { reportInput: true });
  if (!r.success) {
    throw new ValidationError(r.error.issues.map((i) => ({ field: `<${String(i.path[0] ?? 'argument')}>`, rule: issuesToError([i], [], 'argument').issues[0]!.rule })));
  }
  return checkPathValues(op, r.data as Record<string, unknown>);
}

/** The values that will be put into the path (after the schema's trims) must each stay one segment. */
function checkPathValues(op: Operation, params: Record<string, unknown>): Record<string, unknown> {
  const issues = pathParamNames(op.path).flatMap((name) => {
    const rule = pathParamProblem(params[name]);
    return rule ? [{ field: `<${name}>`, rule }] : [];
  });
  if (issues.length) throw new ValidationError(issues);
  return params;
}

function parse(schema: z.ZodMiniType | undefined, value: unknown, fields: FieldSpec[], where: string): unknown {
  if (!schema) return value;
  // reportInput: issues carry the value, so "is required" and "must be an integer" can be told apart.
  const r = schema.safeParse(value, { reportInput: true });
  if (!r.success) throw issuesToError(r.error.issues, fields, where);
  return r.data;
}

/** Path parameters arrive as text; integer ones become numbers before the schema sees them. */
export function numericParams(schema: z.ZodMiniType, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...params };
  for (const f of fieldsOf(schema, 'query')) {
    const v = out[f.key];
    if (typeof v === 'string' && (f.kind === 'integer' || f.kind === 'number') && /^-?\d+(\.\d+)?$/.test(v)) out[f.key] = Number(v);
  }
  return out;
}
