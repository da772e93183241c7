#!/usr/bin/env node
// Exactly-once import through faults and kill -9 (figure "Faults" of docs/reliability.md).
//   npx tsc -p tsconfig.json && node scripts/reliability-faults.mjs
//   FAULT_ROWS=5000 FAULT_KILLS=3 FAULT_CONCURRENCY=8 node scripts/reliability-faults.mjs
// A sandbox process answers with 10% 5xx, 5% 429, 5% connection resets (a third of them after the
// create was committed) and 5–40 ms latency. Phase 1 imports FAULT_ROWS leads in one run; phase 2
// imports another FAULT_ROWS leads, killing the import with SIGKILL a random 0.5–3 s after each start
// (FAULT_KILLS times) and continuing with --resume. Each phase then counts every row in the sandbox's
// store (GET /__sandbox/state/leads, by title): rows, duplicates, missing, and what the request log saw.
// Exit 0 only when both phases created every row exactly once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, importScenario, ISSUE_FAULTS, killAtRandomTime, RequestTally, startSandboxProcess } from './reliability-lib.mjs';

const ROWS = Number(process.env.FAULT_ROWS ?? 5000);
const KILLS = Number(process.env.FAULT_KILLS ?? 3);
const CONCURRENCY = Number(process.env.FAULT_CONCURRENCY ?? 8);
// The CLI's own retry settings are used unless the caller overrides them (CRMCTL_MAX_RETRIES...).
const passThrough = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'CRMCTL_MAX_RETRIES' || k === 'CRMCTL_RETRY_BASE_MS'));

const dir = mkdtempSync(join(tmpdir(), 'crmctl-faults-'));
const sandbox = await startSandboxProcess(['--seed', 'demo', '--budget-limit', '100000000', '--budget-window', '1']);
try {
  const env = cliEnv(sandbox.url, await sandbox.token(), mkdtempSync(join(tmpdir(), 'crmctl-faults-cfg-')), passThrough);
  await sandbox.control('PUT', 'faults', ISSUE_FAULTS);
  const phase = async (name, opts) => {
    const tally = await new RequestTally(sandbox).start();
    const figures = await importScenario({ sandbox, env, dir, rows: ROWS, concurrency: CONCURRENCY, ...opts, tag: `${name}-${Date.now()}` });
    await tally.stop();
    return { ...figures, sandbox_log: tally.summary() };
  };
  const uninterrupted = await phase('faults', {});
  const killed = await phase('killed', { kills: KILLS, killer: () => killAtRandomTime([500, 3000]) });
  const result = { measured_at: new Date().toISOString(), faults: ISSUE_FAULTS, concurrency: CONCURRENCY, uninterrupted, killed_and_resumed: killed };
  console.log(JSON.stringify(result, null, 2));
  const exact = (p) => p.duplicates === 0 && p.missing === 0 && p.final_exit_code === 0;
  process.exitCode = exact(uninterrupted) && exact(killed) && killed.kills === KILLS ? 0 : 1;
} finally {
  await sandbox.stop();
}
