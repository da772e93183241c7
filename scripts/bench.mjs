#!/usr/bin/env node
// Start-up benchmark: median wall time of crmctl commands as ratios to `node -e 0` measured in the
// same run (so the numbers travel between machines). Prints numbers; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, startSandboxProcess } from './lib/processes.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function time(args, env) {
  const samples = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    if (i >= 2) samples.push(ms); // first two warm the file cache
  }
  return median(samples);
}

const env = { ...process.env, CRMCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'crmctl-bench-')) };
const sb = await startSandboxProcess(['--port', '0', '--no-profile'], env);
try {
  const token = await (await fetch(`${sb.info.url}/__sandbox/tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user_id: 1 }) })).json();
  const apiEnv = { ...env, CRMCTL_ACCESS_TOKEN: token.access_token ?? token.data?.access_token, CRMCTL_API_DOMAIN: sb.info.url };
  const baseline = time(['-e', '0'], env);
  const rows = [
    ['crmctl --version', time([BIN, '--version'], env), 1.3],
    ['crmctl --help', time([BIN, '--help'], env), 1.6],
    ['crmctl leads list --json', time([BIN, 'leads', 'list', '--json'], apiEnv), 2.5],
    ['crmctl deals list --json', time([BIN, 'deals', 'list', '--json'], apiEnv), 2.5],
  ];
  console.log(`start-up, median of ${RUNS} runs, node ${process.version}`);
  console.log(`  node -e 0 (baseline)          ${baseline.toFixed(1).padStart(7)} ms   1.00x`);
  for (const [name, ms, target] of rows) {
    const ratio = ms / baseline;
    console.log(`  ${name.padEnd(29)} ${ms.toFixed(1).padStart(7)} ms   ${ratio.toFixed(2)}x  (target ${target}x: ${ratio <= target ? 'met' : 'MISSED'})`);
  }
} finally {
  await sb.stop();
}

// Bulk export/import benchmarks: their own script (minutes, not seconds), run after the start-up numbers.
// BENCH_STARTUP_ONLY=1 skips them.
if (process.env.BENCH_STARTUP_ONLY !== '1') spawnSync(process.execPath, [new URL('./bench-bulk.mjs', import.meta.url).pathname], { stdio: 'inherit' });
