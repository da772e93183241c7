import Table from 'cli-table3';
import { Chalk } from 'chalk';
import { cellText, getPath } from './cells.js';
import { fitWidths, isIdColumn, textWidth, truncateText } from './fit.js';

interface TableOptions {
  color: boolean;
  /** Terminal width; 0 = unknown (no limit). */
  width: number;
}

/** cli-table3 grid for a TTY, fitted to its width; header bold only when colour is on (NO_COLOR, --no-color, pipes). */
export function renderTable(rows: unknown[], columns: string[], opts: TableOptions): string {
  const cells = rows.map((r) => columns.map((c) => oneLine(cellText(getPath(r, c)))));
  return grid(columns, cells, opts, true);
}

/** One record as field/value rows, fitted like a table (the field names keep their width). */
export function renderKeyValue(record: Record<string, unknown>, keys: string[], opts: TableOptions): string {
  return grid(['field', 'value'], keys.map((k) => [k, oneLine(cellText(getPath(record, k)))]), opts, false);
}

function grid(columns: string[], cells: string[][], opts: TableOptions, header: boolean): string {
  const chalk = new Chalk({ level: opts.color ? 1 : 0 });
  const values = columns.map((_, i) => Math.max(0, ...cells.map((row) => textWidth(row[i]!))));
  const natural = columns.map((c, i) => Math.max(header ? textWidth(c) : 0, values[i]!));
  // Key/value: the field names keep their width (like ids); the value takes what is left.
  const widths = header ? fitWidths(columns, natural, opts.width, isIdColumn, values) : fitWidths(columns, natural, opts.width, (_, i) => i === 0);
  const clip = (s: string, i: number) => truncateText(s, widths[i]!);
  const table = new Table({
    ...(header ? { head: columns.map((c, i) => chalk.bold(clip(c, i))) } : {}),
    colWidths: widths.map((w) => w + 2),
    style: { head: [], border: [] },
    wordWrap: false,
  });
  for (const row of cells) table.push(row.map((s, i) => (!header && i === 0 ? chalk.bold(clip(s, i)) : clip(s, i))));
  return `${table.toString()}\n`;
}

/** A cell is one line of the grid: line breaks inside a value would break every row's width. */
function oneLine(s: string): string {
  return s.replace(/\r?\n/g, ' ');
}
