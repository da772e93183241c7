// CI version of scripts/reliability-faults.mjs: 500 leads imported by the real bin through the issue's
// faults (10% 5xx, 5% 429, 5% resets of which a third after commit, latency), once straight and once
// killed with SIGKILL three times at random points and resumed. Every row must be in the sandbox's
// store exactly once, and the faults must really have happened (or the test proves nothing).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM script shared with scripts/reliability-faults.mjs (no type declarations)
import { cliEnv, importScenario, ISSUE_FAULTS, killAtRandomProgress, RequestTally, startSandboxProcess } from '../../scripts/reliability-lib.mjs';

const ROWS = 500;
let sandbox: any;
let env: Record<string, string | undefined>;
const dir = mkdtempSync(join(tmpdir(), 'crmctl-rel-faults-'));

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--seed', 'demo', '--budget-limit', '100000000', '--budget-window', '1']);
  // Short backoff steps keep the run under a minute; more retries than the default 5 so that a row
  // meeting six faults in a row (p ≈ 6e-5 per request) cannot make the test flaky.
  env = cliEnv(sandbox.url, await sandbox.token(), mkdtempSync(join(tmpdir(), 'crmctl-rel-cfg-')), { CRMCTL_RETRY_BASE_MS: '20', CRMCTL_MAX_RETRIES: '10' });
  await sandbox.control('PUT', 'faults', ISSUE_FAULTS);
});
afterAll(async () => sandbox?.stop());

describe('import through faults: every row exactly once', () => {
  it(`${ROWS} rows in one run with 5xx, 429, resets before and after commit`, async () => {
    const tally = await new RequestTally(sandbox).start();
    const r = await importScenario({ sandbox, env, dir, tag: 'ci-faults', rows: ROWS, concurrency: 8 });
    await tally.stop();
    const log = tally.summary();
    process.stdout.write(`faults (one run): ${JSON.stringify({ ...r, sandbox_log: log })}\n`);
    expect(r.final_exit_code, r.final_stderr).toBe(0);
    expect({ duplicates: r.duplicates, missing: r.missing, created: r.created }).toEqual({ duplicates: 0, missing: 0, created: ROWS });
    expect({ lines: r.results_lines, mismatched: r.results_not_matching_store }).toEqual({ lines: ROWS, mismatched: 0 });
    // The faults reached the import: each kind was injected, creates were cut after commit, and
    // the client resent only rows whose create had not landed.
    for (const kind of ['5xx', '429', 'reset-before', 'reset-after']) expect(log.faults[kind] ?? 0, kind).toBeGreaterThan(0);
    expect(log.lead_posts).toBeGreaterThan(ROWS);
    expect(log.reconcile_reads).toBeGreaterThan(0);
  }, 120_000);

  it(`${ROWS} rows killed with SIGKILL three times at random points, then --resume: same result`, async () => {
    const tally = await new RequestTally(sandbox).start();
    const r = await importScenario({
      sandbox, env, dir, tag: 'ci-killed', rows: ROWS, concurrency: 8, kills: 3,
      // A random point between 3% and 20% of the rows after each start, so every kill lands mid-run.
      killer: (journal: string) => killAtRandomProgress(journal, [ROWS * 0.03, ROWS * 0.2]),
    });
    await tally.stop();
    process.stdout.write(`faults (3 x kill -9 + resume): ${JSON.stringify({ ...r, sandbox_log: tally.summary() })}\n`);
    expect(r.kills).toBe(3);
    expect(r.final_exit_code, r.final_stderr).toBe(0);
    expect({ duplicates: r.duplicates, missing: r.missing, created: r.created }).toEqual({ duplicates: 0, missing: 0, created: ROWS });
    expect({ lines: r.results_lines, mismatched: r.results_not_matching_store }).toEqual({ lines: ROWS, mismatched: 0 });
  }, 180_000);
});
