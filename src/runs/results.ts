/**
 * The one results writer of every run: one JSON line per item, in the run's item order, replaced
 * atomically (a reader sees the old file or the new one). Each line names its item by the key the
 * command uses (`line` for import, `id` for bulk-update), the record id, what happened (`status` or
 * `action`) and the error.
 */
import { writeFileAtomic } from '../fs/atomic-write.js';

export function writeResults(path: string, lines: Iterable<object>): void {
  let text = '';
  for (const l of lines) text += `${JSON.stringify(l)}\n`;
  writeFileAtomic(path, text);
}
