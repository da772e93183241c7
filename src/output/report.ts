import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import type { OutputFormat } from '../core/globals.js';
import { csvCell, getPath, tsvCell } from './cells.js';
import { checkFields, writeOut } from './render.js';

/**
 * Output of commands that report on work they did (apply, destroy, import, doctor) rather than
 * list records. Their human report is the default on a terminal and in a pipe alike (it is a log a
 * CI job keeps); --output json prints one document, ndjson one JSON line per row, csv/tsv the rows
 * with the command's columns. --fields picks columns for the row formats.
 */
export interface ReportSpec<R extends object> {
  /** Row fields in column order (csv header, tsv cells, default --fields). */
  columns: readonly string[];
  /** The human line of one row. */
  line(row: R): string;
}

export interface ReportWriter<R extends object> {
  row(row: R): Promise<void>;
  /** The closing summary: a line for people, the whole document for --output json. */
  end(summary: { text: string; json: unknown }): Promise<void>;
}

/** --output, else the human report; `piped` replaces the default when stdout is not a terminal (sandbox start: a JSON line). */
export function reportFormat(ctx: Pick<Context, 'globals' | 'io'>, piped?: OutputFormat): OutputFormat {
  return ctx.globals.output ?? (piped && !ctx.io.isStdoutTTY ? piped : 'table');
}

export function reportWriter<R extends object>(ctx: Context, spec: ReportSpec<R>): ReportWriter<R> {
  const format = reportFormat(ctx);
  const columns = ctx.globals.fields ?? [...spec.columns];
  checkFields(ctx, spec.columns);
  const out = (s: string) => writeOut(ctx.io.stdout, s);
  let headed = false;
  return {
    async row(r) {
      // --query prints its result over the closing document only.
      if (ctx.globals.query) return;
      if (format === 'table') await out(`${spec.line(r)}\n`);
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
      if (format === 'table') await out(`${summary.text}\n`);
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
 * csv/tsv as one row of `columns`, and the human text otherwise.
 */
export async function renderDocument(ctx: Context, doc: { json: Record<string, unknown>; text: string; columns?: readonly string[]; piped?: OutputFormat }): Promise<void> {
  if (ctx.globals.query) return writeOut(ctx.io.stdout, await (await import('./query.js')).queriedText(ctx, doc.json));
  const format = reportFormat(ctx, doc.piped);
  if (format === 'ndjson') return writeOut(ctx.io.stdout, `${JSON.stringify(doc.json)}\n`);
  if (format === 'table') return writeOut(ctx.io.stdout, `${doc.text.replace(/\n$/, '')}\n`);
  if (format === 'json') return writeOut(ctx.io.stdout, `${JSON.stringify(doc.json, null, 2)}\n`);
  await reportWriter<Record<string, unknown>>(ctx, { columns: doc.columns ?? Object.keys(doc.json), line: () => doc.text }).row(doc.json);
}

/**
 * Formats a stream of events can take (webhooks listen): lines for people on a terminal, JSON lines
 * otherwise. csv/tsv have no fixed columns for free-form events: exit 2 before anything starts.
 */
export function eventFormat(ctx: Pick<Context, 'globals' | 'io'>): 'pretty' | 'ndjson' {
  const f = ctx.globals.output;
  if (ctx.globals.query) throw new UsageError('--query: events are a stream with no one document to query; pipe the JSON lines to jq instead');
  if (f === 'csv' || f === 'tsv') throw new UsageError(`--output ${f}: events have no fixed columns; use json or ndjson (the default when piped)`);
  if (f === 'json' || f === 'ndjson') return 'ndjson';
  if (f === 'table') return 'pretty';
  return ctx.io.isStdoutTTY ? 'pretty' : 'ndjson';
}

function pick(r: object, columns: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) out[c] = getPath(r, c) ?? null;
  return out;
}
