import type * as z from 'zod/mini';
import { fieldsOf } from '../input/fields.js';
import { issuesToError } from '../input/issues.js';
import { jsonSchemaOf, propertiesOf, type JsonSchema } from '../input/json-schema.js';
import { unknownKeys as findUnknownKeys } from '../input/unknown-keys.js';

/** A rule broken at a path of the record: ['spec', 'value', 'currency'] or ['id'] (a parent key). */
export interface Problem {
  path: Array<string | number>;
  rule: string;
}

/** Members of an object schema (what a spec may name), or undefined for non-objects. */
export function shapeOf(schema: z.ZodMiniType | undefined): Record<string, JsonSchema> | undefined {
  return schema ? propertiesOf(jsonSchemaOf(schema)) : undefined;
}

/**
 * Keys the operation does not know, in the words every door uses (src/input/unknown-keys.ts): zod
 * objects drop them silently, so a typo such as `colour` would vanish.
 */
export function unknownKeys(schema: z.ZodMiniType | undefined, value: unknown, path: Array<string | number>): Problem[] {
  return findUnknownKeys(schema, value).map((u) => ({ path: [...path, ...u.path], rule: u.rule }));
}

/**
 * Checks a value with an operation's zod schema, as the generated commands do (same schema, same
 * rule texts). Issues at or under `skip` paths (values that exist only once a record is created)
 * are left for the check right before sending.
 */
export function checkSchema(schema: z.ZodMiniType | undefined, value: unknown, path: Array<string | number>, skip: Array<Array<string | number>> = []): { problems: Problem[]; data: unknown } {
  if (!schema) return { problems: [], data: value };
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) return { problems: [], data: r.data };
  const problems = r.error.issues
    .filter((i) => !skip.some((s) => startsWith([...path, ...i.path.map(keyOf)], s)))
    .map((i) => ({ path: [...path, ...i.path.map(keyOf)], rule: issuesToError([i], [], 'spec').issues[0]!.rule }));
  return { problems, data: undefined };
}

const keyOf = (k: PropertyKey): string | number => (typeof k === 'number' ? k : String(k));

export function startsWith(path: Array<string | number>, prefix: Array<string | number>): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => String(p) === String(path[i]));
}

/**
 * Path parameters come from a record's parent keys and from ids in the state; the CLI reads them as
 * text, so they are checked the same way: as text, numbers where the schema wants numbers.
 */
export function checkParams(schema: z.ZodMiniObject<z.core.$ZodShape> | undefined, params: Record<string, unknown>, skip: string[] = []): { problems: Problem[]; data: Record<string, unknown> } {
  if (!schema) return { problems: [], data: params };
  const text: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) text[k] = v === undefined || v === null ? v : String(v);
  for (const f of fieldsOf(schema, 'query')) {
    const v = text[f.key];
    if (typeof v === 'string' && (f.kind === 'integer' || f.kind === 'number') && /^-?\d+(\.\d+)?$/.test(v)) text[f.key] = Number(v);
  }
  const r = schema.safeParse(text, { reportInput: true });
  if (r.success) return { problems: [], data: r.data as Record<string, unknown> };
  const problems = r.error.issues
    .filter((i) => !skip.includes(String(i.path[0])))
    .map((i) => ({ path: i.path.map(keyOf), rule: issuesToError([i], [], 'argument').issues[0]!.rule }));
  return { problems, data: params };
}

/**
 * Environment variables are text; a variable that stands alone in a number or boolean field of
 * the operation (`person_id: ${env:PERSON_ID}`) is turned into that type first.
 */
export function typedEnv(schema: z.ZodMiniType | undefined, specPath: Array<string | number>, text: string): unknown {
  const key = specPath.filter((p) => typeof p === 'string').join('.');
  const field = fieldsOf(schema, 'body').find((f) => f.key === key);
  if (!field) return text;
  const isItem = typeof specPath[specPath.length - 1] === 'number';
  const kind = isItem ? field.itemKind : field.kind === 'enum' && field.numericChoices ? 'integer' : field.kind;
  if ((kind === 'integer' || kind === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (kind === 'boolean' && /^(true|false)$/i.test(text.trim())) return text.trim().toLowerCase() === 'true';
  return text;
}
