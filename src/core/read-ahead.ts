// The next page of a long read asked for while the caller handles this one (export, backup): the service
// works on it meanwhile, so a long read costs about the larger of the service's time and ours per page,
// not their sum (the benchmark: scripts/bench-backup.mjs). One read ahead is held at most, two pages with
// the one in hand; a run that stops drops it unread (its cost is spent, its records are read again on --resume).

/** One read asked ahead of its turn, named by a key (the list and the cursor it was asked from). */
export class ReadAhead<T> {
  private pending: { key: string; value: Promise<T> } | undefined;

  /** What was asked ahead for `key`, or `read()` now when nothing was (or something else: it is dropped). */
  take(key: string, read: () => Promise<T>): Promise<T> {
    const p = this.pending;
    this.pending = undefined;
    return p && p.key === key ? p.value : read();
  }

  /**
   * Asks for `key` now, and resolves after one turn of the event loop: by then the request is on the wire.
   * Without it the request would wait for the caller's next milliseconds of work on the thread (encoding,
   * hashing a page), and the service with it.
   */
  async ask(key: string, read: () => Promise<T>): Promise<void> {
    const value = read();
    // Its failure belongs to whoever takes it; meanwhile it is not an unhandled rejection.
    value.catch(() => {});
    this.pending = { key, value };
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
