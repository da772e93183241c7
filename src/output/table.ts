import Table from 'cli-table3';
import { Chalk } from 'chalk';
import { cellText, getPath } from './cells.js';
import { fitWidths, isIdColumn, isOpaqueId, textWidth, truncateText } from './fit.js';
import { safeText } from './safe-text.js';

export interface TableOptions {
  color: boolean;
  /** Terminal width; 0 = unknown (no limit). */
  width: number;
}

/** Columns that name the record (fit.ts lets them shrink last). */
const PRIMARY = new Set(['title', 'name', 'subject']);

/**
 * cli-table3 grid for a TTY, fitted to its width; header bold only when colour is on (NO_COLOR,
 * --no-color, pipes). Cells are record text: control characters show as escapes (safe-text.ts).
 */
export function renderTable(rows: unknown[], columns: string[], opts: TableOptions): string {
  let cells = rows.map((r) => columns.map((c) => cellLine(getPath(r, c))));
  let heads = columns;
  // A column of UUIDs (a lead's id) says little to a person: the title comes first, the id after it.
  const opaque = columns.map((_, i) => isOpaqueColumn(cells, i));
  const id = columns.findIndex((c, i) => opaque[i] && isIdColumn(c));
  const primary = columns.findIndex((c) => PRIMARY.has(c));
  if (id >= 0 && primary > id) {
    const order = [...columns.keys()];
    order.splice(primary, 1);
    order.splice(id, 0, primary);
    heads = order.map((i) => columns[i]!);
    cells = cells.map((row) => order.map((i) => row[i]!));
    opaque.splice(0, opaque.length, ...order.map((i) => opaque[i]!));
  }
  return grid(heads.map(safeText), cells, opts, opaque);
}

/** One cell: a line of the grid (line breaks inside a value would break every row's width), controls shown. */
function cellLine(value: unknown): string {
  return safeText(cellText(value).replace(/\r?\n/g, ' '));
}

/** Every value of the column is a UUID (and there is one). */
function isOpaqueColumn(cells: string[][], i: number): boolean {
  let any = false;
  for (const row of cells) {
    const v = row[i]!;
    if (v === '') continue;
    if (!isOpaqueId(v)) return false;
    any = true;
  }
  return any;
}

function grid(columns: string[], cells: string[][], opts: TableOptions, opaque: boolean[]): string {
  const chalk = new Chalk({ level: opts.color ? 1 : 0 });
  const values = columns.map((_, i) => Math.max(0, ...cells.map((row) => textWidth(row[i]!))));
  const natural = columns.map((c, i) => Math.max(textWidth(c), values[i]!));
  const widths = fitWidths(columns, natural, opts.width, isIdColumn, values, opaque);
  const clip = (s: string, i: number) => truncateText(s, widths[i]!);
  const table = new Table({
    head: columns.map((c, i) => chalk.bold(clip(c, i))),
    colWidths: widths.map((w) => w + 2),
    // No rule between rows (a list of 100 drew 200 lines): only the header is set off, below.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    style: { head: [], border: [] },
    wordWrap: false,
  });
  for (const row of cells) table.push(row.map(clip));
  const [top, head, ...rest] = table.toString().split('\n');
  const rule = `├${widths.map((w) => '─'.repeat(w + 2)).join('┼')}┤`;
  return `${[top, head, rule, ...rest].join('\n')}\n`;
}
