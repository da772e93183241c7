import { safeText } from './safe-text.js';

/** How one value looks in a table, TSV or CSV cell. Pure; no colour here. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.join(',');
  if (isMoney(value)) return `${value.amount} ${value.currency}`;
  return JSON.stringify(value);
}

function isMoney(v: unknown): v is { amount: unknown; currency: unknown } {
  return Boolean(v) && typeof v === 'object' && 'amount' in (v as object) && 'currency' in (v as object) && Object.keys(v as object).length === 2;
}

/** Reads `a.b.c` from a record. */
export function getPath(record: unknown, path: string): unknown {
  let cur: unknown = record;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * TSV cells cannot hold tabs or newlines; escape them as gh does (a backslash is doubled, so every
 * escape reads back). A TSV line is read by people on a terminal as often as by `cut`, so other control
 * characters are shown as escapes too (safe-text.ts). A spreadsheet opens TSV as readily as CSV, so
 * formulas are neutralised the same way.
 */
export function tsvCell(value: unknown): string {
  return safeText(inertFormula(cellText(value)).replace(/\\/g, '\\\\').replace(/\r\n/g, '\n'));
}

/** RFC 4180 quoting of an inert cell. */
export function csvCell(value: unknown): string {
  const text = inertFormula(cellText(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Cells a spreadsheet would run as a formula (=, +, -, @, tab, CR first: CSV injection, OWASP) get a
 * leading apostrophe. Plain numbers (-5, +3.2) stay numbers.
 *
 * The guard is reversible (issue 28.6), so an export imports back as it was: a cell whose text, once
 * its leading apostrophes are set aside, would be guarded gets one more apostrophe. `-20% Q4` is
 * written `'-20% Q4`, and a value that really starts with an apostrophe before a formula character,
 * `'-20% Q4`, is written `''-20% Q4`; `'hello` and `'-5` need no guard and are written as they are.
 * `formulaText` takes exactly that one apostrophe off again.
 */
export function inertFormula(text: string): string {
  return guarded(text) ? `'${text}` : text;
}

/** The text a cell written by inertFormula stood for (import reads CSV through it). */
export function formulaText(cell: string): string {
  return cell.startsWith("'") && guarded(cell) ? cell.slice(1) : cell;
}

/** Would the text, after any leading apostrophes, start a formula? */
function guarded(text: string): boolean {
  const core = text.replace(/^'+/, '');
  return /^[=+\-@\t\r]/.test(core) && !/^[-+]?\d+(\.\d+)?$/.test(core);
}
