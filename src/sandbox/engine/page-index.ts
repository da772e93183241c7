// Lookups of records by a key (deals by person_id, activities by org_id, ...) shared by the records of one
// list page. A page presents up to 500 records, and each record's counts (include_fields, the v1 record)
// would otherwise scan every deal: O(records × deals) per page, most of a persons page at 100k deals.
//
// Correctness over reuse: an index lives only while one page is presented (`onePage`), which runs
// synchronously after the handler has read its rows, so no write can happen while an index exists and no
// index outlives a write (handlers also mutate records in place, which a longer-lived cache would miss).
// Outside a page (one record's GET, a write's answer) a lookup scans as it always did.
import type { Collection, Rec } from '../store/collection.js';
import type { SandboxState } from '../store/state.js';

type Index = Map<unknown, Rec[]>;
const pages = new WeakMap<SandboxState, Map<string, Index>>();

/** Presents one page with its lookups built once (nested calls share the outer page's). */
export function onePage<T>(state: SandboxState, present: () => T): T {
  if (pages.has(state)) return present();
  pages.set(state, new Map());
  try {
    return present();
  } finally {
    pages.delete(state);
  }
}

/**
 * The live records of `col` whose `keyOf` is `value`, in the collection's order, as `col.filter` gives them.
 * `name` names the key (two lookups of one collection by different keys need different names).
 * The answer may be shared with other records of the page: copy it before sorting it in place.
 */
export function recordsWhere<T extends Rec, K>(state: SandboxState, col: Collection<T>, name: string, keyOf: (r: T) => K, value: K): readonly T[] {
  const page = pages.get(state);
  if (!page) return col.filter((r) => keyOf(r) === value);
  const id = `${col.name}\u0000${name}`;
  let index = page.get(id);
  if (!index) {
    index = new Map();
    for (const r of col.all()) {
      const k = keyOf(r);
      const rows = index.get(k);
      if (rows) rows.push(r);
      else index.set(k, [r]);
    }
    page.set(id, index);
  }
  return (index.get(value) ?? []) as T[];
}

/** The live records of `col` whose `field` is `value` (recordsWhere by one field: deals by person_id). */
export function recordsBy<T extends Rec>(state: SandboxState, col: Collection<T>, field: keyof T & string, value: unknown): readonly T[] {
  return recordsWhere(state, col, field, (r) => r[field] as unknown, value);
}
