/** A value that should be a list, or an empty one (service answers where an empty list comes as null). */
export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Every item of an async iterator (a paged read) in one array. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/**
 * Appends `items` to `target` one by one. `target.push(...items)` passes every item as an argument
 * on the stack: past ~120k items (the records of a large file) it throws "Maximum call stack size
 * exceeded"; so do Math.max(...list) and Math.min(...list) (use maxOf).
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const x of items) target.push(x);
  return target;
}

/** The largest of `values` and `floor` (Math.max(floor, ...values) without spreading a long list). */
export function maxOf(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let m = floor;
  for (const v of values) if (v > m) m = v;
  return m;
}
