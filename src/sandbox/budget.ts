// Cost budget per company: each API request is charged its operation cost in a
// fixed window. The real service has a 2-second burst window and a daily token
// budget (the vendor's documents); the sandbox models one configurable window and mirrors
// its figures into the daily headers so clients reading either see consistent numbers.
import type { BudgetConfig } from './types.js';

export interface Charge {
  allowed: boolean;
  headers: Record<string, string>;
  /** Whole seconds until the window resets (>= 1); for Retry-After. */
  retryAfterSec: number;
}

export class Budget {
  private windowStart = 0;
  private used = 0;

  constructor(private cfg: () => BudgetConfig) {}

  private roll(now: number): void {
    const w = this.cfg().windowSec * 1000;
    if (now - this.windowStart >= w) { this.windowStart = now; this.used = 0; }
  }

  /** Charge `cost`; a refused request is not charged. */
  charge(cost: number, now: number): Charge {
    this.roll(now);
    const { limit } = this.cfg();
    const allowed = this.used + cost <= limit;
    if (allowed) this.used += cost;
    return { allowed, headers: this.headers(now), retryAfterSec: this.resetSec(now) };
  }

  /** Headers without charging (for responses that were not charged, e.g. 401). */
  peek(now: number): Record<string, string> {
    this.roll(now);
    return this.headers(now);
  }

  reset(): void { this.windowStart = 0; this.used = 0; }

  private resetSec(now: number): number {
    const end = this.windowStart + this.cfg().windowSec * 1000;
    return Math.max(1, Math.ceil((end - now) / 1000));
  }

  private headers(now: number): Record<string, string> {
    const { limit } = this.cfg();
    const remaining = String(Math.max(0, limit - this.used));
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-reset': String(this.resetSec(now)),
      'x-daily-ratelimit-token-limit': String(limit),
      'x-daily-ratelimit-token-remaining': remaining,
    };
  }
}
