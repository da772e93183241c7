import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';

export interface LockOptions {
  /**
   * Wait for a live holder (the config file: refreshes take a moment), or give up at once naming it
   * (a state file: two runs writing one account's fixtures would each think they own the records).
   */
  wait: boolean;
  /** A lock older than this is left over from a crashed process and is broken (live holders keep theirs fresh by finishing). */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
  /** Called once when we have to wait (for --debug). */
  onWait?: (holder: string) => void;
  /** What the locked file is, for messages: "the config file", "the state file x". */
  what?: string;
}

/**
 * Cross-process mutual exclusion with an exclusive lock file (`open(path, 'wx')`), the one primitive
 * that is atomic on every local file system. The file holds `pid token time`. A lock whose holder no
 * longer runs, or that is older than `staleMs`, is taken over by one waiter (see breakStale). The one lock of the CLI: config
 * read-modify-write, token refresh, apply/destroy state files.
 */
export async function acquireLock(path: string, opts: LockOptions): Promise<() => void> {
  const staleMs = opts.staleMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const token = globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 16);
  const started = Date.now();
  let delay = 10;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid} ${token} ${new Date().toISOString()}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(path, err);
      let holder: string;
      let age: number;
      try {
        holder = readFileSync(path, 'utf8').trim();
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue; // vanished between open and read: try again at once
      }
      const pid = Number.parseInt(holder, 10);
      if (age > staleMs || (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid))) {
        // Another waiter holds the takeover guard: give it a moment, then look again.
        if (!breakStale(path, holder)) await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
        continue;
      }
      if (!opts.wait) {
        throw new CliError(`${opts.what ?? path} is in use by another crmctl run (pid ${pid || '?'}).`, EXIT.ERROR, `Wait for it to finish; if no such run exists, remove ${path}.`);
      }
      if (!announced) {
        announced = true;
        opts.onWait?.(holder);
      }
      if (Date.now() - started > timeoutMs) {
        throw new CliError(
          `Timed out after ${Math.round(timeoutMs / 1000)} s waiting for the lock ${path} (held by pid ${pid || '?'}).`,
          EXIT.ERROR,
          `If no other crmctl is running, delete ${path} and try again.`,
        );
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 250);
    }
  }
  return () => {
    // Remove only our own lock (a stale-breaker may have replaced it after a very long hold).
    try {
      if (readFileSync(path, 'utf8').includes(token)) unlinkSync(path);
    } catch {
      /* already gone */
    }
  };
}

/** Runs `fn` holding the lock (waiting for it), and releases it whatever happens. */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, opts: Omit<LockOptions, 'wait'> = {}): Promise<T> {
  const release = await acquireLock(path, { ...opts, wait: true });
  try {
    return await fn();
  } finally {
    release();
  }
}

/** A takeover guard older than this was left by a process that died in the middle of one. */
const GUARD_STALE_MS = 10_000;

/**
 * Removes a stale lock, but only the one judged stale. "Holder is dead, so unlink" is check-then-act:
 * two waiters that both read the dead holder could each unlink, the second removing the lock the
 * first had just created, and both would refresh with the same refresh token. So a takeover happens
 * under a second exclusive file (`<lock>.break`), and unlinks only while the lock still holds the
 * same content (a random token per holder, so a new lock never matches). Nobody else can replace the
 * lock meanwhile: it can only be created once gone, and only the guard's holder removes a stale one.
 */
export function breakStale(path: string, staleHolder: string): boolean {
  const guard = `${path}.break`;
  let fd: number;
  try {
    fd = openSync(guard, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(guard, err);
    try {
      if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) unlinkSync(guard);
    } catch {
      /* the other breaker finished meanwhile */
    }
    return false; // another process is taking over; wait for the lock like everyone else
  }
  closeSync(fd);
  try {
    if (readFileSync(path, 'utf8').trim() === staleHolder) unlinkSync(path);
  } catch {
    /* already gone */
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      /* removed as stale by another process: harmless, the lock decision is made */
    }
  }
  return true;
}

/** The process with this pid runs (EPERM: it does, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockError(path: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new CliError(`Cannot write the lock file ${path} (${code}): its directory is not writable.`, EXIT.ERROR, `Make ${dirname(path)} writable, or point CRMCTL_CONFIG_DIR at a writable directory.`);
  }
  return new CliError(`Cannot create the lock file ${path}: ${(err as Error).message}`, EXIT.ERROR);
}
