import type * as z from 'zod/mini';
import { jsonSchemaOf, propertiesOf, withoutNull, type JsonSchema } from './json-schema.js';

/** A key the operation does not know, where it was met (dotted path), and the nearest known one. */
export interface UnknownKey {
  /** Path of the key itself: ['colour'] or ['value', 'amout'] (array items by index). */
  path: Array<string | number>;
  key: string;
  known: string[];
  rule: string;
}

/**
 * Keys of `value` that `schema` does not name. A z.object drops them silently, so a typo such as
 * `colour` would vanish from --data, a fixture, an import row or an MCP argument; every door asks
 * here, so each refuses it with the same words. An open object (custom fields keyed by hash) takes
 * any key; `allow` admits more (an import's custom-field columns).
 */
export function unknownKeys(schema: z.ZodMiniType | undefined, value: unknown, allow: (key: string) => boolean = () => false): UnknownKey[] {
  // Nothing given (a plain list's query): no key to refuse, and no schema to convert at start-up.
  if (isEmptyObject(value)) return [];
  return schema ? unknownIn(jsonSchemaOf(schema), value, [], allow) : [];
}

function isEmptyObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  for (const _ in value) return false;
  return true;
}

function unknownIn(raw: JsonSchema | undefined, value: unknown, path: Array<string | number>, allow: (key: string) => boolean): UnknownKey[] {
  if (!raw || value === null || typeof value !== 'object') return [];
  const s = withoutNull(raw).schema;
  if (s.type === 'array' && Array.isArray(value)) return value.flatMap((v, i) => unknownIn(s.items, v, [...path, i], allow));
  const shape = propertiesOf(s);
  if (!shape || Array.isArray(value) || (s.additionalProperties !== undefined && s.additionalProperties !== false)) return [];
  const out: UnknownKey[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k in shape) out.push(...unknownIn(shape[k], v, [...path, k], allow));
    else if (!(path.length === 0 && allow(k))) out.push({ path: [...path, k], key: k, known: Object.keys(shape), rule: unknownKeyRule([...path, k], Object.keys(shape)) });
  }
  return out;
}

/** The one wording of an unknown key: `unknown key "colour" (did you mean "color"?)` (a CSV header is a `column`). */
export function unknownKeyRule(path: Array<string | number> | string, known: string[], noun: 'key' | 'column' = 'key'): string {
  const name = typeof path === 'string' ? path : path.map(String).join('.');
  const key = typeof path === 'string' ? path : String(path[path.length - 1]);
  const near = nearest(key, known);
  if (near) return `unknown ${noun} "${name}" (did you mean "${near}"?)`;
  return `unknown ${noun} "${name}"${known.length ? `; known: ${known.join(', ')}` : ''}`;
}

/** The known name closest to `key` by edit distance (a swap counts once), when it is close enough to be a typo. */
export function nearest(key: string, known: string[]): string | undefined {
  const k = key.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = distance(k, name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  if (!best) return undefined;
  const allowed = k.length <= 3 ? 1 : k.length <= 6 ? 2 : 3;
  return best.d <= allowed ? best.name : undefined;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
