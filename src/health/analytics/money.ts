import { ValidationError } from '../../core/errors.js';
import type { DealRecord, PipelineRecord, StageRecord } from '../types.js';

/**
 * Money in the analytics is never added across currencies: every sum is kept per currency and shown
 * as one row per currency, unless `--convert-to CUR` with a `--rate X=n` for every other currency
 * present (n units of CUR for one X; the service gives no exchange rates, so they are yours to give).
 * A deal without a currency stays in its own bucket, `(none)`, converted or not.
 */

export const NO_CURRENCY = '(none)';

export interface Conversion {
  to: string;
  /** Units of `to` for one unit of the key. */
  rates: Map<string, number>;
}

export const currencyOf = (d: Pick<DealRecord, 'currency'>): string => (d.currency ? d.currency.toUpperCase() : NO_CURRENCY);

/** `--rate USD=0.92` values → a map; the codes checked against the account's currencies. */
export function parseRates(to: string, raw: readonly string[], accountCurrencies: readonly string[]): Conversion {
  const known = new Set(accountCurrencies.map((c) => c.toUpperCase()));
  const target = to.toUpperCase();
  if (!known.has(target)) throw new ValidationError([{ field: '--convert-to', rule: `must be a currency of the account (${[...known].join(', ')}); got ${JSON.stringify(to)}` }]);
  const rates = new Map<string, number>([[target, 1]]);
  for (const r of raw) {
    const m = /^\s*([A-Za-z]{3})\s*=\s*([0-9]+(?:\.[0-9]+)?)\s*$/.exec(r);
    if (!m || Number(m[2]) <= 0) throw new ValidationError([{ field: '--rate', rule: `must be CODE=number, e.g. USD=0.92 (${target} for one USD); got ${JSON.stringify(r)}` }]);
    const code = m[1]!.toUpperCase();
    if (!known.has(code)) throw new ValidationError([{ field: '--rate', rule: `${code} is not a currency of the account (${[...known].join(', ')})` }]);
    rates.set(code, Number(m[2]));
  }
  return { to: target, rates };
}

/** Every currency the deals use has a rate (exit 2 naming the first missing one). */
export function checkRatesCover(conv: Conversion, deals: readonly DealRecord[]): void {
  const missing = [...new Set(deals.map(currencyOf))].filter((c) => c !== NO_CURRENCY && !conv.rates.has(c)).sort();
  if (missing.length) throw new ValidationError([{ field: '--rate', rule: `no rate for ${missing.join(', ')}: give --rate ${missing[0]}=<${conv.to} for one ${missing[0]}> for each` }]);
}

/** The currency a deal's money is shown in, and its amount there. */
export function money(d: DealRecord, conv: Conversion | undefined): { currency: string; value: number } {
  const cur = currencyOf(d);
  const value = typeof d.value === 'number' ? d.value : 0;
  if (!conv || cur === NO_CURRENCY) return { currency: cur, value };
  return { currency: conv.to, value: value * conv.rates.get(cur)! };
}

/**
 * The probability a weighted value uses (the service's rule): the deal's own when set, else its stage's
 * when the pipeline weighs deals by stage, else 100.
 */
export function probability(d: DealRecord, stage: StageRecord | undefined, pipeline: PipelineRecord): number {
  if (typeof d.probability === 'number') return d.probability;
  return stage && pipeline.is_deal_probability_enabled ? stage.deal_probability : 100;
}

/** Amounts to two decimals (sums of cents stay exact in print). */
export const round2 = (n: number): number => Math.round(n * 100) / 100;

/** Sums per key, keys kept in the order first met. */
export class Sums<K> {
  private readonly m = new Map<string, { key: K; v: Record<string, number> }>();
  add(id: string, key: K, values: Record<string, number>): void {
    const cur = this.m.get(id) ?? { key, v: {} };
    for (const [k, x] of Object.entries(values)) cur.v[k] = (cur.v[k] ?? 0) + x;
    this.m.set(id, cur);
  }
  entries(): Array<{ key: K; v: Record<string, number> }> {
    return [...this.m.values()];
  }
}
