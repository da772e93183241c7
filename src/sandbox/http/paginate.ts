// The two pagination styles of the service (the vendor's documents):
// v1 offset: start/limit -> additional_data.pagination {start,limit,more_items_in_collection,next_start}
// v2 cursor: cursor/limit -> additional_data.next_cursor (opaque base64url JSON, null at the end)
import { invalid } from './errors.js';
import type { Query } from './query.js';

export interface OffsetPage<T> {
  data: T[];
  additional_data: { pagination: { start: number; limit: number; more_items_in_collection: boolean; next_start?: number } };
}

export function offsetPage<T>(items: T[], q: Query, o: { defaultLimit?: number; maxLimit?: number } = {}): OffsetPage<T> {
  const start = q.int('start', { min: 0 }) ?? 0;
  const limit = q.int('limit', { min: 1, max: o.maxLimit ?? 500 }) ?? o.defaultLimit ?? 100;
  const data = items.slice(start, start + limit);
  const more = start + limit < items.length;
  const pagination: OffsetPage<T>['additional_data']['pagination'] = { start, limit, more_items_in_collection: more };
  if (more) pagination.next_start = start + limit;
  return { data, additional_data: { pagination } };
}

interface CursorBody { field: string; fieldValue: unknown; sortDirection: 'asc' | 'desc'; id: string | number }

export function encodeCursor(c: CursorBody): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(s: string): CursorBody {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as CursorBody;
    if (typeof c !== 'object' || c === null || !('id' in c)) throw new Error('shape');
    return c;
  } catch {
    throw invalid('cursor', 'is not a valid cursor');
  }
}

export interface CursorPage<T> { data: T[]; additional_data: { next_cursor: string | null } }

/**
 * Page through items that are already sorted by `field` in `direction`. The cursor names
 * the first item of the next page (as the service's does); when that item has gone, the
 * page resumes at the first item past the remembered sort value.
 */
export function cursorPage<T extends { id: string | number }>(
  items: T[], q: Query,
  o: { defaultLimit?: number; maxLimit?: number; field?: string; direction?: 'asc' | 'desc' } = {},
): CursorPage<T> {
  const limit = q.int('limit', { min: 1, max: o.maxLimit ?? 500 }) ?? o.defaultLimit ?? 100;
  const field = o.field ?? 'id';
  const direction = o.direction ?? 'asc';
  let startIdx = 0;
  const raw = q.str('cursor');
  if (raw !== undefined) {
    const c = decodeCursor(raw);
    const at = items.findIndex((it) => String(it.id) === String(c.id));
    if (at >= 0) startIdx = at;
    else {
      const after = items.findIndex((it) => {
        const v = (it as Record<string, unknown>)[c.field] as string | number;
        const cv = c.fieldValue as string | number;
        return c.sortDirection === 'desc' ? v < cv : v > cv;
      });
      startIdx = after >= 0 ? after : items.length;
    }
  }
  const data = items.slice(startIdx, startIdx + limit);
  const next = items[startIdx + limit];
  const next_cursor = next
    ? encodeCursor({ field, fieldValue: (next as Record<string, unknown>)[field], sortDirection: direction, id: next.id })
    : null;
  return { data, additional_data: { next_cursor } };
}
