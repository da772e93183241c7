import type { PipelineData } from './load.js';
import { money, round2, Sums } from './money.js';

/**
 * Per owner and currency: open deals and their value now, deals won and lost within the period, the
 * owner's win rate (won / (won + lost) within the period, all currencies: a count, not money) and the
 * average won deal.
 */
export interface ScorecardRow {
  owner_id: number;
  owner: string;
  currency: string;
  open: number;
  open_value: number;
  won: number;
  won_value: number;
  lost: number;
  win_rate: number | null;
  avg_won: number | null;
}

const inPeriod = (t: string | null, d: PipelineData) => Boolean(t) && t!.slice(0, 10) >= d.from && t!.slice(0, 10) <= d.to;

export function scorecard(d: PipelineData, users: ReadonlyMap<number, string>): ScorecardRow[] {
  const sums = new Sums<{ owner: number; currency: string }>();
  const rate = new Map<number, { won: number; lost: number }>();
  for (const x of d.deals) {
    const m = money(x, d.conv);
    const won = x.status === 'won' && inPeriod(x.won_time, d);
    const lost = x.status === 'lost' && inPeriod(x.lost_time, d);
    const open = x.status === 'open';
    if (!won && !lost && !open) continue;
    sums.add(`${x.owner_id}|${m.currency}`, { owner: x.owner_id, currency: m.currency }, {
      open: open ? 1 : 0, open_value: open ? m.value : 0, won: won ? 1 : 0, won_value: won ? m.value : 0, lost: lost ? 1 : 0,
    });
    const r = rate.get(x.owner_id) ?? { won: 0, lost: 0 };
    r.won += won ? 1 : 0;
    r.lost += lost ? 1 : 0;
    rate.set(x.owner_id, r);
  }
  return sums
    .entries()
    .map(({ key, v }) => {
      const r = rate.get(key.owner)!;
      return {
        owner_id: key.owner,
        owner: users.get(key.owner) ?? `user ${key.owner}`,
        currency: key.currency,
        open: v.open!,
        open_value: round2(v.open_value!),
        won: v.won!,
        won_value: round2(v.won_value!),
        lost: v.lost!,
        win_rate: r.won + r.lost ? Math.round((r.won / (r.won + r.lost)) * 1000) / 10 : null,
        avg_won: v.won ? round2(v.won_value! / v.won) : null,
      };
    })
    .sort((a, b) => a.owner.localeCompare(b.owner) || a.currency.localeCompare(b.currency));
}
