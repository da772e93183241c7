import { writeFileSync } from 'node:fs';
import { ValidationError } from '../../core/errors.js';

/** A cell as written: quoted when it must be, otherwise as read (no formula guard: the text was read from a CSV). */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * Copies a CSV file to `out` with the ids of one column replaced (`map`: old id → new id; ids not in
 * it stay). Returns line in the copy → line in the original, so problems are reported where the
 * user's file has them.
 */
export async function remapColumn(file: string, out: string, column: string, map: Map<string, string>): Promise<Map<number, number>> {
  const { readRows } = await import('../../automation/rows.js');
  let header: string[] = [];
  const rows: Array<{ line: number; cells: string[] }> = [];
  for await (const row of readRows(file, 'csv', (h) => (header = h))) {
    if (row.kind === 'csv') rows.push({ line: row.line, cells: row.cells });
    else if (row.kind === 'error') throw new ValidationError([{ field: `${file}:${row.line}`, rule: row.rule }], 'The sandbox was stopped; fix the file and start it again.');
  }
  const at = header.indexOf(column);
  const lines = new Map<number, number>();
  let text = `${header.map(cell).join(',')}\r\n`;
  let line = 2 + (text.match(/\n/g)!.length - 1);
  for (const r of rows) {
    const cells = at < 0 ? r.cells : r.cells.map((c, i) => (i === at ? (map.get(c) ?? c) : c));
    const encoded = `${cells.map(cell).join(',')}\r\n`;
    lines.set(line, r.line);
    line += encoded.match(/\n/g)!.length;
    text += encoded;
  }
  writeFileSync(out, text, { mode: 0o600 });
  return lines;
}
