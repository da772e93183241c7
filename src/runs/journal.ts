/**
 * The append-only file under every run (src/runs/run.ts): one JSON entry per line, each on disk before
 * the action it announces starts, so a kill -9 loses nothing that was acted on.
 */
import { closeSync, existsSync, fdatasync, openSync, readFileSync, writeSync } from 'node:fs';

/** How long an entry queued ahead waits for others before it is synced alone (ms), and how many start a sync at once. */
const COALESCE_MS = 4;
const BATCH = 64;

/**
 * Append-only ndjson journal with group commit: entries queued while a flush is under way are
 * written together and share one fdatasync, which runs on libuv's pool, so concurrent rows neither
 * pay one disk sync each nor stall the event loop. `append` resolves once the entry is on disk.
 *
 * An entry appended *ahead* (`appendAhead`, `appendLater`: nobody waits for it yet) does not start a
 * sync of its own: it waits up to COALESCE_MS for others (or BATCH of them, or an entry that is waited
 * for, or `hurry`), so an import's thousands of rows share hundreds of syncs, not thousands.
 */
export class Journal {
  private fd: number;
  private queue: Array<{ text: string; resolve: () => void; reject: (err: unknown) => void }> = [];
  /** An entry someone waits for is queued (or `hurry` was called): the next sync starts as soon as it can. */
  private urgent = false;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The first failure of an entry nobody waited for: thrown by the next append that waits, or by close. */
  private lost: unknown;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a', 0o600);
  }

  append(entry: Record<string, unknown>): Promise<void> {
    return this.enqueue(entry, true);
  }

  /** Queues an entry to be on disk soon (the promise says when), without a sync of its own. */
  appendAhead(entry: Record<string, unknown>): Promise<void> {
    return this.enqueue(entry, false);
  }

  /**
   * Queues an entry without waiting for the disk: it goes out with the next batch (the next entry
   * that waits, or close). For an entry whose loss in a kill -9 costs only a look-up on --resume (an
   * outcome after its "sending" entry), so the caller's next write does not wait for a sync of its own.
   */
  appendLater(entry: Record<string, unknown>): void {
    this.enqueue(entry, false).catch((err: unknown) => {
      this.lost ??= err;
    });
  }

  /** Entries queued ahead are about to be waited for: sync them now. */
  hurry(): void {
    if (!this.queue.length) return;
    this.urgent = true;
    this.start();
  }

  private enqueue(entry: Record<string, unknown>, urgent: boolean): Promise<void> {
    if (this.lost !== undefined) return Promise.reject(this.lost);
    return new Promise((resolve, reject) => {
      this.queue.push({ text: `${JSON.stringify(entry)}\n`, resolve, reject });
      if (urgent) this.urgent = true;
      if (urgent || this.queue.length >= BATCH) this.start();
      else if (!this.running) this.timer ??= setTimeout(() => this.start(), COALESCE_MS);
    });
  }

  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Never a drain of an empty queue: it would end before `running` is set, leaving it set for good.
    if (this.queue.length) this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0);
        this.urgent = false;
        try {
          writeSync(this.fd, batch.map((b) => b.text).join(''));
          await new Promise<void>((resolve, reject) => fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
          for (const b of batch) b.resolve();
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
        // Only entries queued ahead wait: let more join them (a timer, or the next urgent entry, starts the sync).
        if (this.queue.length && this.queue.length < BATCH && !this.urgent) {
          this.timer ??= setTimeout(() => this.start(), COALESCE_MS);
          break;
        }
      }
    } finally {
      // Cleared in the same turn as the last look at the queue: an entry appended by a caller that
      // resumed on the batch's resolve starts a new drain instead of waiting on one that has ended.
      this.running = undefined;
    }
  }

  /** Waits for queued entries, then closes the file. */
  async close(): Promise<void> {
    this.hurry();
    while (this.running || this.queue.length) {
      if (!this.running) this.start();
      await this.running;
    }
    closeSync(this.fd);
    if (this.lost !== undefined) throw this.lost;
  }

  /** Entries of a journal; a torn last line (killed mid-write) is ignored. */
  static read(path: string): Array<Record<string, unknown>> {
    if (!existsSync(path)) return [];
    const out: Array<Record<string, unknown>> = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // torn write at the end: that entry never completed, so its action never started
      }
    }
    return out;
  }
}
