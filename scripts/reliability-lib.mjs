// Shared pieces of the reliability scripts and their vitest versions (test/reliability/*): a sandbox
// run as its own process (dist/sandbox/server-main.js), a tally of the sandbox request log, and the
// faulty-import scenario (import N leads through injected faults and kill -9s, then count each row in
// the sandbox's store). Needs a build (`npx tsc -p tsconfig.json`): it runs the real bin.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

// RELIABILITY_ROOT points at another build (a folder holding bin/ and dist/), e.g. a snapshot taken
// with `npx tsc -p tsconfig.json --outDir /tmp/snap/dist` so a long measurement is not disturbed by
// someone rebuilding dist/ meanwhile.
const ROOT = process.env.RELIABILITY_ROOT ? `${process.env.RELIABILITY_ROOT.replace(/\/$/, '')}/` : fileURLToPath(new URL('../', import.meta.url));
export const BIN = `${ROOT}bin/crmctl.js`;
export const SERVER_MAIN = `${ROOT}dist/sandbox/server-main.js`;

/** The faults of the "Prove it holds" issue: 10% 5xx, 5% 429, 5% resets (a third after commit), latency. */
export const ISSUE_FAULTS = { rate5xx: 0.1, rate429: 0.05, rateReset: 0.05, resetAfterCommitShare: 0.33, latencyMs: [5, 40], seed: 7 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the sandbox as a separate process; resolves once it printed its {url,...} line.
 * `args` are extra server-main flags (--data, --faults, ...).
 */
export async function startSandboxProcess(args = []) {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: build first (npx tsc -p tsconfig.json)`);
  const child = spawn(process.execPath, [SERVER_MAIN, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const info = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (l) => resolve(JSON.parse(l)));
    child.once('exit', (c) => reject(new Error(`sandbox exited ${c}: ${err}`)));
  });
  const control = async (method, path, body) => {
    const res = await fetch(`${info.url}/__sandbox/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : null;
    if (res.status >= 400) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
    return parsed && typeof parsed === 'object' && 'data' in parsed && !('deleted' in parsed) ? parsed.data : parsed;
  };
  const exited = new Promise((r) => child.once('exit', r));
  return {
    url: info.url,
    clientId: info.client_id,
    clientSecret: info.client_secret,
    child,
    control,
    /** An admin access token valid for `lifetimeSec`. */
    async token(lifetimeSec = 7200) {
      const t = await control('POST', 'tokens', { user_id: 1, lifetime_sec: lifetimeSec });
      return t.access_token;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Follows the sandbox request log (GET /__sandbox/requests?since=) while a scenario runs, so that
 * the log's 10,000-entry cap loses nothing. Counts requests, statuses and faults, and how often each
 * import marker (origin_id) was POSTed.
 */
export class RequestTally {
  constructor(sandbox, everyMs = 200) {
    this.sandbox = sandbox;
    this.everyMs = everyMs;
    this.since = 0;
    this.total = 0;
    this.byStatus = {};
    this.byFault = {};
    this.leadPosts = 0;
    this.reconcileReads = 0;
    this.postsByMarker = new Map();
    this.running = false;
  }

  /** Counts from now on: what an earlier phase left in the log is skipped. */
  async start() {
    const earlier = await this.sandbox.control('GET', `requests?since=${this.since}`);
    for (const e of earlier) this.since = Math.max(this.since, e.seq);
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.poll();
        await sleep(this.everyMs);
      }
    })();
    return this;
  }

  async poll() {
    const entries = await this.sandbox.control('GET', `requests?since=${this.since}`);
    for (const e of entries) {
      this.since = Math.max(this.since, e.seq);
      this.total++;
      this.byStatus[e.status] = (this.byStatus[e.status] ?? 0) + 1;
      if (e.fault) this.byFault[e.fault] = (this.byFault[e.fault] ?? 0) + 1;
      if (e.method === 'POST' && /^\/(api\/)?v1\/leads$/.test(e.path)) {
        this.leadPosts++;
        const m = e.body && typeof e.body === 'object' ? e.body.origin_id : undefined;
        if (typeof m === 'string') this.postsByMarker.set(m, (this.postsByMarker.get(m) ?? 0) + 1);
      }
      if (e.method === 'GET' && /\/leads$/.test(e.path) && String(e.query?.sort ?? '').startsWith('add_time')) this.reconcileReads++;
    }
  }

  async stop() {
    this.running = false;
    await this.loop;
    await this.poll();
  }

  /** Requests the fault injector answered or cut, and the work the client did to get past them. */
  summary() {
    const faulted = Object.values(this.byFault).reduce((a, n) => a + n, 0);
    const resent = [...this.postsByMarker.values()].reduce((a, n) => a + (n - 1), 0);
    return {
      requests: this.total,
      faulted_requests: faulted,
      faults: this.byFault,
      statuses: this.byStatus,
      lead_posts: this.leadPosts,
      posts_resent: resent,
      reconcile_reads: this.reconcileReads,
    };
  }
}

/** Runs crmctl as a real process; `killAfter(child)` may SIGKILL it. Resolves {code, signal, stdout, stderr}. */
export function crmctlProcess(args, env, killAfter) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const stopKiller = killAfter ? killAfter(child) : () => {};
    child.on('error', reject);
    child.on('close', (code, signal) => {
      stopKiller();
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const randomIn = ([lo, hi]) => lo + Math.random() * (hi - lo);

/** Kills the child with SIGKILL a random 0.5–3 s (or `window` ms) after it was spawned. */
export const killAtRandomTime = (window = [500, 3000]) => (child) => {
  const t = setTimeout(() => child.kill('SIGKILL'), randomIn(window));
  return () => clearTimeout(t);
};

/**
 * Kills the child with SIGKILL once the journal holds a random number (within `window`) of new row
 * outcomes: a random point in the run that is sure to fall mid-import, whatever the machine's speed.
 */
export const killAtRandomProgress = (journal, window) => (child) => {
  const outcomes = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('"id":').length - 1 : 0);
  const target = outcomes() + Math.round(randomIn(window));
  const timer = setInterval(() => {
    if (outcomes() >= target) {
      clearInterval(timer);
      child.kill('SIGKILL');
    }
  }, 10);
  return () => clearInterval(timer);
};

/**
 * Rows per kind for the fault scenarios: `key` is the field that carries "<tag> row <n>" (how the
 * store is counted); persons and deals name their organization (looked up by name on import).
 */
export const KINDS = {
  leads: { key: 'title', row: (text, i) => ({ title: text, organization_id: (i % 6) + 1 }) },
  organizations: { key: 'name', row: (text) => ({ name: text }) },
  persons: { key: 'name', row: (text, _i, { orgName }) => ({ name: text, organization: orgName }) },
  deals: { key: 'title', row: (text, _i, { orgName }) => ({ title: text, organization: orgName }) },
  activities: { key: 'subject', row: (text, i) => ({ subject: text, type: 'call', due_date: '2026-12-01', org_id: (i % 6) + 1 }) },
  products: { key: 'name', row: (text, i) => ({ name: text, code: `P-${i + 1}` }) },
  notes: { key: 'content', row: (text, i) => ({ content: text, org_id: (i % 6) + 1 }) },
};

/** The faults of issue 18 point 9 (latency 5–20 ms). */
export const KIND_FAULTS = { ...ISSUE_FAULTS, latencyMs: [5, 20] };

/**
 * Imports `rows` records of `kind` (default leads) from an ndjson file with `crmctl import leads` (a real process), killing it
 * with SIGKILL `kills` times (`killer` picks the moment) and continuing with --resume until a run
 * completes (also after an exit 7, at most 3 times: rows that failed on a passing error are resumable). Then counts every row in the sandbox's store (title "<tag> row <n>") and checks the
 * results file. Returns the figures.
 */
export async function importScenario({ sandbox, env, dir, tag, rows, kills = 0, concurrency = 8, killer, kind = 'leads' }) {
  const k = KINDS[kind];
  const orgs = await sandbox.control('GET', 'state/organizations');
  const orgName = (orgs.data ?? orgs).find((o) => typeof o.name === 'string')?.name;
  const file = join(dir, `${tag}.ndjson`);
  writeFileSync(file, `${Array.from({ length: rows }, (_, i) => JSON.stringify(k.row(`${tag} row ${i + 1}`, i, { orgName }))).join('\n')}\n`);
  const journal = `${file}.import-state.json`;
  const t0 = Date.now();
  const runs = [];
  let killed = 0;
  let resumesAfterFailure = 0;
  for (let attempt = 0; attempt < kills + 5; attempt++) {
    // The run policy (docs/migrations.md, "Runs"): --resume only when a run began (its header is in the
    // journal); a kill that came before that left nothing to resume, so the import starts anew.
    const began = existsSync(journal) && readFileSync(journal, 'utf8').includes('"type":"run"');
    const args = ['import', kind, '--file', file, '--concurrency', String(concurrency), ...(began ? ['--resume'] : [])];
    const r = await crmctlProcess(args, env, killed < kills ? killer(journal) : undefined);
    runs.push({ code: r.code, signal: r.signal, stderr: r.stderr.slice(-2000) });
    if (r.signal === 'SIGKILL') {
      killed++;
      continue;
    }
    // Exit 7 = some rows failed on passing errors (every retry met a fault); --resume sends them again.
    if (r.code === 7 && resumesAfterFailure++ < 3) continue;
    break;
  }
  const wallSeconds = (Date.now() - t0) / 1000;
  const last = runs[runs.length - 1];

  // The store, as the service holds it: every lead whose title belongs to this run.
  const state = await sandbox.control('GET', `state/${kind}`);
  const live = (state.data ?? state).filter((l) => typeof l[k.key] === 'string' && l[k.key].startsWith(`${tag} row `) && l.is_deleted !== true && l.active_flag !== false);
  const perRow = new Map();
  for (const l of live) {
    const n = Number(l[k.key].slice(`${tag} row `.length));
    perRow.set(n, (perRow.get(n) ?? 0) + 1);
  }
  let missing = 0;
  for (let n = 1; n <= rows; n++) if (!perRow.has(n)) missing++;
  const duplicates = [...perRow.values()].reduce((a, c) => a + (c - 1), 0);

  // The results file: one line per row, each id a lead of that row.
  const resultsPath = `${file}.results.ndjson`;
  const results = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const byId = new Map(live.map((l) => [l.id, l]));
  const resultsMismatched = results.filter((x) => x.id === undefined || !byId.has(x.id)).length;
  const failedRows = results.filter((x) => x.error !== undefined).map((x) => ({ line: x.line, error: x.error }));

  return {
    rows,
    created: live.length,
    distinct_rows_created: perRow.size,
    duplicates,
    missing,
    kills: killed,
    runs: runs.length,
    final_exit_code: last.code,
    final_stderr: last.code === 0 ? undefined : last.stderr,
    results_lines: results.length,
    results_not_matching_store: resultsMismatched,
    failed_rows: failedRows.slice(0, 10),
    wall_seconds: Number(wallSeconds.toFixed(1)),
  };
}

/** Environment for a crmctl process against a sandbox: nothing from the developer's shell. */
export function cliEnv(sandboxUrl, token, configDir, extra = {}) {
  return { PATH: process.env.PATH, HOME: process.env.HOME, CRMCTL_ACCESS_TOKEN: token, CRMCTL_API_DOMAIN: sandboxUrl, CRMCTL_CONFIG_DIR: configDir, ...extra };
}
