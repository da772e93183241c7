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
 * TSV cells cannot hold tabs or newlines; escape them as gh does. A spreadsheet opens TSV as readily
 * as CSV, so formulas are neutralised the same way.
 */
export function tsvCell(value: unknown): string {
  return inertFormula(cellText(value)).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r?\n/g, '\\n');
}

/** RFC 4180 quoting of an inert cell. */
export function csvCell(value: unknown): string {
  const text = inertFormula(cellText(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A leading apostrophe for cells a spreadsheet would run as a formula (=, +, -, @, tab, CR):
 * CSV injection (OWASP). Plain numbers (-5, +3.2) stay numbers.
 */
export function inertFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !/^[-+]?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}
