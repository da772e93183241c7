#!/usr/bin/env node
// Account-health benchmarks against a sandbox process on loopback (run after `npm run build`; `npm run
// bench` calls it):
//  1. `crmctl audit` (every check) of an account with 50k deals against `crmctl export deals` of the
//     same account, in interleaved rounds: wall-time ratio audit/export (target <= 1.2: the audit costs
//     about what reading the deals costs), and the peak RSS of each;
//  2. the duplicate search over 50k persons with random names (in this process, from dist/): its time
//     and the name pairs it compared (all pairs would be 1.25 billion).
// Prints numbers; asserts nothing. BENCH_HEALTH_DEALS and BENCH_HEALTH_ROUNDS change the sizes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxControl, startSandboxProcess } from './lib/processes.mjs';
import { measuredCrmctl } from './lib/bulk-measure.mjs';

const DEALS = Number(process.env.BENCH_HEALTH_DEALS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_HEALTH_ROUNDS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const dir = mkdtempSync(join(tmpdir(), 'crmctl-bench-health-'));
const env = { ...process.env, CRMCTL_CONFIG_DIR: dir };
delete env.CRMCTL_PROFILE;
const sb = await startSandboxProcess(['--port', '0', '--no-profile', '--seed', 'demo', '--budget', '100000000', '--window', '1'], env);
const url = sb.info.url;
const control = sandboxControl(url);

try {
  const token = await control('POST', 'tokens', { user_id: 1 });
  const apiEnv = { ...env, CRMCTL_ACCESS_TOKEN: token.access_token, CRMCTL_API_DOMAIN: url };
  await control('POST', 'bulk', { collection: 'deals', count: DEALS });
  console.log(`account health (sandbox on loopback, node ${process.version}): ${fmt(DEALS)} bulk deals plus the demo account`);
  const out = join(dir, 'deals.ndjson');
  const runs = { audit: [], export: [] };
  for (let i = 0; i < ROUNDS + 1; i++) {
    const e = await measuredCrmctl(['export', 'deals', '--out', out], apiEnv);
    if (e.code !== 0) throw new Error(`export exited ${e.code}: ${e.stderr.slice(-600)}`);
    const a = await measuredCrmctl(['audit', '--output', 'ndjson'], apiEnv);
    if (a.code !== 0) throw new Error(`audit exited ${a.code}: ${a.stderr.slice(-600)}`);
    // The export keeps a journal beside its file: without it gone too, the next round says "already done" and reads nothing.
    rmSync(out, { force: true });
    rmSync(`${out}.checkpoint.json`, { force: true });
    if (i === 0) continue; // the first round warms the sandbox's list cache and the file cache
    runs.export.push(e);
    runs.audit.push(a);
  }
  const ratio = median(runs.audit.map((a, i) => a.seconds / runs.export[i].seconds));
  for (const [name, rs] of Object.entries(runs)) {
    console.log(`  crmctl ${name.padEnd(6)} ${median(rs.map((r) => r.seconds)).toFixed(2).padStart(6)} s  peak RSS ${fmt(median(rs.map((r) => r.peakRssKb)) / 1024, 1)} MB  (median of ${ROUNDS})`);
  }
  console.log(`  audit / export of the same deals = ${ratio.toFixed(2)}  (target <= 1.2: ${ratio <= 1.2 ? 'met' : 'MISSED'})`);
} finally {
  await sb.stop();
  rmSync(dir, { recursive: true, force: true });
}

// 2. The duplicate search alone: 50k persons, names of random letters (mulberry32, a fixed seed).
const { groupDuplicates } = await import('../dist/health/duplicates.js');
const { personCandidate } = await import('../dist/health/candidates.js');
let seed = 42;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const word = (n) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
const persons = Array.from({ length: 50_000 }, (_, i) => ({ id: i + 1, name: `${word(4 + Math.floor(rand() * 5))} ${word(5 + Math.floor(rand() * 6))}`, add_time: '', emails: [{ value: `p${i}@example.org` }], phones: [] }));
const t0 = process.hrtime.bigint();
const cands = persons.map((p) => personCandidate(p, ['email', 'phone', 'name'], 'EE'));
const r = groupDuplicates(cands, { byName: true, threshold: 0.88 });
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
console.log(`  duplicate search of 50,000 persons: ${fmt(ms)} ms, ${fmt(r.comparisons)} name pairs compared (all pairs: 1,249,975,000), ${r.groups.length} groups`);
