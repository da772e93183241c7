#!/usr/bin/env node
// Exactly-once import of every importable kind through faults (figures "Faults, every kind" of
// docs/reliability.md).
//   npm run build && node scripts/reliability-faults-kinds.mjs
//   FAULT_ROWS=120 FAULT_KINDS=organizations,persons FAULT_KILL_KINDS=notes node scripts/reliability-faults-kinds.mjs
// One sandbox process with the faults of issue 18 (5xx=0.1, 429=0.05, reset=0.05 of which a third
// after commit, latency 5-20 ms, seed 7). Per kind: FAULT_ROWS rows in one run, then (for the kinds
// in FAULT_KILL_KINDS) another FAULT_ROWS rows killed with SIGKILL FAULT_KILLS times at a random
// 0.5-3 s after each start and continued with --resume. Each phase counts the kind's store by the
// row text: created, duplicates, missing, and results-file lines whose id is not that row's record.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, importScenario, KIND_FAULTS, killAtRandomTime, RequestTally, startSandboxProcess } from './reliability-lib.mjs';

const ROWS = Number(process.env.FAULT_ROWS ?? 300);
const KINDS = (process.env.FAULT_KINDS ?? 'organizations,persons,deals,activities,products,notes').split(',');
const KILL_KINDS = (process.env.FAULT_KILL_KINDS ?? 'organizations,persons,deals,activities,products,notes').split(',').filter(Boolean);
const KILLS = Number(process.env.FAULT_KILLS ?? 3);
const CONCURRENCY = Number(process.env.FAULT_CONCURRENCY ?? 8);
const passThrough = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'CRMCTL_MAX_RETRIES' || k === 'CRMCTL_RETRY_BASE_MS'));

const dir = mkdtempSync(join(tmpdir(), 'crmctl-faults-kinds-'));
const sandbox = await startSandboxProcess(['--seed', 'demo', '--budget-limit', '100000000', '--budget-window', '1']);
const out = { measured_at: new Date().toISOString(), faults: KIND_FAULTS, rows: ROWS, concurrency: CONCURRENCY, kinds: {} };
let exact = true;
try {
  const env = cliEnv(sandbox.url, await sandbox.token(), mkdtempSync(join(tmpdir(), 'crmctl-faults-cfg-')), passThrough);
  await sandbox.control('PUT', 'faults', KIND_FAULTS);
  const phase = async (kind, name, opts) => {
    const tally = await new RequestTally(sandbox).start();
    const f = await importScenario({ sandbox, env, dir, kind, rows: ROWS, concurrency: CONCURRENCY, ...opts, tag: `${kind}-${name}-${Date.now()}` });
    await tally.stop();
    const log = tally.summary();
    exact &&= f.duplicates === 0 && f.missing === 0 && f.final_exit_code === 0 && f.results_not_matching_store === 0;
    const brief = { created: f.created, duplicates: f.duplicates, missing: f.missing, results_not_matching_store: f.results_not_matching_store, kills: f.kills, runs: f.runs, exit: f.final_exit_code, requests: log.requests, faulted: log.faulted_requests, faults: log.faults, seconds: f.wall_seconds, failed_rows: f.failed_rows, stderr: f.final_stderr };
    console.error(`${kind} ${name}: ${JSON.stringify(brief)}`);
    return brief;
  };
  for (const kind of KINDS) {
    out.kinds[kind] = { one_run: await phase(kind, 'faults', {}) };
    if (KILL_KINDS.includes(kind)) out.kinds[kind].killed_and_resumed = await phase(kind, 'killed', { kills: KILLS, killer: () => killAtRandomTime([500, 3000]) });
  }
  console.log(JSON.stringify(out, null, 2));
  process.exitCode = exact ? 0 : 1;
} finally {
  await sandbox.stop();
}
