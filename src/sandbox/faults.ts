// Fault injection for API routes (never control or OAuth): 5xx, spurious 429,
// connection resets before the handler or after it committed, and latency.
// A seeded PRNG makes a fault sequence reproducible for a given request order.
import type { FaultConfig } from './types.js';

export type FaultDecision =
  | { kind: 'none'; latencyMs: number }
  | { kind: '5xx'; status: 502 | 503 | 504; latencyMs: number }
  | { kind: '429'; latencyMs: number }
  | { kind: 'reset-before'; latencyMs: number }
  | { kind: 'reset-after'; latencyMs: number };

/** mulberry32: tiny, fast, good enough for test reproducibility. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private rand: () => number = Math.random;
  private cfg: FaultConfig = {};

  constructor(cfg: FaultConfig = {}) { this.configure(cfg); }

  configure(cfg: FaultConfig): void {
    for (const k of ['rate5xx', 'rate429', 'rateReset', 'resetAfterCommitShare'] as const) {
      const v = cfg[k];
      if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 1)) throw new Error(`faults.${k} must be a number between 0 and 1`);
    }
    const l = cfg.latencyMs;
    if (l !== undefined && !(typeof l === 'number' && l >= 0) &&
      !(Array.isArray(l) && l.length === 2 && l.every((x) => typeof x === 'number' && x >= 0) && l[0] <= l[1])) {
      throw new Error('faults.latencyMs must be a number >= 0 or [min, max]');
    }
    this.cfg = { ...cfg };
    this.rand = mulberry32(cfg.seed ?? 1);
  }

  get config(): FaultConfig { return { ...this.cfg }; }

  /** True when any fault or latency is configured (skips the PRNG otherwise). */
  get active(): boolean {
    const c = this.cfg;
    return Boolean(c.rate5xx || c.rate429 || c.rateReset || c.latencyMs);
  }

  decide(): FaultDecision {
    if (!this.active) return { kind: 'none', latencyMs: 0 };
    const c = this.cfg;
    // Draw the same number of values every time so one request's outcome does not shift the next ones.
    const r = this.rand(), share = this.rand(), pick = this.rand(), lat = this.rand();
    const l = c.latencyMs;
    const latencyMs = l === undefined ? 0 : typeof l === 'number' ? l : Math.round(l[0] + (l[1] - l[0]) * lat);
    const p5 = c.rate5xx ?? 0, p429 = c.rate429 ?? 0, pr = c.rateReset ?? 0;
    if (r < pr) return { kind: share < (c.resetAfterCommitShare ?? 0) ? 'reset-after' : 'reset-before', latencyMs };
    if (r < pr + p5) return { kind: '5xx', status: ([502, 503, 504] as const)[Math.floor(pick * 3)]!, latencyMs };
    if (r < pr + p5 + p429) return { kind: '429', latencyMs };
    return { kind: 'none', latencyMs };
  }
}
