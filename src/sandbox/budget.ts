// Cost budgets per company, as the service keeps two (the vendor's documents, api-facts §5): a burst
// window (cost units per `windowSec`, x-ratelimit-* headers) and a daily token budget that resets at
// midnight server time (x-daily-ratelimit-token-* headers). A request is charged its operation cost
// against both. A spent burst window refuses until the window turns; a spent daily budget refuses every
// request until midnight UTC of the sandbox's clock (which POST /__sandbox/clock moves).
import type { BudgetConfig } from './types.js';

export const DEFAULT_DAILY_LIMIT = 10_000_000;
const DAY_MS = 86_400_000;

export interface Charge {
  allowed: boolean;
  /** Which budget refused: the burst window (retry in seconds) or the day (retry after midnight). */
  refusedBy?: 'window' | 'daily';
  headers: Record<string, string>;
  /** Whole seconds until what refused resets (>= 1); for Retry-After. */
  retryAfterSec: number;
}

export class Budget {
  private windowStart = 0;
  private used = 0;
  private day = -1;
  private dailyUsed = 0;

  constructor(private cfg: () => BudgetConfig) {}

  private roll(now: number): void {
    const w = this.cfg().windowSec * 1000;
    if (now - this.windowStart >= w) { this.windowStart = now; this.used = 0; }
    const day = Math.floor(now / DAY_MS);
    if (day !== this.day) { this.day = day; this.dailyUsed = 0; }
  }

  private dailyLimit(): number { return this.cfg().dailyLimit ?? DEFAULT_DAILY_LIMIT; }

  /**
   * Charge `cost`; a refused request is not charged. The day refuses only once nothing is left (the
   * last request may take it below zero, shown as 0), so "exhausted" and "remaining 0" are one state.
   */
  charge(cost: number, now: number): Charge {
    this.roll(now);
    if (this.dailyUsed >= this.dailyLimit()) {
      return { allowed: false, refusedBy: 'daily', headers: this.headers(now), retryAfterSec: this.dailyResetSec(now) };
    }
    const { limit } = this.cfg();
    const allowed = this.used + cost <= limit;
    if (allowed) { this.used += cost; this.dailyUsed += cost; }
    return { allowed, ...(allowed ? {} : { refusedBy: 'window' as const }), headers: this.headers(now), retryAfterSec: this.resetSec(now) };
  }

  /** Headers without charging (for responses that were not charged, e.g. 401). */
  peek(now: number): Record<string, string> {
    this.roll(now);
    return this.headers(now);
  }

  /** Ends the burst window and the day's spending (a reseed). */
  reset(): void { this.windowStart = 0; this.used = 0; this.dailyUsed = 0; }

  /** Ends the burst window only (a config change). */
  resetWindow(): void { this.windowStart = 0; this.used = 0; }

  /** Sets what the day has spent (POST /__sandbox/budget). */
  setDailyUsed(used: number, now: number): void {
    this.roll(now);
    this.dailyUsed = used;
  }

  daily(now: number): { limit: number; used: number; remaining: number; resets_at: string } {
    this.roll(now);
    const limit = this.dailyLimit();
    return { limit, used: this.dailyUsed, remaining: Math.max(0, limit - this.dailyUsed), resets_at: new Date((this.day + 1) * DAY_MS).toISOString() };
  }

  private resetSec(now: number): number {
    const end = this.windowStart + this.cfg().windowSec * 1000;
    return Math.max(1, Math.ceil((end - now) / 1000));
  }

  private dailyResetSec(now: number): number {
    return Math.max(1, Math.ceil(((this.day + 1) * DAY_MS - now) / 1000));
  }

  private headers(now: number): Record<string, string> {
    const { limit } = this.cfg();
    const daily = this.dailyLimit();
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - this.used)),
      'x-ratelimit-reset': String(this.resetSec(now)),
      'x-daily-ratelimit-token-limit': String(daily),
      'x-daily-ratelimit-token-remaining': String(Math.max(0, daily - this.dailyUsed)),
    };
  }
}
