// Bounded concurrency for independent reads (a pull's ~45 small configuration lists): at most `limit` tasks
// run at once. Every request still goes through the one HTTP client and its cost governor, which paces
// them to the account's budget; this only stops a sequence of round trips from waiting on each other.

import { Slots } from './slots.js';

/** A gate: `gate(task)` runs `task` when one of `limit` slots is free (src/core/slots.ts), and answers what it answers. */
export function gated(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  const slots = new Slots(limit);
  return async (task) => {
    await slots.take();
    try {
      return await task();
    } finally {
      slots.release();
    }
  };
}

/**
 * Every promise's value in the given order, once all have settled. When some fail, the first failure in
 * that order is thrown, not the first in time: the same error whatever order the answers came in.
 */
export async function settledInOrder<T extends readonly unknown[]>(promises: readonly [...{ [K in keyof T]: Promise<T[K]> }]): Promise<T>;
export async function settledInOrder<T>(promises: ReadonlyArray<Promise<T>>): Promise<T[]>;
export async function settledInOrder(promises: ReadonlyArray<Promise<unknown>>): Promise<unknown[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
}
