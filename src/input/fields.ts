import type * as z from 'zod/mini';
import { GLOBAL_FLAG_NAMES } from '../core/global-flags.js';
import { choicesOf, jsonSchemaOf, propertiesOf, withoutNull, type JsonSchema } from './json-schema.js';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'array' | 'json';

/** One input field of an operation as the command line sees it. */
export interface FieldSpec {
  /** Dotted path in the query or body, e.g. 'value.amount' or 'type.name' (goals use dotted query names). */
  key: string;
  path: string[];
  flag: string;
  location: 'query' | 'body';
  kind: FieldKind;
  itemKind?: 'string' | 'number' | 'integer';
  choices?: string[];
  /** Enum whose values are numbers (visible_to 1|3|5|7). */
  numericChoices?: boolean;
  required: boolean;
  nullable: boolean;
  description?: string;
  /**
   * A list of objects around one text `value` (a person's emails and phones): the flag also takes
   * plain values, repeated, each becoming `{ value }` (the first primary when items have `primary`).
   */
  valueList?: { primary: boolean };
}

/** Flags that generated commands add themselves; an input with the same name gets another flag. */
const COMMAND_FLAGS = ['data', 'unset', 'all', 'limit', 'start', 'cursor', 'help'];
const RESERVED = new Set([...GLOBAL_FLAG_NAMES, ...COMMAND_FLAGS]);

export function flagName(key: string): string {
  return key.replace(/[._]/g, '-').replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

function scalarKind(s: JsonSchema): 'string' | 'number' | 'integer' | undefined {
  const choices = choicesOf(s);
  if (choices) return choices.every((c) => typeof c === 'number') ? (choices.every(Number.isInteger) ? 'integer' : 'number') : 'string';
  if (s.type === 'string') return 'string';
  if (s.type === 'integer') return 'integer';
  if (s.type === 'number') return 'number';
  return undefined;
}

/** Top-level body keys that accept null (cleared by `--unset`), including nested objects such as a lead's value. */
export function nullableKeys(schema: z.ZodMiniType | undefined): string[] {
  const props = schema ? propertiesOf(jsonSchemaOf(schema)) : undefined;
  if (!props) return [];
  return Object.entries(props).filter(([, v]) => withoutNull(v).nullable).map(([k]) => k);
}

/** Member names of an object schema (undefined for non-objects): what a fixture spec may name. */
export function memberNames(schema: z.ZodMiniType | undefined): string[] | undefined {
  const props = schema ? propertiesOf(jsonSchemaOf(schema)) : undefined;
  return props ? Object.keys(props) : undefined;
}

/** Flattens an object schema into command-line fields; nested objects become dotted keys. */
export function fieldsOf(schema: z.ZodMiniType | undefined, location: 'query' | 'body', names: Record<string, string> = {}, help: Record<string, string> = {}): FieldSpec[] {
  if (!schema) return [];
  const top = jsonSchemaOf(schema);
  const props = propertiesOf(top);
  if (!props) return [];
  const out: FieldSpec[] = [];
  const walk = (raw: JsonSchema, path: string[], required: boolean) => {
    const { schema: s, nullable } = withoutNull(raw);
    const key = path.join('.');
    const members = propertiesOf(s);
    // A tree (an object holding lists of objects, like a filter's conditions) stays one JSON flag:
    // split into dotted flags it could not be written at all.
    const tree = members && Object.values(members).some((m) => {
      const inner = withoutNull(m).schema;
      return inner.type === 'array' && inner.items !== undefined && propertiesOf(withoutNull(inner.items).schema) !== undefined;
    });
    if (members && path.length < 4 && !tree) {
      const req = new Set(s.required ?? []);
      for (const [k, v] of Object.entries(members)) walk(v, [...path, k], required && req.has(k));
      return;
    }
    let flag = names[key] ?? flagName(key);
    // `fields` of a search op is what to search in; keep --fields for output selection.
    if (!names[key] && RESERVED.has(flag) && !(location === 'query' && ['limit', 'start', 'cursor'].includes(flag))) flag = location === 'query' ? `search-${flag}` : `body-${flag}`;
    const base: Omit<FieldSpec, 'kind'> = { key, path, flag, location, required, nullable, description: help[key] ?? s.description ?? raw.description };
    const choices = choicesOf(s);
    if (choices) out.push({ ...base, kind: 'enum', choices: choices.map(String), numericChoices: choices.every((c) => typeof c === 'number') });
    else if (s.type === 'string') out.push({ ...base, kind: 'string' });
    else if (s.type === 'integer') out.push({ ...base, kind: 'integer' });
    else if (s.type === 'number') out.push({ ...base, kind: 'number' });
    else if (s.type === 'boolean') out.push({ ...base, kind: 'boolean' });
    else if (s.type === 'array' && s.items && scalarKind(withoutNull(s.items).schema)) {
      const item = withoutNull(s.items).schema;
      out.push({ ...base, kind: 'array', itemKind: scalarKind(item), choices: choicesOf(item)?.map(String) });
    } else out.push({ ...base, kind: 'json', ...valueListOf(s) });
  };
  const req = new Set(withoutNull(top).schema.required ?? []);
  for (const [k, v] of Object.entries(props)) walk(v, [k], req.has(k));
  return out;
}

/** `[{ value: string (required), primary?, label?... }]` with scalar members only: plain values can be typed. */
function valueListOf(s: JsonSchema): Pick<FieldSpec, 'valueList'> {
  if (s.type !== 'array' || !s.items) return {};
  const item = withoutNull(s.items).schema;
  const members = propertiesOf(item);
  if (!members || withoutNull(members.value ?? {}).schema.type !== 'string' || !(item.required ?? []).includes('value')) return {};
  if (Object.values(members).some((m) => propertiesOf(withoutNull(m).schema) || withoutNull(m).schema.type === 'array')) return {};
  return { valueList: { primary: withoutNull(members.primary ?? {}).schema.type === 'boolean' } };
}
