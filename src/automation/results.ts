import { writeResults } from '../runs/results.js';

/** What happened to one input row: the id it got, or why not (`skipped`: invalid and left out by --skip-invalid). */
export type Outcome = { line: number; id: string | number } | { line: number; error: string; skipped?: boolean };

/** Writes an import's results file (line order, through the runs' one writer) and counts the outcomes. */
export function writeImportResults(path: string, outcomes: Map<number, Outcome>): { created: number; failed: number; skipped: number } {
  const rows = [...outcomes.values()].sort((a, b) => a.line - b.line);
  writeResults(path, rows);
  let created = 0, failed = 0, skipped = 0;
  for (const r of rows) {
    if ('id' in r) created++;
    else if (r.skipped) skipped++;
    else failed++;
  }
  return { created, failed, skipped };
}
