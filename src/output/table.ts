import Table from 'cli-table3';
import { Chalk } from 'chalk';
import { cellText, getPath } from './cells.js';

interface TableOptions {
  color: boolean;
  width: number;
}

/** cli-table3 grid for a TTY; header bold only when colour is on (NO_COLOR, --no-color, pipes). */
export function renderTable(rows: unknown[], columns: string[], opts: TableOptions): string {
  const chalk = new Chalk({ level: opts.color ? 1 : 0 });
  const maxCell = Math.max(12, Math.floor((opts.width || 160) / Math.max(1, columns.length)) - 3);
  const table = new Table({
    head: columns.map((c) => chalk.bold(c)),
    style: { head: [], border: [] },
    wordWrap: false,
  });
  // Ids are what admins copy into the next command: never shorten them.
  const keep = (c: string) => c === 'id' || c.endsWith('.id') || c.endsWith('_id');
  for (const r of rows) table.push(columns.map((c) => (keep(c) ? cellText(getPath(r, c)) : truncate(cellText(getPath(r, c)), maxCell))));
  return `${table.toString()}\n`;
}

export function renderKeyValue(record: Record<string, unknown>, keys: string[], opts: TableOptions): string {
  const chalk = new Chalk({ level: opts.color ? 1 : 0 });
  const valueWidth = Math.max(20, (opts.width || 120) - 30);
  const table = new Table({ style: { head: [], border: [] } });
  for (const k of keys) table.push({ [chalk.bold(k)]: truncate(cellText(getPath(record, k)), valueWidth) });
  return `${table.toString()}\n`;
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(1, max - 1))}…` : s;
}
