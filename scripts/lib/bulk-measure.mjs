// Helpers for scripts/bench-bulk.mjs: run the CLI while measuring wall time and peak RSS, and read
// the sandbox's request log incrementally (it keeps the last 10,000 entries).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { BIN } from './processes.mjs';

const TIME = '/usr/bin/time';

/**
 * Runs `crmctl ...args` and resolves { code, stderr, seconds, peakRssKb }. Peak RSS comes from
 * `/usr/bin/time -v` when present, else from polling /proc/PID/status VmHWM (the kernel's high-water mark).
 */
export function measuredCrmctl(args, env) {
  return measuredNode([BIN, ...args], env);
}

/** Runs `node ...args` (a script or `-e` code) measured as measuredCrmctl measures crmctl; `cwd` for `-e` imports. */
export function measuredNode(args, env, cwd = undefined) {
  const useTime = existsSync(TIME);
  const cmd = useTime ? TIME : process.execPath;
  const argv = useTime ? ['-v', process.execPath, ...args] : args;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'ignore', 'pipe'], cwd });
    let stderr = '';
    let hwm = 0;
    child.stderr.on('data', (d) => (stderr += d));
    const poll = useTime ? undefined : setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwm = Math.max(hwm, Number(m[1]));
      } catch { /* exited */ }
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      if (poll) clearInterval(poll);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      // CPU seconds (user + system) hold on a busy machine where wall time does not.
      const cpu = ['User', 'System'].map((k) => Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(stderr)?.[1] ?? Number.NaN));
      resolve({ code, stderr, seconds, cpuSeconds: cpu[0] + cpu[1], peakRssKb: m ? Number(m[1]) : hwm, via: useTime ? '/usr/bin/time -v' : '/proc VmHWM' });
    });
  });
}

/** Collects the sandbox's request log while `work` runs (polls with ?since= so nothing is lost to the cap). */
export async function collectRequests(url, work) {
  const seen = [];
  let since = 0;
  let stop = false;
  const pull = async () => {
    const r = await (await fetch(`${url}/__sandbox/requests?since=${since}`)).json();
    for (const e of r.data) {
      seen.push({ time: Date.parse(e.time), cost: e.cost, status: e.status, method: e.method, path: e.path, fault: e.fault });
      since = Math.max(since, e.seq);
    }
  };
  await fetch(`${url}/__sandbox/requests`, { method: 'DELETE' });
  const loop = (async () => {
    while (!stop) {
      await pull();
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  try {
    const result = await work();
    return { result, requests: seen };
  } finally {
    stop = true;
    await loop;
    await pull();
  }
}

/**
 * Rebuilds the sandbox's budget windows from the log: a window opens at the first charged request
 * after the previous one closed (src/sandbox/budget.ts), and lasts windowSec.
 */
export function windowsOf(requests, windowSec) {
  const charged = requests.filter((r) => r.cost > 0).sort((a, b) => a.time - b.time);
  const windows = [];
  for (const r of charged) {
    const w = windows[windows.length - 1];
    if (!w || r.time >= w.start + windowSec * 1000) windows.push({ start: r.time, cost: r.cost });
    else w.cost += r.cost;
  }
  return windows;
}
