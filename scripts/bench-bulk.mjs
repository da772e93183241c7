#!/usr/bin/env node
// Bulk benchmarks against a sandbox process on loopback (run after `npm run build`; `npm run bench` calls it):
//  1. export of 100k and 400k leads, then of 100k and 400k deals: records/s and peak RSS of the crmctl process,
//     RSS(400k)/RSS(100k) (target <= 1.25);
//  2. import of 10k leads with a budget low enough to bind: cost spent per window / budget (target >= 0.9),
//     failed rows (target 0), 429s surfaced to the user (target 0) and 429s the sandbox answered (retried).
// Prints numbers; asserts nothing. BENCH_EXPORT_SMALL / BENCH_EXPORT_LARGE / BENCH_IMPORT_ROWS /
// BENCH_BUDGET_LIMIT / BENCH_BUDGET_WINDOW change the sizes.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxControl, startSandboxProcess } from './lib/processes.mjs';
import { collectRequests, measuredCrmctl, windowsOf } from './lib/bulk-measure.mjs';

const SMALL = Number(process.env.BENCH_EXPORT_SMALL ?? 100_000);
const LARGE = Number(process.env.BENCH_EXPORT_LARGE ?? 400_000);
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const LIMIT = Number(process.env.BENCH_BUDGET_LIMIT ?? 4000);
const WINDOW = Number(process.env.BENCH_BUDGET_WINDOW ?? 2);

const dir = mkdtempSync(join(tmpdir(), 'crmctl-bench-bulk-'));
const env = { ...process.env, CRMCTL_CONFIG_DIR: dir };
delete env.CRMCTL_PROFILE;
const sb = await startSandboxProcess(['--port', '0', '--no-profile', '--seed', 'demo'], env);
const url = sb.info.url;
const control = sandboxControl(url);
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

try {
  const token = await control('POST', 'tokens', { user_id: 1 });
  const apiEnv = { ...env, CRMCTL_ACCESS_TOKEN: token.access_token, CRMCTL_API_DOMAIN: url };

  // 1. Export: the same command at two sizes; memory must not grow with the number of records.
  console.log(`bulk export (sandbox on loopback, node ${process.version})`);
  const exportRuns = async (collection) => {
    let inserted = 0;
    const exportRun = async (size) => {
      await control('POST', 'bulk', { collection, count: size - inserted });
      inserted = size;
      const out = join(dir, `${collection}-${size}.ndjson`);
      const m = await measuredCrmctl(['export', collection, '--out', out], apiEnv);
      if (m.code !== 0) throw new Error(`export exited ${m.code}: ${m.stderr.split('\tCommand being timed')[0].slice(-800)}`);
      const records = readFileSync(out, 'utf8').split('\n').length - 1;
      const bytes = statSync(out).size;
      rmSync(out);
      console.log(`  ${fmt(records).padStart(9)} ${collection.padEnd(5)}  ${m.seconds.toFixed(1).padStart(6)} s  ${fmt(records / m.seconds).padStart(8)} records/s  ${fmt(bytes / 1e6, 1).padStart(7)} MB  peak RSS ${fmt(m.peakRssKb / 1024, 1)} MB (${m.via})`);
      return m.peakRssKb;
    };
    const rssSmall = await exportRun(SMALL);
    const rssLarge = await exportRun(LARGE);
    const ratio = rssLarge / rssSmall;
    console.log(`  ${collection}: RSS(${fmt(LARGE)})/RSS(${fmt(SMALL)}) = ${ratio.toFixed(2)}  (target <= 1.25: ${ratio <= 1.25 ? 'met' : 'MISSED'})`);
  };
  await exportRuns('leads');
  await exportRuns('deals');

  // 2. Import under a budget that binds.
  await control('POST', 'reset', { seed: 'demo' });
  await control('PUT', 'config', { budget: { limit: LIMIT, windowSec: WINDOW } });
  const file = join(dir, 'leads-import.ndjson');
  writeFileSync(file, `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({
    title: `Imported lead ${i + 1}`, organization_id: (i % 6) + 1, value: { amount: 100 + i, currency: 'EUR' },
  })).join('\n')}\n`);
  console.log(`bulk import of ${fmt(ROWS)} leads, budget ${fmt(LIMIT)} per ${WINDOW} s window (cost 10 per lead)`);
  const { result: m, requests } = await collectRequests(url, () => measuredCrmctl(['import', 'leads', '--file', file], apiEnv));
  const results = readFileSync(`${file}.results.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const failed = results.filter((r) => r.error).length;
  const surfaced = results.filter((r) => /\b429\b|Rate limited/.test(r.error ?? '')).length + (m.code === 6 ? 1 : 0);
  const answered429 = requests.filter((r) => r.status === 429).length;
  const windows = windowsOf(requests, WINDOW);
  // Steady state: the first window is opened by the custom-field read that precedes validation of
  // the whole file, and the last one is partial by nature; both are left out (and printed).
  const full = windows.slice(1, -1);
  const perWindow = full.length ? full.reduce((s, w) => s + w.cost, 0) / full.length / LIMIT : NaN;
  const spent = requests.reduce((s, r) => s + r.cost, 0);
  const first = Math.min(...requests.map((r) => r.time));
  const last = Math.max(...requests.map((r) => r.time));
  const wall = spent / (((last - first) / 1000 / WINDOW) * LIMIT);
  console.log(`  ${fmt(results.length - failed)} created in ${m.seconds.toFixed(1)} s (exit ${m.code}), ${fmt(requests.length)} requests, ${fmt(spent)} cost units`);
  console.log(`  cost per window / budget      ${perWindow.toFixed(2)}  over ${full.length} steady windows (target >= 0.9: ${perWindow >= 0.9 ? 'met' : 'MISSED'}); first ${(windows[0].cost / LIMIT).toFixed(2)}, last ${(windows[windows.length - 1].cost / LIMIT).toFixed(2)}`);
  console.log(`  cost per second / budget rate ${wall.toFixed(2)}  (wall clock, first to last request)`);
  console.log(`  failed rows                   ${failed}  (target 0: ${failed === 0 ? 'met' : 'MISSED'})`);
  console.log(`  429s surfaced to the user     ${surfaced}  (target 0: ${surfaced === 0 ? 'met' : 'MISSED'})`);
  console.log(`  429s answered by the sandbox  ${answered429}  (retried by the client)`);
  console.log(`  peak RSS of crmctl import     ${fmt(m.peakRssKb / 1024, 1)} MB`);
} finally {
  await sb.stop();
  rmSync(dir, { recursive: true, force: true });
}
