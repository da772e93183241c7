#!/usr/bin/env node
// Whole-account backup benchmark against a sandbox process on loopback (run after `npm run build`; `npm run
// bench` calls it), issue 30.7:
//  1. `crmctl backup` of the demo account plus N bulk deals (default 20k) against `crmctl export deals` of
//     the same account, in interleaved rounds: wall-time ratio backup/export (target <= 1.1: a backup costs
//     about what reading its largest list costs), and the peak RSS of each;
//  2. the same at 5N deals, and memory flat in the account's size: peak RSS of the backup at N and at 5N
//     deals (ratio target <= 1.25).
// Every pair is printed (the machine is shared: a median hides nothing when the pairs are there to read).
// Prints numbers; asserts nothing. BENCH_BACKUP_DEALS and BENCH_BACKUP_ROUNDS change the sizes;
// BENCH_BACKUP_BIG_ROUNDS the rounds at 5N (default: BENCH_BACKUP_ROUNDS).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measuredCrmctl } from './lib/bulk-measure.mjs';
import { sandboxControl, startSandboxProcess } from './lib/processes.mjs';

const DEALS = Number(process.env.BENCH_BACKUP_DEALS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_BACKUP_ROUNDS ?? 3);
const BIG_ROUNDS = Number(process.env.BENCH_BACKUP_BIG_ROUNDS ?? ROUNDS);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const mb = (kb) => fmt(kb / 1024, 1);

const dir = mkdtempSync(join(tmpdir(), 'crmctl-bench-backup-'));
const env = { ...process.env, CRMCTL_CONFIG_DIR: dir };
delete env.CRMCTL_PROFILE;
const sb = await startSandboxProcess(['--port', '0', '--no-profile', '--seed', 'demo', '--budget', '100000000', '--window', '1'], env);
const control = sandboxControl(sb.info.url);

/** One backup into a new directory (removed after): { seconds, peakRssKb, … }. */
async function backup(apiEnv, i) {
  const out = join(dir, `backup-${i}`);
  const r = await measuredCrmctl(['backup', '--out', out], apiEnv);
  rmSync(out, { recursive: true, force: true });
  if (r.code !== 0) throw new Error(`backup exited ${r.code}: ${r.stderr.slice(-600)}`);
  return r;
}

try {
  const token = await control('POST', 'tokens', { user_id: 1 });
  const apiEnv = { ...env, CRMCTL_ACCESS_TOKEN: token.access_token, CRMCTL_API_DOMAIN: sb.info.url };
  // The day's budget is not what is measured: a whole backup of 100k deals must not stop on it.
  await control('POST', 'budget', { daily_limit: 1_000_000_000, daily_used: 0 });
  await control('POST', 'bulk', { collection: 'deals', count: DEALS });
  console.log(`whole-account backup (sandbox on loopback, node ${process.version}): the demo account plus ${fmt(DEALS)} bulk deals`);
  const out = join(dir, 'deals.ndjson');
  // An export's journal beside its file would make the next round "already done" (nothing sent): both go.
  const clearExport = () => {
    for (const x of ['', '.checkpoint.json']) rmSync(`${out}${x}`, { force: true });
  };
  const exportOnce = async () => {
    const e = await measuredCrmctl(['export', 'deals', '--out', out], apiEnv);
    clearExport();
    if (e.code !== 0) throw new Error(`export exited ${e.code}: ${e.stderr.slice(-600)}`);
    return e;
  };
  /** Interleaved rounds (export, then backup), each pair printed; the first round only warms the caches. */
  const pairs = async (rounds, deals) => {
    const runs = { backup: [], export: [] };
    for (let i = 0; i < rounds + 1; i++) {
      const e = await exportOnce();
      const b = await backup(apiEnv, `${deals}-${i}`);
      if (i === 0) continue; // the first round warms the sandbox's list cache and the file cache
      runs.export.push(e);
      runs.backup.push(b);
      console.log(`    pair ${i} at ${fmt(deals)} deals: backup ${b.seconds.toFixed(2)} s, export ${e.seconds.toFixed(2)} s: ${(b.seconds / e.seconds).toFixed(2)}`);
    }
    const ratio = median(runs.backup.map((b, i) => b.seconds / runs.export[i].seconds));
    for (const [name, rs] of Object.entries(runs)) {
      const label = name === 'backup' ? 'crmctl backup --out DIR' : 'crmctl export deals --out F';
      console.log(`  ${label.padEnd(26)} ${median(rs.map((r) => r.seconds)).toFixed(2).padStart(6)} s  peak RSS ${mb(median(rs.map((r) => r.peakRssKb)))} MB  (median of ${rounds}, ${rs[0].via})`);
    }
    console.log(`  backup / export of the same ${fmt(deals)} deals = ${ratio.toFixed(2)}  (median of the pairs; target <= 1.1: ${ratio <= 1.1 ? 'met' : 'MISSED'})`);
    return runs;
  };
  const small = await pairs(ROUNDS, DEALS);

  // 2. Five times the deals: the backup holds one page at a time, so its peak RSS should barely move.
  await control('POST', 'bulk', { collection: 'deals', count: DEALS * 4 });
  const big = await pairs(BIG_ROUNDS, DEALS * 5);
  const rss = median(big.backup.map((r) => r.peakRssKb)) / median(small.backup.map((r) => r.peakRssKb));
  console.log(`  peak RSS ${fmt(DEALS * 5)} / ${fmt(DEALS)} deals = ${rss.toFixed(2)}  (target <= 1.25: ${rss <= 1.25 ? 'met' : 'MISSED'})`);
} finally {
  await sb.stop();
  rmSync(dir, { recursive: true, force: true });
}
