/**
 * A list that stops while the service says more remain must say so: `leads list --json | jq length`
 * printing 100 when 1,204 exist is a silent wrong answer. The notice goes to stderr, on a terminal and
 * piped alike (stdout stays the records only), and only when the user did not ask for every page.
 */

export interface PageInfo {
  /** Where the next page starts: the service's next_start or next_cursor; absent at the end. */
  next: string | number | undefined;
  count: number;
  total?: number;
}

export interface ListWatch {
  /** Pass as paginate's onPage. */
  onPage(info: PageInfo): void;
  /** Counts the records the list yields (wrap paginate's output in it). */
  count<T>(records: AsyncIterable<T>): AsyncIterable<T>;
  /** The notice, when the list stopped with more left; undefined otherwise. */
  notice(): string | undefined;
}

/**
 * Only a list that stopped on its own (the default first page) is a surprise: with --all the user
 * asked for every record, and with --limit for at most that many, so neither gets the notice.
 */
export function watchList(opts: { all?: boolean; limit?: number }): ListWatch {
  let shown = 0;
  let paged = 0;
  let last: PageInfo | undefined;
  return {
    onPage(info) {
      paged += info.count;
      last = info;
    },
    async *count(records) {
      for await (const r of records) {
        shown++;
        yield r;
      }
    },
    notice() {
      if (opts.all || opts.limit !== undefined || shown === 0) return undefined;
      // paginate reports a page once all its records are out; a page it left part-way still held
      // records, so more remain even without a next page.
      const more = shown > paged || (last?.next !== undefined && last.count > 0);
      if (!more) return undefined;
      const total = last?.total !== undefined && last.total > shown ? last.total : undefined;
      const what = total !== undefined ? `${shown} of ${total} records` : `the first ${shown} records`;
      return `note: showing ${what}; the service has more (use --all for every record, or --limit <n>).`;
    },
  };
}
