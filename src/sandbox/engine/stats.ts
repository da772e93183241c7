// The include_fields values of a record (counts and pointers), each computed only when asked: a list page of
// 500 records asks for one or three of about twenty, and some of the others look through every deal of the
// account (a persons page at 100k deals took 110 ms computing counts nobody asked for).

/** A value computed on first use, then kept (several counts share one look-up). */
export function lazy<T>(compute: () => T): () => T {
  let kept: { value: T } | undefined;
  return () => {
    kept ??= { value: compute() };
    return kept.value;
  };
}

/** The asked keys' values from a table of how each is computed; a key the table lacks is null. */
export function pickStats(stat: Readonly<Record<string, () => unknown>>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = (Object.hasOwn(stat, k) ? stat[k]!() : null) ?? null;
  return out;
}

interface Dated { id: number; done: boolean; due_date?: string | null }

/** A record's activities as its next and last activity are found: planned soonest first, done latest first. */
export function activityOrder<A extends Dated>(acts: readonly A[]): { planned: A[]; done: A[] } {
  return {
    planned: acts.filter((a) => !a.done).sort((a, b) => String(a.due_date ?? '9999').localeCompare(String(b.due_date ?? '9999')) || a.id - b.id),
    done: acts.filter((a) => a.done).sort((a, b) => String(b.due_date ?? '').localeCompare(String(a.due_date ?? '')) || b.id - a.id),
  };
}
