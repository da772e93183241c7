/**
 * Pagination of a raw response, for `crmctl api --paginate` where no operation row says which style
 * the endpoint uses: `additional_data.next_cursor` → cursor style; `additional_data.pagination`
 * (or the same keys directly under additional_data) with more_items_in_collection → offset style.
 */
export type NextPage = { cursor: string } | { start: number } | undefined;

export function detectNext(body: unknown): NextPage {
  const add = (body as { additional_data?: Record<string, unknown> | null } | null)?.additional_data;
  if (!add || typeof add !== 'object') return undefined;
  if (typeof add.next_cursor === 'string' && add.next_cursor) return { cursor: add.next_cursor };
  const p = (add.pagination && typeof add.pagination === 'object' ? add.pagination : add) as Record<string, unknown>;
  if (p.more_items_in_collection === true) {
    const n = Number(p.next_start ?? Number(p.start ?? 0) + Number(p.limit ?? 0));
    if (Number.isFinite(n)) return { start: n };
  }
  return undefined;
}

/** The records of a page: `data` when it is a list, or the one list inside it (search `items`, goals `goals`). */
export function pageRecords(body: unknown): unknown[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object') {
    const lists = Object.values(data).filter(Array.isArray);
    if (lists.length === 1) return lists[0] as unknown[];
    return [data];
  }
  return data === undefined || data === null ? [] : [data];
}
