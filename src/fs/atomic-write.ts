import { close, closeSync, fsync, fsyncSync, mkdirSync, open, openSync, renameSync, unlinkSync, write, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces a file so that a reader (or a crash, or kill -9) sees the old content or the new one,
 * never half of one: a temp file beside it, fsync, rename over the target, fsync of the directory.
 * The one writer for crmctl's own files (state files, checkpoints, results); the config file is
 * written by `conf`, which does the same.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = tempBeside(path);
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw err;
  }
  syncDir(dir);
}

/**
 * Several files replaced as writeFileAtomic replaces one (a temp file each, synced, renamed over its
 * target, its folder synced), the syncs on libuv's thread pool side by side and each folder synced once:
 * for a batch written while other work goes on (a backup's configuration beside its pages), which the
 * disk syncs would otherwise stop one after another.
 */
export async function writeFilesAtomic(files: ReadonlyArray<{ path: string; text: string; mode?: number }>): Promise<void> {
  const temps: Array<{ path: string; tmp: string; fd: number | undefined }> = [];
  try {
    for (const f of files) {
      const dir = dirname(f.path);
      mkdirSync(dir, { recursive: true });
      const t = { path: f.path, tmp: tempBeside(f.path), fd: undefined as number | undefined };
      temps.push(t);
      t.fd = openSync(t.tmp, 'w', f.mode ?? 0o600);
      writeSync(t.fd, f.text);
    }
    await Promise.all(temps.map((t) => fsyncAside(t.fd!)));
  } catch (err) {
    for (const t of temps) {
      if (t.fd !== undefined) closeSync(t.fd);
      t.fd = undefined;
      try {
        unlinkSync(t.tmp);
      } catch {
        /* not made, or already gone */
      }
    }
    throw err;
  }
  for (const t of temps) closeSync(t.fd!);
  for (const [i, t] of temps.entries()) {
    try {
      renameSync(t.tmp, t.path);
    } catch (err) {
      for (const rest of temps.slice(i)) {
        try {
          unlinkSync(rest.tmp);
        } catch {
          /* already gone */
        }
      }
      throw err;
    }
  }
  await Promise.all([...new Set(temps.map((t) => dirname(t.path)))].map(async (dir) => {
    try {
      const fd = await openAside(dir, 'r');
      try {
        await fsyncAside(fd);
      } finally {
        await closeAside(fd);
      }
    } catch {
      // Some file systems refuse fsync on a directory; the rename is still atomic there.
    }
  }));
}

/** A temp file's name beside `path` (hidden, this process's, unique): renamed over it once synced. */
const tempBeside = (path: string): string => join(dirname(path), `.${basename(path)}.${process.pid}.${globalThis.crypto.randomUUID().slice(0, 8)}.tmp`);

/** The fs calls a batch makes on libuv's thread pool (by file descriptor, as the sync ones). */
export const fsyncAside = promisify(fsync);
/** A write at a position, on the thread pool: a disk busy syncing another file holds that thread, not the event loop. */
export const writeAside = promisify(write);
const openAside = promisify(open);
const closeAside = promisify(close);

export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Makes a directory's entries (files created or renamed in it) durable. */
export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  }
}
