// The HTML digest in a real browser (Debian's Chromium through playwright-core): the charts render, and
// the numbers read back from their SVG (labels, values, bar sizes) are the analytics' and the audit's
// own (--json of the same period); it makes no request; it fits a phone's width; it prints on A4.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`test/health/digest-browser.test.ts skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
const PERIOD = ['--pipeline', 'Sales', '--as-of', '2025-02-01', '--from', '2024-11-04', '--region', 'EE'];

type Mark = { label: string; value: number; text: string; width: number; height: number };

describe.skipIf(!haveChromium)(`the digest in a real browser (${CHROMIUM})`, () => {
  let fx: SandboxFixture;
  let dir: string;
  let file: string;
  let browser: import('playwright-core').Browser | undefined;

  beforeAll(async () => {
    fx = await startFixture({ seed: 'demo' });
    dir = mkdtempSync(join(tmpdir(), 'crmctl-digest-browser-'));
    file = join(dir, 'digest.html');
    const r = await runCli(['digest', ...PERIOD, '--out', file], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function open(viewport = { width: 1000, height: 900 }) {
    const page = await browser!.newPage({ viewport });
    const requests: string[] = [];
    page.on('request', (q) => {
      if (!q.url().startsWith('file:')) requests.push(q.url());
    });
    await page.goto(`file://${file}`);
    return { page, requests };
  }

  const marks = (page: import('playwright-core').Page, chart: string): Promise<Mark[]> =>
    page.$$eval(`svg[data-chart="${chart}"] g.mark`, (gs) =>
      gs.map((g) => {
        const shape = g.querySelector('rect, path')!.getBoundingClientRect();
        return { label: g.getAttribute('data-label')!, value: Number(g.getAttribute('data-value')), text: g.querySelector('text.value')!.textContent!, width: shape.width, height: shape.height };
      }),
    );

  async function json(args: string[]): Promise<any[]> {
    const r = await runCli([...args, '--json'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  }

  it('the funnel chart shows the analytics funnel: a bar per stage, its number, lengths in proportion', async () => {
    const { page, requests } = await open();
    const shot = join(dir, 'digest.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(20_000);
    const funnel = await json(['analytics', 'funnel', ...PERIOD.filter((a) => a !== '--region' && a !== 'EE')]);
    const got = await marks(page, 'funnel');
    expect(got.map((m) => [m.label, m.value, m.text])).toEqual(funnel.map((r) => [r.stage, r.reached, String(r.reached)]));
    // Drawn lengths follow the numbers: 11 → the longest bar, and 9/11 of it for 9.
    const longest = got[0]!.width;
    for (const m of got) expect(m.width / longest).toBeCloseTo(m.value / got[0]!.value, 2);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('the forecast charts (one per currency) show the weighted values by month, and the running total line', async () => {
    const { page } = await open();
    const forecast = await json(['analytics', 'forecast', ...PERIOD.filter((a) => a !== '--region' && a !== 'EE')]);
    for (const cur of ['EUR', '(none)']) {
      const rows = forecast.filter((r) => r.currency === cur);
      const got = await marks(page, `forecast-${cur}`);
      expect(got.map((m) => [m.label, m.value])).toEqual(rows.map((r) => [r.month, r.weighted]));
      expect(got.every((m) => m.height > 0)).toBe(true);
      let run = 0;
      const totals = rows.map((r) => (run += r.weighted));
      expect(await page.getAttribute(`svg[data-chart="forecast-${cur}"] path.running-total`, 'data-values')).toBe(totals.join(','));
    }
    await page.close();
  });

  it('the audit charts: findings per check and per severity are the audit\'s', async () => {
    const { page } = await open();
    const findings = await json(['audit', '--as-of', '2025-02-01', '--region', 'EE']);
    const count = (key: 'check' | 'severity', v: string) => findings.filter((f) => f[key] === v).length;
    const checks = await marks(page, 'checks');
    expect(checks.length).toBe(new Set(findings.map((f) => f.check)).size);
    for (const m of checks) expect([m.label, m.value]).toEqual([m.label, count('check', m.label)]);
    const severity = await marks(page, 'severity');
    expect(severity.map((m) => [m.label, m.value])).toEqual([['error', 4], ['warning', 13], ['info', 8]].map(([s]) => [s, count('severity', s as string)]));
    expect(await page.textContent('svg[data-chart="severity"] text.total')).toBe(String(findings.length));
    await page.close();
  });

  it('fits a phone: nothing wider than the screen but the tables, which scroll in their own box', async () => {
    const { page } = await open({ width: 375, height: 740 });
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      view: window.innerWidth,
      charts: [...document.querySelectorAll('svg.chart')].map((s) => s.getBoundingClientRect().right),
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    for (const right of widths.charts) expect(right).toBeLessThanOrEqual(widths.view);
    await page.screenshot({ path: join(dir, 'phone.png'), fullPage: true });
    await page.close();
  });

  it('prints on A4 pages', async () => {
    const { page } = await open();
    await page.emulateMedia({ media: 'print' });
    expect(await page.evaluate(() => getComputedStyle(document.body).maxWidth)).toBe('none');
    const pdf = await page.pdf({ preferCSSPageSize: true });
    writeFileSync(join(dir, 'digest.pdf'), pdf);
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    // Every page is A4: 595 x 842 points (Chromium writes 594.96 x 841.92).
    const boxes = [...text.matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(boxes.length).toBeGreaterThan(1);
    for (const [w, h] of boxes) expect([Math.round(w!), Math.round(h!)]).toEqual([595, 842]);
    await page.close();
  });
});
