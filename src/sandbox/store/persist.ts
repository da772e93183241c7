// Atomic persistence: write a temp file in the same directory, fsync it, rename
// over the target, fsync the directory. A reader (or a restart after kill -9)
// sees either the old file or the new one, never half of one.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SandboxState, StateJSON } from './state.js';

let tmpCounter = 0;

export function saveAtomic(file: string, data: string): void {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
  // Make the rename itself durable; not all platforms allow opening a directory.
  try {
    const dfd = openSync(dirname(file), 'r');
    try { fsyncSync(dfd); } finally { closeSync(dfd); }
  } catch { /* best effort */ }
}

export function saveState(file: string, state: SandboxState): void {
  saveAtomic(file, JSON.stringify(state.toJSON()));
  state.markClean();
}

/** Returns the parsed state file, or null when it does not exist. Throws on a corrupt file. */
export function readStateFile(file: string): StateJSON | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  return JSON.parse(text) as StateJSON;
}

/** Remove temp files a killed process left behind (`<file>.<pid>.<n>.tmp`); the target itself is never touched. */
export function cleanupTempFiles(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  let names: string[];
  try { names = readdirSync(dir); } catch { return; }
  for (const n of names) {
    if (n.startsWith(prefix) && /\.\d+\.\d+\.tmp$/.test(n)) {
      try { unlinkSync(join(dir, n)); } catch { /* raced with another cleaner */ }
    }
  }
}
