/**
 * The append-only file under every run (src/runs/run.ts): one JSON entry per line, each on disk before
 * the action it announces starts, so a kill -9 loses nothing that was acted on.
 */
import { closeSync, existsSync, fdatasync, openSync, readFileSync, writeSync } from 'node:fs';

/**
 * Append-only ndjson journal with group commit: entries queued while a flush is under way are
 * written together and share one fdatasync, which runs on libuv's pool, so concurrent rows neither
 * pay one disk sync each nor stall the event loop. `append` resolves once the entry is on disk.
 */
export class Journal {
  private fd: number;
  private queue: Array<{ text: string; resolve: () => void; reject: (err: unknown) => void }> = [];
  private running: Promise<void> | undefined;
  /** The first failure of an entry nobody waited for: thrown by the next append that waits, or by close. */
  private lost: unknown;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a', 0o600);
  }

  append(entry: Record<string, unknown>): Promise<void> {
    if (this.lost !== undefined) return Promise.reject(this.lost);
    return new Promise((resolve, reject) => {
      this.queue.push({ text: `${JSON.stringify(entry)}\n`, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /**
   * Queues an entry without waiting for the disk: it goes out with the next batch (the next entry
   * that waits, or close). For an entry whose loss in a kill -9 costs only a look-up on --resume (an
   * outcome after its "sending" entry), so the caller's next write does not wait for a sync of its own.
   */
  appendLater(entry: Record<string, unknown>): void {
    this.append(entry).catch((err: unknown) => {
      this.lost ??= err;
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0);
        try {
          writeSync(this.fd, batch.map((b) => b.text).join(''));
          await new Promise<void>((resolve, reject) => fdatasync(this.fd, (err) => (err ? reject(err) : resolve())));
          for (const b of batch) b.resolve();
        } catch (err) {
          for (const b of batch) b.reject(err);
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
    while (this.running) await this.running;
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
