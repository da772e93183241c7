// The v1 `sort` parameter: "field ASC, other DESC", first-level keys only.
import { invalid } from './errors.js';

type Row = Record<string, unknown>;

/** Comparable form of a value: objects like lead `value` sort by amount, arrays by joined text. */
function norm(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (Array.isArray(v)) return v.join(',');
  if (typeof v === 'object') {
    const o = v as Row;
    if (typeof o.amount === 'number') return o.amount;
    return JSON.stringify(o);
  }
  return String(v);
}

export function compareValues(a: unknown, b: unknown): number {
  const x = norm(a), y = norm(b);
  // NULLs first in ascending order, as the service's SQL sorting does.
  if (x === null || y === null) return x === y ? 0 : x === null ? -1 : 1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return String(x).localeCompare(String(y));
}

/** Parse a sort string into a comparator; unknown fields are a 400 naming the field. */
export function parseSort(sort: string, allowed: (field: string) => boolean): (a: Row, b: Row) => number {
  const keys = sort.split(',').map((s) => s.trim()).filter(Boolean).map((part) => {
    const m = /^([A-Za-z0-9_]+)(?:\s+(ASC|DESC))?$/i.exec(part);
    if (!m) throw invalid('sort', `"${part}" is not of the form "field ASC" or "field DESC"`);
    const field = m[1]!;
    if (!allowed(field)) throw invalid('sort', `field ${field} is not sortable`);
    return { field, dir: (m[2] ?? 'ASC').toUpperCase() === 'DESC' ? -1 : 1 };
  });
  return (a, b) => {
    for (const k of keys) {
      const c = compareValues(a[k.field], b[k.field]);
      if (c !== 0) return c * k.dir;
    }
    return 0;
  };
}
