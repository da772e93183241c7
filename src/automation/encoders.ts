import { csvCell, getPath } from '../output/cells.js';
import type { ExportFormat } from '../output/format.js';

export type { ExportFormat };

/**
 * Turns one page of records into text. Encoders are stateless: what they need to continue (records
 * written so far, CSV columns) is passed in, so a resumed export continues byte-exactly.
 */
export interface Encoder {
  /** Text of one page; `written` records came before it. */
  page(records: unknown[], written: number): string;
  /** Closing text once every page is written. */
  end(written: number): string;
}

export function encoderFor(format: ExportFormat, columns: string[] | undefined): Encoder {
  if (format === 'ndjson') {
    return { page: (records) => records.map((r) => `${JSON.stringify(r)}\n`).join(''), end: () => '' };
  }
  if (format === 'json') {
    // One record per line inside the array: still valid JSON, and readable with line tools.
    return {
      page: (records, written) => records.map((r, i) => `${written + i === 0 ? '[\n' : ',\n'}${JSON.stringify(r)}`).join(''),
      end: (written) => (written === 0 ? '[]\n' : '\n]\n'),
    };
  }
  const cols = columns ?? [];
  return {
    page: (records, written) => {
      const head = written === 0 && records.length > 0 ? `${cols.map(csvCell).join(',')}\r\n` : '';
      return head + records.map((r) => `${cols.map((c) => csvCell(getPath(r, c))).join(',')}\r\n`).join('');
    },
    // An empty export still gets its header row.
    end: (written) => (written === 0 ? `${cols.map(csvCell).join(',')}\r\n` : ''),
  };
}

/**
 * CSV columns for an export: the operation's known fields that the first page has, then any other
 * keys the first page has (custom-field hashes), in first-seen order.
 */
export function csvColumns(known: string[] | undefined, firstPage: unknown[]): string[] {
  const seen: string[] = [];
  const add = (k: string) => {
    if (!seen.includes(k)) seen.push(k);
  };
  const present = new Set<string>();
  for (const r of firstPage) if (r && typeof r === 'object') for (const k of Object.keys(r)) present.add(k);
  for (const k of known ?? []) if (present.has(k) || firstPage.length === 0) add(k);
  for (const k of present) add(k);
  return seen;
}
