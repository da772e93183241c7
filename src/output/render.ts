import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { cellText, csvCell, getPath, tsvCell } from './cells.js';
import { formatFor } from './format.js';
import { safeText } from './safe-text.js';
import { maskSecrets, maskedRecords } from './secrets.js';

export interface RenderOptions {
  /** Default columns for table/TSV/CSV. */
  columns?: string[];
  /** Known fields, to reject unknown --fields before anything is sent. */
  fields?: string[];
}

/** Fails (exit 2) for --fields names outside the known list; call before sending when the list is known. */
export function checkFields(ctx: Pick<Context, 'globals'>, known: readonly string[] | undefined): void {
  const wanted = ctx.globals.fields;
  if (!wanted || !known?.length) return;
  const unknown = wanted.filter((f) => !known.includes(f.split('.')[0]!));
  if (unknown.length) {
    throw new UsageError(`--fields: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Valid fields: ${[...new Set(known)].join(', ')}`);
  }
}

function selectFields(record: unknown, fields: string[] | undefined): unknown {
  if (!fields || record === null || typeof record !== 'object' || Array.isArray(record)) return record;
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f] = getPath(record, f) ?? null;
  return out;
}

/**
 * Streams records to stdout in the chosen format. json/ndjson/csv/tsv write as records arrive
 * (constant memory for --all); only the table buffers, because column widths need every row.
 */
export async function renderRecords(ctx: Context, records: AsyncIterable<unknown> | Iterable<unknown>, opts: RenderOptions = {}): Promise<number> {
  if (!ctx.globals.showSecrets) records = maskedRecords(records);
  if (ctx.globals.query !== undefined) {
    // The query sees the whole array --json would print.
    const all: unknown[] = [];
    for await (const r of records) all.push(r);
    await writeOut(ctx.io.stdout, await (await import('./query.js')).queriedText(ctx, all));
    return all.length;
  }
  const format = formatFor(ctx, 'records');
  const out = ctx.io.stdout;
  const fields = ctx.globals.fields;
  let count = 0;
  let columns = fields ?? opts.columns;
  let knownChecked = Boolean(opts.fields?.length) || !fields;
  const checkAgainst = (rec: unknown) => {
    if (knownChecked) return;
    knownChecked = true;
    if (rec && typeof rec === 'object') checkFields(ctx, Object.keys(rec));
  };
  const write = (s: string) => writeOut(out, s);

  if (format === 'table') {
    // A table needs every row before it can be drawn: show a spinner (stderr, terminal only) meanwhile.
    const rows: unknown[] = [];
    await ctx.spin('Loading…', async () => {
      for await (const r of records) {
        checkAgainst(r);
        rows.push(asRow(r));
      }
    });
    columns ??= inferColumns(rows);
    if (rows.length === 0) {
      ctx.info('No records.');
      return 0;
    }
    const { renderTable } = await import('./table.js');
    await write(renderTable(rows, columns, { color: ctx.colorEnabled, width: ctx.io.columns }));
    return rows.length;
  }

  if (format === 'json') {
    let first = true;
    for await (const r of records) {
      checkAgainst(r);
      await write(`${first ? '[\n' : ',\n'}${indent(JSON.stringify(selectFields(r, fields), null, 2))}`);
      first = false;
      count++;
    }
    await write(first ? '[]\n' : '\n]\n');
    return count;
  }

  for await (let r of records) {
    checkAgainst(r);
    if (format === 'ndjson') {
      await write(`${JSON.stringify(selectFields(r, fields))}\n`);
    } else {
      r = asRow(r);
      if (count === 0) {
        columns ??= inferColumns([r]);
        if (format === 'csv') await write(`${columns.map(csvCell).join(',')}\r\n`);
      }
      const cells = columns!.map((c) => getPath(r, c));
      await write(format === 'csv' ? `${cells.map(csvCell).join(',')}\r\n` : `${cells.map(tsvCell).join('\t')}\n`);
    }
    count++;
  }
  if (count === 0 && format === 'csv' && columns) await write(`${columns.map(csvCell).join(',')}\r\n`);
  return count;
}

/** One object (get, create, update): json prints the object itself; table prints `key: value` lines (record-view.ts). */
export async function renderRecord(ctx: Context, record: unknown, opts: RenderOptions = {}): Promise<void> {
  if (!ctx.globals.showSecrets) record = maskSecrets(record);
  if (ctx.globals.query !== undefined) return writeOut(ctx.io.stdout, await (await import('./query.js')).queriedText(ctx, record));
  const format = formatFor(ctx, 'records');
  if (record && typeof record === 'object' && !Array.isArray(record)) checkFields(ctx, opts.fields?.length ? opts.fields : Object.keys(record));
  if (format === 'json') {
    await writeOut(ctx.io.stdout, `${JSON.stringify(selectFields(record, ctx.globals.fields), null, 2)}\n`);
    return;
  }
  if (format === 'table' && record && typeof record === 'object' && !Array.isArray(record)) {
    const keys = ctx.globals.fields ?? opts.columns ?? Object.keys(record);
    const { renderRecordView } = await import('./record-view.js');
    await writeOut(ctx.io.stdout, renderRecordView(record as Record<string, unknown>, keys, { color: ctx.colorEnabled, width: ctx.io.columns }));
    return;
  }
  if (Array.isArray(record)) {
    await renderRecords(ctx, record, opts);
    return;
  }
  if (record === null || typeof record !== 'object') {
    await writeOut(ctx.io.stdout, `${format === 'ndjson' ? JSON.stringify(record) : format === 'csv' ? csvCell(record) : format === 'tsv' ? tsvCell(record) : safeText(cellText(record))}\n`);
    return;
  }
  await renderRecords(ctx, [record], opts);
}

/** Lists of bare values (user ids) become one-column rows for table, TSV and CSV. */
function asRow(r: unknown): unknown {
  return r !== null && typeof r === 'object' ? r : { value: r };
}

function inferColumns(rows: unknown[]): string[] {
  const keys = new Set<string>();
  for (const r of rows.slice(0, 20)) if (r && typeof r === 'object') for (const k of Object.keys(r)) keys.add(k);
  return [...keys].slice(0, 8);
}

function indent(s: string): string {
  return s.replace(/^/gm, '  ');
}

/**
 * Respects back-pressure so a slow pipe (| head, | less) does not make us buffer everything. A stream
 * that fails or closes instead of draining ends the wait (the bin reports stdout errors; a closed
 * reader just means nobody wants the rest).
 */
export function writeOut(stream: NodeJS.WritableStream, s: string): Promise<void> | void {
  const w = stream as NodeJS.WritableStream & { destroyed?: boolean };
  if (w.destroyed) return;
  if (stream.write(s)) return;
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('error', done);
    stream.once('close', done);
  });
}
