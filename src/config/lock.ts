import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';

export interface LockOptions {
  /** A lock file older than this is left over from a crashed process and is broken. */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
  /** Called once when we have to wait (for --debug). */
  onWait?: (holder: string) => void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Cross-process mutual exclusion with an exclusive lock file (`open(path, 'wx')`), the one
 * primitive that is atomic on every local file system. The file holds `pid token time`; a file
 * older than `staleMs` is treated as abandoned and removed. Waiters back off with jitter.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const staleMs = opts.staleMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const token = randomBytes(8).toString('hex');
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
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw lockError(path, err);
      let holder = '';
      try {
        const st = statSync(path);
        holder = safeRead(path);
        if (Date.now() - st.mtimeMs > staleMs) {
          // Abandoned by a process that died while holding it.
          try {
            unlinkSync(path);
          } catch {
            /* someone else removed it first */
          }
          continue;
        }
      } catch {
        // Vanished between open and stat: try again at once.
        continue;
      }
      if (!announced) {
        announced = true;
        opts.onWait?.(holder.trim());
      }
      if (Date.now() - started > timeoutMs) {
        throw new CliError(
          `Timed out after ${Math.round(timeoutMs / 1000)} s waiting for the lock ${path} (held by pid ${holder.split(' ')[0] || '?'}).`,
          EXIT.ERROR,
          `If no other crmctl is running, delete ${path} and try again.`,
        );
      }
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 250);
    }
  }
  try {
    return await fn();
  } finally {
    // Remove only our own lock (a stale-breaker may have replaced it after a very long hold).
    try {
      if (safeRead(path).includes(token)) unlinkSync(path);
    } catch {
      /* already gone */
    }
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function lockError(path: string, err: unknown): CliError {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new CliError(`Cannot write the lock file ${path} (${code}): the config directory is not writable.`, EXIT.ERROR, `Make ${dirname(path)} writable, or point CRMCTL_CONFIG_DIR at a writable directory.`);
  }
  return new CliError(`Cannot create the lock file ${path}: ${(err as Error).message}`, EXIT.ERROR);
}
