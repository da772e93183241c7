import { unlinkSync } from 'node:fs';

/** Deletes a file that may already be gone (a journal, a checkpoint, a state file). */
export function removeIfExists(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
