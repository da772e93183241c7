import { sleep } from './backoff.js';

/**
 * Paces requests to the service's cost budget. The service reports the remaining budget and the
 * seconds until the window resets on every answer; when the next call's cost would overdraw it we wait
 * for the reset instead of collecting a 429. Shared by every request of one process.
 */
export class CostGovernor {
  private remaining: number | undefined;
  private resetAt = 0;
  private reserved = 0;

  observe(headers: Record<string, string | string[] | undefined>, now = Date.now()): void {
    const remaining = Number(first(headers['x-ratelimit-remaining']));
    const reset = Number(first(headers['x-ratelimit-reset']));
    if (Number.isFinite(remaining)) this.remaining = remaining;
    if (Number.isFinite(reset)) this.resetAt = now + reset * 1000;
  }

  /** Waits until `cost` fits in what is left of the window, then reserves it. */
  async acquire(cost: number | null): Promise<() => void> {
    const units = cost ?? 1;
    for (;;) {
      const now = Date.now();
      if (this.remaining === undefined || now >= this.resetAt) break;
      if (this.remaining - this.reserved >= units) break;
      await sleep(Math.max(5, this.resetAt - now + 5));
      if (Date.now() >= this.resetAt) {
        this.remaining = undefined; // unknown until the next answer tells us
      }
    }
    this.reserved += units;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.reserved -= units;
      }
    };
  }
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
