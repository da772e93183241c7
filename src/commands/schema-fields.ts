import type { z } from 'zod';

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
}

type Def = { type: string; innerType?: z.ZodType; element?: z.ZodType; shape?: Record<string, z.ZodType>; entries?: Record<string, string>; values?: unknown[]; options?: z.ZodType[]; in?: z.ZodType; checks?: Array<{ _zod?: { def?: { format?: string; check?: string } } }>; format?: string };

function defOf(s: z.ZodType): Def {
  return (s as unknown as { def: Def }).def;
}

/** Strips optional/nullable/default/pipe wrappers and reports what they said. */
export function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; nullable: boolean; description?: string } {
  let s = schema;
  let optional = false;
  let nullable = false;
  let description = (schema as { description?: string }).description;
  for (;;) {
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault') optional = true;
    else if (d.type === 'nullable') nullable = true;
    else if (d.type === 'pipe') {
      s = d.in!;
      continue;
    } else break;
    s = d.innerType!;
    description ??= (s as { description?: string }).description;
  }
  return { inner: s, optional, nullable, description };
}

function scalarKind(s: z.ZodType): 'string' | 'number' | 'integer' | undefined {
  const inner = unwrap(s).inner;
  const d = defOf(inner);
  const choices = literalChoices(inner);
  if (choices) return choices.every((c) => typeof c === 'number') ? 'integer' : 'string';
  if (d.type === 'string') return 'string';
  if (d.type === 'number') return isInteger(d) ? 'integer' : 'number';
  return undefined;
}

function isInteger(d: Def): boolean {
  if (d.format && /int/.test(d.format)) return true;
  return (d.checks ?? []).some((c) => /int/.test(c._zod?.def?.format ?? c._zod?.def?.check ?? ''));
}

function literalChoices(s: z.ZodType): unknown[] | undefined {
  const d = defOf(s);
  if (d.type === 'enum') return Object.values(d.entries!);
  if (d.type === 'literal') return d.values;
  if (d.type === 'union') {
    const all: unknown[] = [];
    for (const o of d.options!) {
      const c = literalChoices(unwrap(o).inner);
      if (!c) return undefined;
      all.push(...c);
    }
    return all;
  }
  return undefined;
}

export function flagName(key: string): string {
  return key.replace(/[._]/g, '-').replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

/** Top-level body keys that accept null (cleared by `--unset`), including nested objects such as a lead's value. */
export function nullableKeys(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const top = defOf(unwrap(schema).inner);
  if (top.type !== 'object') return [];
  return Object.entries(top.shape!).filter(([, v]) => unwrap(v).nullable).map(([k]) => k);
}

/** Global flags; an operation field with the same name gets another flag name. */
export const GLOBAL_FLAGS = new Set(['fields', 'output', 'json', 'profile', 'debug', 'yes', 'input', 'no-input', 'help', 'version', 'data', 'unset', 'all', 'limit', 'start', 'cursor']);

/** Flattens an object schema into command-line fields; nested objects become dotted keys. */
export function fieldsOf(schema: z.ZodType | undefined, location: 'query' | 'body', names: Record<string, string> = {}, help: Record<string, string> = {}): FieldSpec[] {
  if (!schema) return [];
  const out: FieldSpec[] = [];
  const walk = (s: z.ZodType, path: string[], parentOptional: boolean) => {
    const { inner, optional, nullable, description } = unwrap(s);
    const d = defOf(inner);
    const key = path.join('.');
    if (d.type === 'object' && path.length > 0 && path.length < 4) {
      for (const [k, v] of Object.entries(d.shape!)) walk(v, [...path, k], parentOptional || optional);
      return;
    }
    let flag = names[key] ?? flagName(key);
    // `fields` of a search op is what to search in; keep --fields for output selection.
    if (!names[key] && GLOBAL_FLAGS.has(flag) && !(location === 'query' && ['limit', 'start', 'cursor'].includes(flag))) flag = location === 'query' ? `search-${flag}` : `body-${flag}`;
    const base: Omit<FieldSpec, 'kind'> = {
      key,
      path,
      flag,
      location,
      required: !optional && !parentOptional,
      nullable,
      description: help[key] ?? description,
    };
    const choices = literalChoices(inner);
    if (choices) {
      out.push({ ...base, kind: 'enum', choices: choices.map(String), numericChoices: choices.every((c) => typeof c === 'number') });
    } else if (d.type === 'string') out.push({ ...base, kind: 'string' });
    else if (d.type === 'number') out.push({ ...base, kind: isInteger(d) ? 'integer' : 'number' });
    else if (d.type === 'boolean') out.push({ ...base, kind: 'boolean' });
    else if (d.type === 'array' && scalarKind(d.element!)) {
      const el = unwrap(d.element!).inner;
      const elChoices = literalChoices(el);
      out.push({ ...base, kind: 'array', itemKind: scalarKind(d.element!), choices: elChoices?.map(String) });
    } else out.push({ ...base, kind: 'json' });
  };
  const top = defOf(unwrap(schema).inner);
  if (top.type !== 'object') return [];
  for (const [k, v] of Object.entries(top.shape!)) walk(v, [k], false);
  return out;
}
