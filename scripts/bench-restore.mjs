#!/usr/bin/env node
// Restore pacing benchmark (issue 30.7), run after `npm run build` (`npm run bench` calls it): the demo
// account plus N bulk deals (default 20k) backed up from one sandbox process, then restored into an empty
// sandbox whose burst limit is set low (`sandbox start --budget UNITS --window SECONDS`), so the service's
// rate, not our CPU, is the floor. Read from the target's request log (polled while the restore runs):
//   - the cost units the service charged per second, from the restore's first request to its last, as a
//     ratio of the limit (target >= 0.9);
//   - the 429s, and the requests refused twice in a row (a 429 retried more than once; target 0).
// Prints numbers; asserts nothing. BENCH_RESTORE_RECORDS, BENCH_RESTORE_LIMIT and BENCH_RESTORE_WINDOW
// change the sizes; the default limit (200 units/s) is about half of what an unpaced restore sent on the team's 2-core machine (~385 units/s).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measuredCrmctl } from './lib/bulk-measure.mjs';
import { sandboxControl, startSandboxProcess } from './lib/processes.mjs';

const RECORDS = Number(process.env.BENCH_RESTORE_RECORDS ?? 20_000);
const LIMIT = Number(process.env.BENCH_RESTORE_LIMIT ?? 400);
const WINDOW = Number(process.env.BENCH_RESTORE_WINDOW ?? 2);
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const dir = mkdtempSync(join(tmpdir(), 'crmctl-bench-restore-'));
const env = { ...process.env, CRMCTL_CONFIG_DIR: dir };
delete env.CRMCTL_PROFILE;
const a = await startSandboxProcess(['--port', '0', '--no-profile', '--seed', 'demo', '--budget', '100000000', '--window', '1'], env);
const b = await startSandboxProcess(['--port', '0', '--no-profile', '--seed', 'empty', '--budget', String(LIMIT), '--window', String(WINDOW)], env);
const ctlA = sandboxControl(a.info.url);
const ctlB = sandboxControl(b.info.url);

/** The target's request log, read while the restore runs (it keeps the last 10,000 entries): every entry once. */
function logReader() {
  const entries = [];
  let last = 0;
  const read = async () => {
    for (const e of await ctlB('GET', 'requests')) {
      if (e.seq > last) {
        entries.push({ seq: e.seq, time: Date.parse(e.time), method: e.method, path: e.path, body: JSON.stringify(e.body ?? null), status: e.status, cost: e.cost });
        last = e.seq;
      }
    }
  };
  return { entries, read };
}

try {
  const envOf = async (ctl, url) => ({ ...env, CRMCTL_ACCESS_TOKEN: (await ctl('POST', 'tokens', { user_id: 1 })).access_token, CRMCTL_API_DOMAIN: url });
  const envA = await envOf(ctlA, a.info.url);
  const envB = await envOf(ctlB, b.info.url);
  // The day's budget is not what is measured.
  for (const ctl of [ctlA, ctlB]) await ctl('POST', 'budget', { daily_limit: 1_000_000_000, daily_used: 0 });
  await ctlA('POST', 'bulk', { collection: 'deals', count: RECORDS });
  const backupDir = join(dir, 'acme');
  const bk = await measuredCrmctl(['backup', '--out', backupDir], envA);
  if (bk.code !== 0) throw new Error(`backup exited ${bk.code}: ${bk.stderr.slice(-600)}`);
  await ctlB('DELETE', 'requests');

  const log = logReader();
  const poll = setInterval(() => void log.read().catch(() => undefined), 500);
  const r = await measuredCrmctl(['restore', backupDir], envB);
  clearInterval(poll);
  await log.read();
  // The restore's own words, before /usr/bin/time's report.
  if (r.code !== 0) throw new Error(`restore exited ${r.code}: ${r.stderr.split('\tCommand being timed')[0].slice(-1200)}`);

  const api = log.entries.filter((e) => e.path.startsWith('/api/') || e.path.startsWith('/v1/'));
  const charged = api.filter((e) => e.status !== 429).reduce((n, e) => n + e.cost, 0);
  const seconds = (api.at(-1).time - api[0].time) / 1000;
  const rate = charged / seconds;
  const ratio = rate / (LIMIT / WINDOW);
  const refused = api.filter((e) => e.status === 429);
  // One request in flight at a time: a 429 followed by a 429 of the same request is a second retry.
  let twice = 0;
  for (let i = 1; i < api.length; i++) {
    const [p, e] = [api[i - 1], api[i]];
    if (p.status === 429 && e.status === 429 && p.method === e.method && p.path === e.path && p.body === e.body) twice++;
  }
  const writes = api.filter((e) => e.method !== 'GET' && e.status < 400).length;
  // The service's windows, as the sandbox keeps them (a window opens with the first request after the last one
  // ended): how full each was, and how long from one window's opening to the next (idle time between them is lost).
  const windows = [];
  for (const e of api) {
    const w = windows.at(-1);
    if (!w || e.time - w.start >= WINDOW * 1000) windows.push({ start: e.time, units: 0 });
    if (e.status !== 429) windows.at(-1).units += e.cost;
  }
  const steady = windows.slice(1, -1);
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? Number.NaN;
  const fill = median(steady.map((w) => w.units / LIMIT));
  const period = median(steady.slice(0, -1).map((w, i) => (steady[i + 1].start - w.start) / 1000));
  console.log(`restore pacing (sandbox processes on loopback, node ${process.version}): the demo account plus ${fmt(RECORDS)} bulk deals into an empty sandbox limited to ${fmt(LIMIT)} cost units per ${WINDOW} s`);
  console.log(`  crmctl restore DIR          ${r.seconds.toFixed(1).padStart(7)} s  ${fmt(writes)} writes, ${fmt(api.length)} requests, peak RSS ${fmt(r.peakRssKb / 1024, 1)} MB`);
  console.log(`  charged ${fmt(charged)} units in ${seconds.toFixed(1)} s (first to last request) = ${fmt(rate, 1)} units/s of ${fmt(LIMIT / WINDOW, 1)} allowed`);
  console.log(`  ${steady.length} steady windows: median fill ${fill.toFixed(2)} of the limit, median ${period.toFixed(2)} s from one window's opening to the next (the window is ${WINDOW} s)`);
  console.log(`  achieved / limit = ${ratio.toFixed(3)}  (target >= 0.9: ${ratio >= 0.9 ? 'met' : 'MISSED'})`);
  console.log(`  429 answers: ${refused.length}; requests refused twice in a row (a 429 retried more than once): ${twice}  (target 0: ${twice === 0 ? 'met' : 'MISSED'})`);
} finally {
  await a.stop();
  await b.stop();
  rmSync(dir, { recursive: true, force: true });
}
