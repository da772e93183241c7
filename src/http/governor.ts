import { realClock, type Clock } from './clock.js';

/**
 * Paces requests to the service's cost budget, so bulk runs keep the budget busy without collecting
 * 429s. Every answer reports the budget left (x-ratelimit-remaining) and the whole seconds until the
 * window ends (x-ratelimit-reset, rounded up).
 *
 * Trusting only the latest answer would wait up to a second past the real reset (with a 2-second
 * window, ~20% of the budget unused). Instead every answer of a window bounds its end from above
 * (received-at + reset) and the smallest bound is kept; the earliest answer of a window is within one
 * round trip of the truth. Remaining is the minimum seen in the window, because answers of concurrent
 * requests arrive out of order and an older, larger figure must not let us overdraw. Shared by every
 * request of one process.
 */
export class CostGovernor {
  private left: number | undefined;
  private endsAt = 0;
  private inFlight = 0;
  private epochStart = 0;
  private lastSentAt: number | undefined;
  /** Cost units acquired, and times we waited for a window (progress lines, benchmarks). */
  readonly stats = { acquired: 0, waits: 0 };

  constructor(private readonly clock: Clock = realClock, private readonly marginMs = 15) {}

  observe(headers: Record<string, string | string[] | undefined>, now = this.clock.now()): void {
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

  /** Waits until `cost` fits in what is left of the window, then reserves it; call the result when answered. */
  async acquire(cost: number | null): Promise<() => void> {
    const units = cost ?? 1;
    for (;;) {
      const now = this.clock.now();
      if (this.left === undefined) break;
      if (now >= this.endsAt) {
        // The window has turned: its budget is fresh and unknown until the next answer.
        this.left = undefined;
        this.epochStart = now;
        break;
      }
      if (this.left - this.inFlight >= units) break;
      this.stats.waits++;
      await this.clock.sleep(Math.max(1, this.endsAt - now + this.marginMs));
    }
    this.inFlight += units;
    this.stats.acquired += units;
    const sentAt = this.clock.now();
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

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
