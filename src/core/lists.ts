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
