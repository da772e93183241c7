// Small validators for request bodies. Every failure is a 400 whose message
// names the field and the rule ("title: is required").
import { invalid } from './errors.js';

export type Body = Record<string, unknown>;

export function objectBody(body: unknown, required = true): Body {
  if (body === undefined && !required) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body', 'must be a JSON object');
  return body as Body;
}

/** Reject keys the operation does not know; `extra` can admit e.g. custom-field hashes. */
export function rejectUnknown(b: Body, allowed: readonly string[], extra?: (k: string) => boolean): void {
  for (const k of Object.keys(b)) {
    if (!allowed.includes(k) && !(extra?.(k))) throw invalid(k, 'is not a known field of this operation');
  }
}

export const has = (b: Body, k: string): boolean => Object.hasOwn(b, k);

export function reqString(b: Body, k: string, o: { max?: number } = {}): string {
  if (!has(b, k) || b[k] === null || b[k] === undefined) throw invalid(k, 'is required');
  return str(b, k, o)!;
}

/** undefined when absent; null only when `nullable`. */
export function optString(b: Body, k: string, o: { nullable?: boolean; max?: number } = {}): string | null | undefined {
  if (!has(b, k)) return undefined;
  if (b[k] === null) { if (o.nullable) return null; throw invalid(k, 'must not be null'); }
  return str(b, k, o);
}

function str(b: Body, k: string, o: { max?: number }): string {
  const v = b[k];
  if (typeof v !== 'string') throw invalid(k, 'must be a string');
  if (v.trim() === '') throw invalid(k, 'must not be empty');
  if (o.max !== undefined && v.length > o.max) throw invalid(k, `must be at most ${o.max} characters`);
  return v;
}

/** Integers; numeric strings are accepted because v1 form bodies carry only strings. */
export function optInt(b: Body, k: string, o: { nullable?: boolean; min?: number } = {}): number | null | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (v === null) { if (o.nullable) return null; throw invalid(k, 'must not be null'); }
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw invalid(k, 'must be an integer');
  if (o.min !== undefined && n < o.min) throw invalid(k, `must be at least ${o.min}`);
  return n;
}

export function reqInt(b: Body, k: string, o: { min?: number } = {}): number {
  if (!has(b, k) || b[k] === null) throw invalid(k, 'is required');
  return optInt(b, k, o) as number;
}

export function optNumber(b: Body, k: string, o: { nullable?: boolean } = {}): number | null | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (v === null) { if (o.nullable) return null; throw invalid(k, 'must not be null'); }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(k, 'must be a number');
  return v;
}

export function optBool(b: Body, k: string): boolean | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  throw invalid(k, 'must be a boolean');
}

export function optEnum<T extends string>(b: Body, k: string, allowed: readonly T[], o: { nullable?: boolean } = {}): T | null | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (v === null) { if (o.nullable) return null; throw invalid(k, 'must not be null'); }
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw invalid(k, `must be one of ${allowed.join(', ')}`);
  return v as T;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isDate(v: string): boolean {
  if (!DATE.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

export function optDate(b: Body, k: string, o: { nullable?: boolean } = {}): string | null | undefined {
  if (!has(b, k)) return undefined;
  const v = b[k];
  if (v === null) { if (o.nullable) return null; throw invalid(k, 'must not be null'); }
  if (typeof v !== 'string' || !isDate(v)) throw invalid(k, 'must be a date in YYYY-MM-DD format');
  return v;
}

export function optArray(b: Body, k: string): unknown[] | undefined {
  if (!has(b, k)) return undefined;
  if (!Array.isArray(b[k])) throw invalid(k, 'must be an array');
  return b[k] as unknown[];
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
