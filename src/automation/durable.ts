/**
 * Files an export or a watermark keeps so that a kill -9 loses nothing: state replaced atomically
 * (src/fs/atomic-write.ts). The journals of runs are src/runs/journal.ts.
 */
import { existsSync, readFileSync } from 'node:fs';

export { writeJsonAtomic } from '../fs/atomic-write.js';
export { removeIfExists } from '../fs/remove.js';

export function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
