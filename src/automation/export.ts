import { existsSync } from 'node:fs';
import { callOperation, nextPage, recordsOf } from '../api/call.js';
import { prepare } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { markResumable, UsageError } from '../core/errors.js';
import { budgetNotice } from './budget-notice.js';
import { readJson, removeIfExists, writeJsonAtomic } from './durable.js';
import { csvColumns, encoderFor, type ExportFormat } from './encoders.js';
import { Progress } from './progress.js';
import { LinkNamer } from './link-names.js';
import { findImportResource, type ExportResource } from './resources.js';
import { FileSink, StreamSink, type Sink } from './sink.js';

export interface ExportOptions {
  resource: ExportResource;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  format: ExportFormat;
  out?: string;
  resume: boolean;
  columns?: string[];
  pageSize?: number;
}

/** What `<out>.checkpoint.json` holds: enough to continue byte-exactly after a kill. */
export interface ExportCheckpoint {
  version: 1;
  resource: string;
  operation: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  format: ExportFormat;
  columns?: string[];
  /** Where the next page starts (offset or cursor); null when every page is written. */
  next: string | number | null;
  records: number;
  /** Length of the output file that holds exactly `records` records. */
  bytes: number;
  updated_at: string;
}

export const checkpointPath = (out: string) => `${out}.checkpoint.json`;

/**
 * Writes every record of a list, page by page: each page is encoded, written and fsynced, then the
 * checkpoint is replaced atomically, so at most one page is ever held and a killed run resumes at
 * the last checkpoint (output truncated to its byte length: no record twice, none missing).
 */
export async function runExport(ctx: Context, o: ExportOptions): Promise<{ records: number }> {
  const op = o.resource.op;
  const cpFile = o.out ? checkpointPath(o.out) : undefined;
  let cp: ExportCheckpoint | undefined;
  if (o.resume) {
    if (!o.out) throw new UsageError('--resume needs --out FILE (the checkpoint lives beside the output file)');
    cp = readJson<ExportCheckpoint>(cpFile!);
    if (cp) checkSameExport(cp, o);
    else ctx.info(`No checkpoint at ${cpFile}; starting from the first record.`);
  } else if (cpFile) {
    removeIfExists(cpFile);
  }

  const http = await ctx.http();
  const sink: Sink = o.out ? new FileSink(o.out, cp?.bytes) : new StreamSink(ctx.io.stdout);
  let columns = cp?.columns ?? o.columns;
  let written = cp?.records ?? 0;
  let next: string | number | undefined = cp ? (cp.next ?? undefined) : undefined;
  const finished = cp !== undefined && cp.next === null;
  const progress = new Progress(ctx, `export ${o.resource.name}`);
  const pageSize = Math.min(o.pageSize ?? op.maxLimit ?? 100, op.maxLimit ?? 500);
  // A CSV of a kind that imports names its links beside their ids, so it imports into another account.
  const importable = o.format === 'csv' && findImportResource(o.resource.name) !== undefined;
  const namer = o.format === 'csv' ? new LinkNamer(http) : undefined;
  // A CSV names custom fields as the web app does (one field-metadata read); import maps the names back.
  const named = o.format === 'csv' && op.cli.customFields ? await csvNamer(ctx, op.cli.customFields) : undefined;

  let noticed = false;
  try {
    while (!finished) {
      const query: Record<string, unknown> = { ...o.query };
      if (op.pagination !== 'none') query.limit = pageSize;
      if (next !== undefined) query[op.pagination === 'offset' ? 'start' : 'cursor'] = next;
      const { envelope } = await callOperation(http, op, await prepare(ctx, op, { params: o.params, query }));
      const data = recordsOf(op, envelope);
      const listed = Array.isArray(data) ? data : data == null ? [] : [data];
      const records = named ? listed.map(named) : listed;
      const after = op.pagination === 'none' || records.length === 0 ? undefined : nextPage(op, envelope);
      if (o.format === 'csv' && columns === undefined) {
        columns = csvColumns(op.cli.fields, records);
        if (importable) columns = LinkNamer.withNames(columns);
      }
      const encoder = encoderFor(o.format, columns);
      await sink.write(encoder.page(namer && columns ? await namer.annotate(records, columns) : records, written));
      sink.sync();
      written += records.length;
      if (cpFile) {
        const checkpoint: ExportCheckpoint = {
          version: 1, resource: o.resource.name, operation: op.id, params: o.params, query: o.query, format: o.format,
          ...(columns ? { columns } : {}), next: after ?? null, records: written, bytes: sink.bytes, updated_at: new Date().toISOString(),
        };
        writeJsonAtomic(cpFile, checkpoint);
      }
      if (!noticed) {
        // The first answer gives both the total and what is left today: the rest of the run, priced.
        noticed = true;
        const total = totalOf(envelope.additional_data);
        const perPage = op.cost ?? 1;
        if (after !== undefined) {
          budgetNotice(ctx, http, total !== undefined
            ? { tokens: Math.ceil(Math.max(0, total - written) / pageSize) * perPage, atLeast: op.cost == null }
            : { tokens: perPage, per: `a page of ${pageSize} records` });
        }
      }
      progress.update(written, { total: totalOf(envelope.additional_data) });
      if (after === undefined) break;
      next = after;
    }
    if (o.format === 'csv' && columns === undefined) columns = importable ? LinkNamer.withNames(csvColumns(op.cli.fields, [])) : csvColumns(op.cli.fields, []);
    await sink.write(encoderFor(o.format, columns).end(written));
    sink.sync();
  } catch (err) {
    // A checkpoint on disk means --resume continues from it: the error report says how.
    throw cpFile && existsSync(cpFile) ? markResumable(err) : err;
  } finally {
    sink.close();
  }
  if (cpFile) removeIfExists(cpFile);
  progress.done(written);
  if (o.out) ctx.info(`Wrote ${written} ${o.resource.name} records to ${o.out}.`);
  return { records: written };
}

async function csvNamer(ctx: Context, itemType: NonNullable<ExportResource['op']['cli']['customFields']>): Promise<(record: unknown) => unknown> {
  const [{ checkReader }, { fieldCatalog }, { csvRecord }] = await Promise.all([import('../entry/prepare.js'), import('../names/catalog.js'), import('../names/read.js')]);
  const cat = await fieldCatalog(checkReader(ctx), itemType, ctx);
  return (r) => csvRecord(cat, r);
}

function checkSameExport(cp: ExportCheckpoint, o: ExportOptions): void {
  const same = cp.resource === o.resource.name && cp.format === o.format && JSON.stringify(cp.params) === JSON.stringify(o.params) && JSON.stringify(cp.query) === JSON.stringify(o.query);
  if (!same) {
    throw new UsageError(
      `--resume: the checkpoint is for \`export ${cp.resource} --format ${cp.format}\` with ${JSON.stringify({ ...cp.params, ...cp.query })}; this command differs.`,
      'Run the same command as before with --resume, or drop --resume to start over.',
    );
  }
}

function totalOf(add: Record<string, unknown> | null | undefined): number | undefined {
  const p = (add?.pagination ?? add ?? {}) as Record<string, unknown>;
  const t = Number(p.total_count ?? p.total);
  return Number.isFinite(t) && t > 0 ? t : undefined;
}
