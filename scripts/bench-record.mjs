#!/usr/bin/env node
// The cost of the record of changes (issue 31.7), against a sandbox process on loopback (after `npm run build`;
// `npm run bench` calls it):
//  1. import of 10k persons with the record on (the default: a journal fsynced per entry, the run's record) and
//     off (CRMCTL_RECORD=off: no journal, no record), in interleaved pairs; the median ratio on/off (target <= 1.05);
//  2. single writes (`deals update`), on and off: what the read of the prior values costs in requests and cost
//     units (counted by the sandbox), and the ratio of wall times.
// Prints numbers; asserts nothing. BENCH_RECORD_ROWS (10000), BENCH_RECORD_PAIRS (3) and BENCH_RECORD_WRITES (20)
// change the sizes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectRequests, measuredCrmctl } from './lib/bulk-measure.mjs';
import { crmctl, sandboxControl, startSandboxProcess } from './lib/processes.mjs';

const ROWS = Number(process.env.BENCH_RECORD_ROWS ?? 10_000);
const PAIRS = Number(process.env.BENCH_RECORD_PAIRS ?? 3);
const WRITES = Number(process.env.BENCH_RECORD_WRITES ?? 20);

const dir = mkdtempSync(join(tmpdir(), 'crmctl-bench-record-'));
const env = { ...process.env, CRMCTL_CONFIG_DIR: join(dir, 'config') };
delete env.CRMCTL_PROFILE;
delete env.CRMCTL_RECORD;
const sb = await startSandboxProcess(['--port', '0', '--no-profile', '--seed', 'empty'], env);
const url = sb.info.url;
const control = sandboxControl(url);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  // A budget that never binds: the comparison is of crmctl's own work, not of pacing.
  await control('PUT', 'config', { budget: { limit: 1_000_000, windowSec: 2 } });
  const token = await control('POST', 'tokens', { user_id: 1 });
  const on = { ...env, CRMCTL_ACCESS_TOKEN: token.access_token, CRMCTL_API_DOMAIN: url };
  const off = { ...on, CRMCTL_RECORD: 'off' };

  console.log(`record of changes: import of ${ROWS.toLocaleString('en-US')} persons, record on vs off (${PAIRS} interleaved pairs, node ${process.version})`);
  const ratios = [];
  for (let i = 0; i < PAIRS; i++) {
    const seconds = {};
    // Alternate which goes first, so a warming disk or sandbox favours neither.
    for (const [name, e] of i % 2 ? [['off', off], ['on', on]] : [['on', on], ['off', off]]) {
      await control('POST', 'reset', { seed: 'empty' });
      const file = join(dir, `persons-${i}-${name}.csv`);
      writeFileSync(file, `name,email\n${Array.from({ length: ROWS }, (_, r) => `Bench Person ${r + 1},bench${r + 1}@example.org`).join('\n')}\n`);
      const m = await measuredCrmctl(['import', 'persons', '--file', file], e);
      if (m.code !== 0) throw new Error(`import (${name}) exited ${m.code}: ${m.stderr.slice(-800)}`);
      seconds[name] = m.seconds;
    }
    ratios.push(seconds.on / seconds.off);
    console.log(`  pair ${i + 1}: on ${seconds.on.toFixed(2)} s, off ${seconds.off.toFixed(2)} s, on/off ${(seconds.on / seconds.off).toFixed(3)}`);
  }
  const r = median(ratios);
  console.log(`  median on/off = ${r.toFixed(3)}  (target <= 1.05: ${r <= 1.05 ? 'met' : 'MISSED'})`);

  console.log(`record of changes: ${WRITES} single writes (deals update), record on vs off`);
  await control('POST', 'reset', { seed: 'demo' });
  const single = async (e, label) => {
    const started = performance.now();
    const { requests } = await collectRequests(url, async () => {
      for (let i = 0; i < WRITES; i++) {
        const res = await crmctl(['deals', 'update', String((i % 5) + 1), '--title', `Bench ${label} ${i}`], e);
        if (res.code !== 0) throw new Error(`deals update (${label}) exited ${res.code}: ${res.stderr}`);
      }
    });
    return { seconds: (performance.now() - started) / 1000, requests: requests.length, cost: requests.reduce((s, q) => s + q.cost, 0), reads: requests.filter((q) => q.method === 'GET').length };
  };
  const a = await single(on, 'on');
  const b = await single(off, 'off');
  console.log(`  on:  ${a.seconds.toFixed(2)} s, ${a.requests} requests (${a.reads} reads: the deal before each update), ${a.cost} cost units`);
  console.log(`  off: ${b.seconds.toFixed(2)} s, ${b.requests} requests (${b.reads} reads), ${b.cost} cost units`);
  console.log(`  on/off: time ${(a.seconds / b.seconds).toFixed(3)}, cost ${(a.cost / b.cost).toFixed(3)} (the read before each update, counted in each run's cost)`);
} finally {
  await sb.stop();
  rmSync(dir, { recursive: true, force: true });
}
