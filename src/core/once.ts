/**
 * A value built on first use and kept. The operation tables write their shared zod schemas this way
 * (`export const id = once(() => z.int()...)`, used as `id()`): a command builds the schemas of the
 * operations it runs, not every shared block of every table it loads (issue 19, start-up).
 */
export function once<T>(make: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = make();
      built = true;
    }
    return value;
  };
}
