import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alive, breakStale } from '../../src/fs/lock.js';
// @ts-expect-error plain ESM helper shared with scripts/bundle.mjs (no type declarations)
import { sourceHash } from '../../scripts/lib/source-hash.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN_PATH = `${ROOT}bin/crmctl.js`;
/** tsc's output (one module per source file): what the start-up test inspects. */
export const DIST_MAIN = `${ROOT}dist/main.js`;
/** The esbuild bundle the bin loads (scripts/bundle.mjs). */
export const BUNDLE_MAIN = `${ROOT}dist/cli/main.js`;
const STAMP = `${ROOT}dist/.build-stamp`;
/** Held while a test worker builds (dist/ is ignored by git). */
export const BUILD_LOCK = `${ROOT}dist/.build.lock`;

/**
 * Users run the bundle; tests that run it (spawned or in-process) must run the bundle of the sources
 * under test. The build writes a hash of every file it reads; when the sources no longer match it (or
 * there is no build), this builds again, and a build that fails fails the test instead of running
 * stale code. Test workers run in parallel: the build happens under a lock, so one worker builds and
 * the others wait for it and then find the build current (two builds at once would each delete
 * dist/cli under the other's feet).
 */
export function ensureBuilt(): void {
  buildOnce({
    lockFile: BUILD_LOCK,
    isCurrent: () => existsSync(DIST_MAIN) && existsSync(BUNDLE_MAIN) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === (sourceHash as (root: string) => string)(ROOT),
    build: () => {
      execFileSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}tsconfig.json`], { cwd: ROOT, stdio: 'pipe' });
      execFileSync(process.execPath, [`${ROOT}scripts/bundle.mjs`], { cwd: ROOT, stdio: 'pipe' });
    },
  });
}

export interface BuildOnce {
  lockFile: string;
  isCurrent: () => boolean;
  build: () => void;
  /** A lock older than this was left by a build that hung or crashed (a build takes a minute on a busy machine). */
  staleMs?: number;
  /** Give up waiting for another build after this long. */
  timeoutMs?: number;
}

/**
 * Builds unless current, under an exclusive lock file (`pid token time`). Synchronous, as its callers
 * are (a worker has nothing else to do until the build exists): waiting sleeps with Atomics.wait. A
 * lock whose process no longer runs, or older than `staleMs`, is taken over through the CLI's own
 * stale-lock breaker (src/fs/lock.ts), so a killed worker never blocks the next run. After taking the
 * lock the build is checked again: the holder before us has usually just built it. Returns whether it built.
 */
export function buildOnce(o: BuildOnce): boolean {
  if (o.isCurrent()) return false;
  const staleMs = o.staleMs ?? 10 * 60_000;
  const started = Date.now();
  const token = `${process.pid} ${globalThis.crypto.randomUUID()} ${new Date().toISOString()}`;
  mkdirSync(dirname(o.lockFile), { recursive: true });
  for (;;) {
    try {
      writeFileSync(o.lockFile, `${token}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: string;
    let age: number;
    try {
      holder = readFileSync(o.lockFile, 'utf8').trim();
      age = Date.now() - statSync(o.lockFile).mtimeMs;
    } catch {
      continue; // released between our attempt and the read: try again at once
    }
    const pid = Number.parseInt(holder, 10);
    if (age > staleMs || (pid > 0 && pid !== process.pid && !alive(pid))) {
      breakStale(o.lockFile, holder);
      continue;
    }
    if (Date.now() - started > (o.timeoutMs ?? 15 * 60_000)) throw new Error(`Waited too long for the build lock ${o.lockFile} (held by ${holder}); if no build is running, delete it.`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
  try {
    if (o.isCurrent()) return false;
    o.build();
    return true;
  } finally {
    try {
      if (readFileSync(o.lockFile, 'utf8').trim() === token) unlinkSync(o.lockFile);
    } catch {
      /* taken over as stale after a very long build: the breaker removed it */
    }
  }
}
