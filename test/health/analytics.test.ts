// crmctl analytics on the demo seed, checked against a computation by hand. The Sales pipeline
// (stages 1-5, deal probability off) as of 1 Feb 2025 holds 12 deals (added by then); the period is
// the 90 days up to it, 2024-11-04 to 2025-02-01:
//
//  id  status stage  value         owner  added       stage since  expected    closed      history (dirt.ts)
//   1  open   3      24,000 EUR    Ada    2025-01-06  2025-01-07   2025-03-15
//   2  open   1       8,000 EUR    Reggie 2025-01-07  2025-01-08   2025-04-15
//   3  won    4      12,500 USD    Ada    2025-01-08               2025-05-15  won 01-11
//   4  open   5      56,000 EUR    Sam    2025-01-09  2025-01-10   2025-06-15
//   6  lost   2       4,300 GBP    Reggie 2025-01-11               2025-08-15  lost 01-14
//   7  open   2       9,600 EUR    Ada    2025-01-20  2025-01-20   2025-06-30
//   8  won    4      15,400 EUR    Reggie 2025-01-21               2025-06-30  won 01-23
//  15  open   2       7,000 EUR 50% Ada   2024-10-01  2024-10-21   2025-03-31              1→2 10-21
//  16  open   1       2,500 EUR    Reggie 2024-12-01               2025-01-15              close date 12-20→01-15 on 12-18
//  17  open   2       3,000 (none) Sam    2025-01-15  2025-01-25   2025-04-30              1→2 01-25
//  18  open   3      11,000 EUR    Reggie 2025-01-02  2025-01-22   2025-05-31              1→2 01-12, 2→3 01-22; close date 03-31→05-31 on 01-29
//  19  won    4       5,000 EUR    Ada    2024-12-02               2025-01-31  won 01-16   1→2 12-12, 2→3 12-22, 3→4 01-06
//
// (Deals 11, 12 and 14 of the Sales pipeline were added after 1 Feb 2025: left out.)
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

const AT = ['--pipeline', 'Sales', '--as-of', '2025-02-01'];

async function metric(name: string, extra: string[] = []): Promise<any[]> {
  const r = await runCli(['analytics', name, ...AT, ...extra, '--json'], { env: fx.env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('crmctl analytics, by hand', () => {
  it('funnel: the 11 deals added in the period (all but 15); won deals passed every stage', async () => {
    // reached: stage 1 all 11; stage 2: won 3, 8, 19 + 1, 4, 6, 7, 17, 18; stage 3: won + 1, 4, 18; stages 4, 5: won + 4.
    expect(await metric('funnel')).toEqual([
      { stage: 'Qualified', order: 1, reached: 11, open_here: 2, lost_here: 0, to_next: 81.8, of_first: 100 },
      { stage: 'Contact Made', order: 2, reached: 9, open_here: 2, lost_here: 1, to_next: 66.7, of_first: 81.8 },
      { stage: 'Demo Scheduled', order: 3, reached: 6, open_here: 2, lost_here: 0, to_next: 66.7, of_first: 54.5 },
      { stage: 'Proposal Made', order: 4, reached: 4, open_here: 0, lost_here: 0, to_next: 100, of_first: 36.4 },
      { stage: 'Negotiations Started', order: 5, reached: 4, open_here: 1, lost_here: 0, to_next: 75, of_first: 36.4 },
      { stage: 'won', order: 6, reached: 3, open_here: 0, lost_here: 0, to_next: null, of_first: 27.3 },
    ]);
  });

  it('forecast: open deals by month and currency; weighted at 100 % (the pipeline does not weigh) except deal 15 (50 %)', async () => {
    expect(await metric('forecast')).toEqual([
      { month: '2025-01', currency: 'EUR', deals: 1, value: 2500, weighted: 2500 }, // 16
      { month: '2025-03', currency: 'EUR', deals: 2, value: 31000, weighted: 27500 }, // 1, 15 (7,000 × 50 %)
      { month: '2025-04', currency: '(none)', deals: 1, value: 3000, weighted: 3000 }, // 17: never added to EUR
      { month: '2025-04', currency: 'EUR', deals: 1, value: 8000, weighted: 8000 }, // 2
      { month: '2025-05', currency: 'EUR', deals: 1, value: 11000, weighted: 11000 }, // 18
      { month: '2025-06', currency: 'EUR', deals: 2, value: 65600, weighted: 65600 }, // 4, 7
    ]);
  });

  it('aging: days to the end of 1 Feb 2025, since added and since the stage changed', async () => {
    expect(await metric('aging')).toEqual([
      // 2: 25 and 24 days; 16: 62 and 62 (never moved).
      { stage: 'Qualified', order: 1, open: 2, avg_age_days: 43.5, avg_days_in_stage: 43, '0-30': 1, '31-60': 0, '61-90': 1, '91+': 0 },
      // 7: 12 and 12; 15: 123 and 103; 17: 17 and 7.
      { stage: 'Contact Made', order: 2, open: 3, avg_age_days: 50.7, avg_days_in_stage: 40.7, '0-30': 2, '31-60': 0, '61-90': 0, '91+': 1 },
      // 1: 26 and 25; 18: 30 and 10.
      { stage: 'Demo Scheduled', order: 3, open: 2, avg_age_days: 28, avg_days_in_stage: 17.5, '0-30': 2, '31-60': 0, '61-90': 0, '91+': 0 },
      { stage: 'Proposal Made', order: 4, open: 0, avg_age_days: 0, avg_days_in_stage: 0, '0-30': 0, '31-60': 0, '61-90': 0, '91+': 0 },
      // 4: 23 and 22.
      { stage: 'Negotiations Started', order: 5, open: 1, avg_age_days: 23, avg_days_in_stage: 22, '0-30': 1, '31-60': 0, '61-90': 0, '91+': 0 },
    ]);
  });

  it('scorecard: per owner and currency; win rate over the owner\'s won and lost deals of the period', async () => {
    expect(await metric('scorecard')).toEqual([
      { owner_id: 1, owner: 'Ada Admin', currency: 'EUR', open: 3, open_value: 40600, won: 1, won_value: 5000, lost: 0, win_rate: 100, avg_won: 5000 }, // open 1, 7, 15; won 19
      { owner_id: 1, owner: 'Ada Admin', currency: 'USD', open: 0, open_value: 0, won: 1, won_value: 12500, lost: 0, win_rate: 100, avg_won: 12500 }, // won 3
      { owner_id: 2, owner: 'Reggie Regular', currency: 'EUR', open: 3, open_value: 21500, won: 1, won_value: 15400, lost: 0, win_rate: 50, avg_won: 15400 }, // open 2, 16, 18; won 8
      { owner_id: 2, owner: 'Reggie Regular', currency: 'GBP', open: 0, open_value: 0, won: 0, won_value: 0, lost: 1, win_rate: 50, avg_won: null }, // lost 6
      { owner_id: 3, owner: 'Sam Seller', currency: '(none)', open: 1, open_value: 3000, won: 0, won_value: 0, lost: 0, win_rate: null, avg_won: null }, // 17
      { owner_id: 3, owner: 'Sam Seller', currency: 'EUR', open: 1, open_value: 56000, won: 0, won_value: 0, lost: 0, win_rate: null, avg_won: null }, // 4
    ]);
  });

  it('scorecard --convert-to EUR: every rate given, one row per owner (the deal without a currency stays apart)', async () => {
    const rows = await metric('scorecard', ['--convert-to', 'EUR', '--rate', 'USD=0.9', '--rate', 'GBP=1.2']);
    expect(rows.map((r) => [r.owner, r.currency, r.open_value, r.won, r.won_value, r.lost, r.avg_won])).toEqual([
      ['Ada Admin', 'EUR', 40600, 2, 16250, 0, 8125], // 5,000 + 12,500 × 0.9
      ['Reggie Regular', 'EUR', 21500, 1, 15400, 1, 15400],
      ['Sam Seller', '(none)', 3000, 0, 0, 0, null],
      ['Sam Seller', 'EUR', 56000, 0, 0, 0, null],
    ]);
  });

  it('coverage: Q1 2025 of the company revenue goal: won 8 and 19 so far; open 1, 15 and 16 expected in Q1', async () => {
    expect(await metric('coverage')).toEqual([
      { goal: 'Company revenue 2025', assignee: 'company', period_start: '2025-01-01', period_end: '2025-03-31', metric: 'sum', currency: 'EUR', target: 100000, won: 20400, remaining: 79600, open: 33500, weighted: 30000, coverage: 0.42 },
    ]);
  });

  it('velocity: completed stays of the period per stage, deals in each stage now, the cycle of the won deals', async () => {
    expect(await metric('velocity')).toEqual([
      // done: 17, 18, 19 (10 days each; 15 left it before the period); now: 2 (25), 16 (62).
      { stage: 'Qualified', order: 1, stays: 3, avg_days: 10, median_days: 10, open_now: 2, open_avg_days: 43.5 },
      // done: 6 (3, lost), 18 (10), 19 (10); now: 7 (12), 15 (103), 17 (7).
      { stage: 'Contact Made', order: 2, stays: 3, avg_days: 7.7, median_days: 10, open_now: 3, open_avg_days: 40.7 },
      // done: 19 (15); now: 1 (26), 18 (10).
      { stage: 'Demo Scheduled', order: 3, stays: 1, avg_days: 15, median_days: 15, open_now: 2, open_avg_days: 18 },
      // done: 3 (3, won), 8 (2, won), 19 (10, won).
      { stage: 'Proposal Made', order: 4, stays: 3, avg_days: 5, median_days: 3, open_now: 0, open_avg_days: null },
      { stage: 'Negotiations Started', order: 5, stays: 0, avg_days: null, median_days: null, open_now: 1, open_avg_days: 23 },
      // 3: 3 days, 8: 2, 19: 45.
      { stage: 'cycle (added → won)', order: 6, stays: 3, avg_days: 16.7, median_days: 3, open_now: 0, open_avg_days: null },
    ]);
  });

  it('slippage: close dates pushed later, most days first', async () => {
    expect(await metric('slippage')).toEqual([
      { id: 18, title: 'Globex renewal 2025', owner_id: 2, status: 'open', pushes: 1, days_pushed: 61, pulled_in: 0, first_date: '2025-03-31', current_date: '2025-05-31', value: 11000, currency: 'EUR' },
      { id: 16, title: 'Stark spare parts', owner_id: 2, status: 'open', pushes: 1, days_pushed: 26, pulled_in: 0, first_date: '2024-12-20', current_date: '2025-01-15', value: 2500, currency: 'EUR' },
    ]);
  });
});

describe('crmctl analytics: reads and refusals', () => {
  it('one read of the pipeline: pipelines, its stages, its deals (by pipeline_id, 500 a page)', async () => {
    await metric('forecast');
    const reqs = (await fx.requests()).filter((q) => q.path.startsWith('/api/'));
    expect(reqs.map((q) => `${q.path} ${JSON.stringify(q.query)}`)).toEqual([
      '/api/v2/pipelines {"limit":"500"}',
      '/api/v2/stages {"pipeline_id":"1","limit":"500"}',
      '/api/v2/deals {"pipeline_id":"1","limit":"500"}',
    ]);
  });

  it('history metrics read one changelog per deal of the period, and say the cost first', async () => {
    const r = await runCli(['analytics', 'velocity', ...AT], { env: fx.env, tty: true, columns: 150 });
    expect(r.code, r.stderr).toBe(0);
    const err = r.stderr.split('\n');
    expect(err[0]).toBe("analytics reads: pipelines (5), stages (5), the pipeline's deals (10 a page of 500)");
    expect(err[1]).toMatch(/^cost: at least 20 tokens of [\d,]+ left today$/);
    expect(r.stderr).toContain('analytics reads: the changelog of 12 deals for velocity (20 each)');
    expect(r.stderr).toMatch(/cost: at least 240 tokens of [\d,]+ left today/);
    const logs = (await fx.requests()).filter((q) => q.path.endsWith('/changelog'));
    expect(logs.map((q) => q.path)).toEqual([1, 2, 3, 4, 6, 7, 8, 15, 16, 17, 18, 19].map((id) => `/api/v1/deals/${id}/changelog`));
    expect(logs.reduce((n, q) => n + q.cost, 0)).toBe(240);
  });

  it('several pipelines and no --pipeline: exit 2 naming the flag and the pipelines', async () => {
    const r = await runCli(['analytics', 'funnel'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: --pipeline: is required: the account has 2 pipelines (Sales (1), Partnerships (2)); give a name or an id');
    const r2 = await runCli(['analytics', 'funnel', '--pipeline', 'Sale'], { env: fx.env });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain('error: --pipeline: no pipeline "Sale" in the account; pipelines: Sales (1), Partnerships (2)');
    await fx.clearRequests();
    const r3 = await runCli(['analytics', 'funnel', ...AT, '--from', '2025-03-01'], { env: fx.env });
    expect(r3.code).toBe(2);
    expect(r3.stderr).toContain('error: --from: must be on or before the end of the period, 2025-02-01 (--as-of)');
    expect(await fx.requests()).toEqual([]);
  });

  it('conversion refusals: a rate missing, a currency the account does not have, a rate without --convert-to', async () => {
    const a = await runCli(['analytics', 'scorecard', ...AT, '--convert-to', 'EUR', '--rate', 'USD=0.9'], { env: fx.env });
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('error: --rate: no rate for GBP: give --rate GBP=<EUR for one GBP> for each');
    const b = await runCli(['analytics', 'scorecard', ...AT, '--convert-to', 'XYZ'], { env: fx.env });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('error: --convert-to: must be a currency of the account (EUR, USD, GBP, SEK); got "XYZ"');
    await fx.clearRequests();
    const c = await runCli(['analytics', 'scorecard', ...AT, '--rate', 'USD=0.9'], { env: fx.env });
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('error: --rate: needs --convert-to (the currency the rates convert into)');
    expect(await fx.requests()).toEqual([]);
  });
});
