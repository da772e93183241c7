import * as z from 'zod/mini';

/** The subset of JSON Schema (draft 2020-12) that z.toJSONSchema writes and this CLI reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
  [k: string]: unknown;
}

const cache = new WeakMap<z.ZodMiniType, JsonSchema>();

/**
 * The input side of a zod schema as JSON Schema, through zod's public converter (what a caller may
 * send: a path id is the text before its transform to a number). Flags, prompts, fixtures and the MCP
 * tools all read schemas this way; cached per schema.
 */
export function jsonSchemaOf(schema: z.ZodMiniType): JsonSchema {
  let js = cache.get(schema);
  if (!js) {
    js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    delete js.$schema;
    cache.set(schema, js);
  }
  return js;
}

/** A schema without its `| null` branch, and whether it had one. */
export function withoutNull(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.some(isNull)) {
    const rest = branches.filter((b) => !isNull(b));
    const inner: JsonSchema = rest.length === 1 ? { ...rest[0]!, description: s.description ?? rest[0]!.description } : { ...s, anyOf: rest, oneOf: undefined };
    return { schema: inner, nullable: true };
  }
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const types = s.type.filter((t) => t !== 'null');
    return { schema: { ...s, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema: s, nullable: false };
}

const isNull = (b: JsonSchema) => b.type === 'null';

/** Allowed values of an enum, a const, or a union of consts (visible_to 1|3|5|7); undefined otherwise. */
export function choicesOf(s: JsonSchema): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  if ('const' in s) return [s.const];
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) {
    const all: unknown[] = [];
    for (const b of branches) {
      const c = choicesOf(b);
      if (!c) return undefined;
      all.push(...c);
    }
    return all;
  }
  return undefined;
}

/** Object properties of a schema (through a nullable branch), or undefined when it is not an object with named members. */
export function propertiesOf(s: JsonSchema | undefined): Record<string, JsonSchema> | undefined {
  if (!s) return undefined;
  const inner = withoutNull(s).schema;
  return inner.type === 'object' && inner.properties ? inner.properties : undefined;
}

/** The sub-schema at a dotted path of object members (arrays are not walked). */
export function schemaAt(s: JsonSchema | undefined, path: readonly string[]): JsonSchema | undefined {
  let cur = s;
  for (const key of path) {
    const props = propertiesOf(cur);
    if (!props) return undefined;
    cur = props[key];
  }
  return cur;
}
