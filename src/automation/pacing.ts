import { CostGovernor } from '../http/governor.js';
import type { HttpClient } from '../http/client.js';
import { sleep } from '../http/backoff.js';

/**
 * A CostGovernor that knows when the window ends to within a request's latency.
 *
 * The service tells the seconds left in the window as a whole number (x-ratelimit-reset, rounded
 * up). The stock governor trusts the latest answer, so after spending the budget it waits up to a
 * second past the real reset: with a 2-second window that leaves ~20% of the budget unused. Every
 * answer of one window bounds the end from above (received-at + reset); the smallest bound is the
 * tightest, and the earliest answer of a window (reset = whole window) is within one round trip of
 * the truth. Remaining is kept as the minimum seen in the window, because answers of concurrent
 * requests arrive out of order and an older, larger figure must not let us overdraw.
 *
 * Bulk commands install it on their client (see `installPacer`); the same change belongs in
 * src/http/governor.ts for every command.
 */
export class WindowPacer extends CostGovernor {
  private left: number | undefined;
  private endsAt = 0;
  private inFlight = 0;
  private epochStart = 0;
  private lastSentAt: number | undefined;
  /** Cost units acquired, and times we waited for a window, for progress and benchmarks. */
  readonly stats = { acquired: 0, waits: 0 };

  constructor(private readonly marginMs = 15) {
    super();
  }

  override observe(headers: Record<string, string | string[] | undefined>, now = Date.now()): void {
    const sentAt = this.lastSentAt;
    this.lastSentAt = undefined;
    const remaining = Number(first(headers['x-ratelimit-remaining']));
    const reset = Number(first(headers['x-ratelimit-reset']));
    if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    // An answer to a request sent before we decided the window had turned belongs to the old window.
    if (sentAt !== undefined && sentAt < this.epochStart) return;
    const bound = now + reset * 1000;
    if (this.left === undefined) {
      this.left = remaining;
      this.endsAt = bound;
      return;
    }
    this.endsAt = Math.min(this.endsAt, bound);
    this.left = Math.min(this.left, remaining);
  }

  override async acquire(cost: number | null): Promise<() => void> {
    const units = cost ?? 1;
    for (;;) {
      const now = Date.now();
      if (this.left === undefined) break;
      if (now >= this.endsAt) {
        // The window has turned: its budget is fresh and unknown until the next answer.
        this.left = undefined;
        this.epochStart = now;
        break;
      }
      if (this.left - this.inFlight >= units) break;
      this.stats.waits++;
      await sleep(Math.max(1, this.endsAt - now + this.marginMs));
    }
    this.inFlight += units;
    this.stats.acquired += units;
    const sentAt = Date.now();
    let released = false;
    // HttpClient calls release() and then observe() in the same tick: that pairs an answer with its send time.
    return () => {
      if (!released) {
        released = true;
        this.inFlight -= units;
        this.lastSentAt = sentAt;
      }
    };
  }
}

/** Puts a WindowPacer in place of the client's governor (a runtime swap: the field is readonly only for TypeScript). */
export function installPacer(http: HttpClient): WindowPacer {
  const current = http.governor as CostGovernor;
  if (current instanceof WindowPacer) return current;
  const pacer = new WindowPacer();
  (http as unknown as { governor: CostGovernor }).governor = pacer;
  return pacer;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
