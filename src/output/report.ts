import type { Context } from '../core/context.js';
import type { OutputFormat } from '../core/globals.js';
import { csvCell, getPath, tsvCell } from './cells.js';
import { formatFor } from './format.js';
import { safeLines } from './safe-text.js';
import { checkFields, writeOut } from './render.js';

/**
 * Output of commands that report on work they did (apply, destroy, import, doctor) rather than
 * list records. Their human report is the default on a terminal and in a pipe alike (it is a log a
 * CI job keeps); --output json prints one document, ndjson one JSON line per row, csv/tsv the rows
 * with the command's columns. --fields picks columns for the row formats. The human text quotes
 * record text (a lead's title in a plan line), so its control characters are shown as escapes.
 */
export interface ReportSpec<R extends object> {
  /** Row fields in column order (csv header, tsv cells, default --fields). */
  columns: readonly string[];
  /** The human line of one row. */
  line(row: R): string;
}

export interface ReportWriter<R extends object> {
  row(row: R): Promise<void>;
  /**
   * The closing summary: a line for people, the whole document for --output json. `painted`: the text
   * carries crmctl's own colours, and its producer made the record text in it safe itself (safeText),
   * so it is printed as it is; any other text has its control characters shown as escapes.
   */
  end(summary: { text: string; json: unknown; painted?: boolean }): Promise<void>;
}

export function reportWriter<R extends object>(ctx: Context, spec: ReportSpec<R>): ReportWriter<R> {
  const format = formatFor(ctx, 'report');
  const columns = ctx.globals.fields ?? [...spec.columns];
  checkFields(ctx, spec.columns);
  const out = (s: string) => writeOut(ctx.io.stdout, s);
  let headed = false;
  return {
    async row(r) {
      // --query prints its result over the closing document only.
      if (ctx.globals.query) return;
      if (format === 'text') await out(`${safeLines(spec.line(r))}\n`);
      else if (format === 'ndjson') await out(`${JSON.stringify(pick(r, columns))}\n`);
      else if (format === 'tsv') await out(`${columns.map((c) => tsvCell(getPath(r, c))).join('\t')}\n`);
      else if (format === 'csv') {
        if (!headed) await out(`${columns.map(csvCell).join(',')}\r\n`);
        headed = true;
        await out(`${columns.map((c) => csvCell(getPath(r, c))).join(',')}\r\n`);
      }
    },
    async end(summary) {
      if (ctx.globals.query) return out(await (await import('./query.js')).queriedText(ctx, summary.json));
      if (format === 'text') await out(`${summary.painted ? summary.text : safeLines(summary.text)}\n`);
      else if (format === 'json') await out(`${JSON.stringify(summary.json, null, 2)}\n`);
      else {
        if (format === 'csv' && !headed) await out(`${columns.map(csvCell).join(',')}\r\n`);
        // Row formats carry only rows; the summary goes where people look.
        ctx.info(summary.text);
      }
    },
  };
}

/**
 * One result document (a dry-run plan, an import summary): json prints it, ndjson on one line,
 * csv/tsv as one row of `columns`, and the human text otherwise. A saved file's document (kind
 * 'saved') prints nothing on a terminal unless a format is asked for.
 */
export async function renderDocument(ctx: Context, doc: { json: Record<string, unknown>; text: string; columns?: readonly string[]; piped?: OutputFormat; kind?: 'report' | 'saved' }): Promise<void> {
  if (ctx.globals.query) return writeOut(ctx.io.stdout, await (await import('./query.js')).queriedText(ctx, doc.json));
  const format = formatFor(ctx, doc.kind ?? 'report', { piped: doc.piped });
  if (format === 'none') return;
  if (format === 'ndjson') return writeOut(ctx.io.stdout, `${JSON.stringify(doc.json)}\n`);
  if (format === 'text') return writeOut(ctx.io.stdout, `${safeLines(doc.text.replace(/\n$/, ''))}\n`);
  if (format === 'json') return writeOut(ctx.io.stdout, `${JSON.stringify(doc.json, null, 2)}\n`);
  await reportWriter<Record<string, unknown>>(ctx, { columns: doc.columns ?? Object.keys(doc.json), line: () => doc.text }).row(doc.json);
}

function pick(r: object, columns: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c] = getPath(r, c) ?? null;
  return out;
}
