#!/usr/bin/env node
// Start-up benchmark: wall time of crmctl commands as ratios to `node -e 0` measured in the same
// rounds (so the numbers travel between machines). Prints numbers; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startSandboxProcess } from './lib/processes.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function once(args, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/**
 * Round-robin: each round times the baseline and every command back to back, so a slow spell of a
 * shared machine hits them alike; a command's ratio is the median of its per-round ratios.
 */
function measure(cases, baselineArgs, env) {
  const samples = cases.map(() => []);
  const base = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const b = once(baselineArgs, env);
    const times = cases.map((c) => once(c.args, c.env));
    if (i < 2) continue; // the first two rounds warm the file cache
    base.push(b);
    times.forEach((t, k) => {
      samples[k].push({ ms: t, ratio: t / b });
    });
  }
  return { baseline: median(base), results: samples.map((xs) => ({ ms: median(xs.map((x) => x.ms)), ratio: median(xs.map((x) => x.ratio)) })) };
}

const env = { ...process.env, CRMCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'crmctl-bench-')) };
const sb = await startSandboxProcess(['--port', '0', '--no-profile'], env);
try {
  const token = await (await fetch(`${sb.info.url}/__sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user_id: 1 }) })).json();
  const apiEnv = { ...env, CRMCTL_ACCESS_TOKEN: token.access_token ?? token.data?.access_token, CRMCTL_API_DOMAIN: sb.info.url };
  const cases = [
    { name: 'crmctl --version', args: [BIN, '--version'], env, target: 1.3 },
    { name: 'crmctl --help', args: [BIN, '--help'], env, target: 1.2 },
    { name: 'crmctl leads list --json', args: [BIN, 'leads', 'list', '--json'], env: apiEnv, target: 2.5 },
    { name: 'crmctl deals list --json', args: [BIN, 'deals', 'list', '--json'], env: apiEnv, target: 2.0 },
  ];
  const { baseline, results } = measure(cases, ['-e', '0'], env);
  console.log(`start-up, median of ${RUNS} interleaved rounds, node ${process.version}`);
  console.log(`  node -e 0 (baseline)          ${baseline.toFixed(1).padStart(7)} ms   1.00x`);
  cases.forEach((c, k) => {
    const { ms, ratio } = results[k];
    console.log(`  ${c.name.padEnd(29)} ${ms.toFixed(1).padStart(7)} ms   ${ratio.toFixed(2)}x  (target ${c.target}x: ${ratio <= c.target ? 'met' : 'MISSED'})`);
  });
} finally {
  await sb.stop();
}

// Bulk export/import benchmarks: their own script (minutes, not seconds), run after the start-up numbers.
// BENCH_STARTUP_ONLY=1 skips them.
if (process.env.BENCH_STARTUP_ONLY !== '1') spawnSync(process.execPath, [new URL('./bench-bulk.mjs', import.meta.url).pathname], { stdio: 'inherit' });
// Account health: audit of 50k deals against an export of them (scripts/bench-health.mjs).
if (process.env.BENCH_STARTUP_ONLY !== '1') spawnSync(process.execPath, [new URL('./bench-health.mjs', import.meta.url).pathname], { stdio: 'inherit' });
// Whole-account backup: backup of the demo plus 20k deals against an export of them, memory at 100k (scripts/bench-backup.mjs).
if (process.env.BENCH_STARTUP_ONLY !== '1') spawnSync(process.execPath, [new URL('./bench-backup.mjs', import.meta.url).pathname], { stdio: 'inherit' });
// Restore pacing: the demo plus 20k deals restored into a sandbox with a low burst limit (scripts/bench-restore.mjs).
if (process.env.BENCH_STARTUP_ONLY !== '1') spawnSync(process.execPath, [new URL('./bench-restore.mjs', import.meta.url).pathname], { stdio: 'inherit' });
// The record of changes: an import of 10k rows with the record on vs off, and single writes' prior-value reads (scripts/bench-record.mjs).
if (process.env.BENCH_STARTUP_ONLY !== '1') spawnSync(process.execPath, [new URL('./bench-record.mjs', import.meta.url).pathname], { stdio: 'inherit' });
