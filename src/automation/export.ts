import { callOperation, nextPage, pageQuery, recordsOf, type Envelope } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { prepare } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { ReadAhead } from '../core/read-ahead.js';
import { markResumable, UsageError } from '../core/errors.js';
import { currencyFor } from '../runs/account.js';
import { canonical, hashOf } from '../runs/fingerprint.js';
import { openRun, type ItemEntry, type Run } from '../runs/run.js';
import { budgetNotice } from './budget-notice.js';
import { csvColumns, encoderFor, type ExportFormat } from './encoders.js';
import { Progress } from './progress.js';
import { findImportResource, readOnlyFields, type ExportResource } from './resources.js';
import { FileSink, StreamSink, type Sink } from './sink.js';

export interface ExportOptions {
  resource: ExportResource;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  format: ExportFormat;
  out?: string;
  resume: boolean;
  /** Start a new run even when the checkpoint holds one (src/runs/run.ts). */
  newRun?: boolean;
  columns?: string[];
  pageSize?: number;
  /** deals, leads: read the archived list after the plain one (the plain list leaves archived records out). */
  includeArchived?: boolean;
  /** The checkpoint is removed when the export completes (an incremental export's full pass). */
  ephemeral?: boolean;
  /**
   * The service's records as they are: no names beside the link ids, custom values by key only
   * (`export --raw`, an incremental copy). Otherwise a kind that imports carries its links and custom
   * values by name, so its file imports into another account (src/names/links).
   */
  raw?: boolean;
}

/** One page written: where the next starts, and the file length that holds exactly `records` records. */
export interface PageEntry extends ItemEntry {
  /** 0: the plain list; 1: the archived list (--include-archived). */
  phase: number;
  next: string | number | null;
  records: number;
  bytes: number;
  columns?: string[];
}

export const checkpointPath = (out: string) => `${out}.checkpoint.json`;

/**
 * The kinds whose plain list leaves archived records out (since 2025-07-15, api-facts §11), with the
 * list that holds them. Their exports say which were read, and --include-archived reads both.
 */
const ARCHIVED_LISTS: Record<string, () => Promise<Operation>> = {
  deals: async () => (await import('../api/operations/deals.js')).dealOps.archived,
  leads: async () => (await import('../api/operations/leads.js')).leadOps.archived,
};

export const hasArchivedList = (resource: string) => resource in ARCHIVED_LISTS;

/**
 * Writes every record of a list, page by page: each page is encoded, written and fsynced, then a page
 * entry is appended to the run's journal (`<out>.checkpoint.json`, src/runs), so at most one page is
 * ever held and a killed run resumes at the last page entry (output truncated to its byte length: no
 * record twice, none missing).
 */
export async function runExport(ctx: Context, o: ExportOptions): Promise<{ records: number }> {
  const archived = ARCHIVED_LISTS[o.resource.name];
  if (o.includeArchived && !archived) throw new UsageError(`--include-archived: only for ${Object.keys(ARCHIVED_LISTS).join(' and ')} (the lists that leave archived records out)`);
  const ops: Operation[] = [o.resource.op, ...(o.includeArchived && archived ? [await archived()] : [])];
  if (o.resume && !o.out) throw new UsageError('--resume needs --out FILE (the checkpoint lives beside the output file)');

  let run: Run | undefined;
  let last: PageEntry | undefined;
  let firstColumns: string[] | undefined;
  if (o.out) {
    const what = { resource: o.resource.name, operations: ops.map((op) => op.id), params: o.params, query: o.query, format: o.format, columns: o.columns ?? null, ...(o.raw ? { raw: true } : {}) };
    const opened = await openRun(ctx, {
      kind: 'export',
      journal: checkpointPath(o.out),
      input: { fingerprint: hashOf(canonical(what)), describe: `\`export ${o.resource.name} --format ${o.format}\`${Object.keys({ ...o.params, ...o.query }).length ? ` with ${JSON.stringify({ ...o.params, ...o.query })}` : ''}${o.includeArchived ? ' --include-archived' : ''} to ${o.out}` },
      resume: o.resume,
      newRun: o.newRun ?? false,
      header: what,
      ephemeral: o.ephemeral,
    });
    if (opened.state === 'done') return { records: Number(opened.end.counts && (opened.end.counts as { records?: number }).records) || 0 };
    run = opened.run;
    if (opened.state === 'resume') {
      const pages = opened.entries.filter((e): e is PageEntry => e.key.startsWith('page:'));
      last = pages[pages.length - 1];
      firstColumns = pages.find((p) => p.columns)?.columns;
    }
  }

  // An incremental copy (ephemeral full pass) follows the changes feed, which has its own rules about archived records.
  if (archived && !o.ephemeral) archivedNotice(ctx, o.resource.name, ops[1]);
  const http = await ctx.http();
  let sink: Sink;
  try {
    sink = o.out ? new FileSink(o.out, last?.bytes ?? (run?.resumable ? 0 : undefined)) : new StreamSink(ctx.io.stdout);
  } catch (err) {
    await run?.close();
    throw err;
  }
  let columns = firstColumns ?? o.columns;
  let written = last?.records ?? 0;
  // Where to go on: the page after the last one written, or the next list once a list is done.
  let phase = last ? (last.next === null ? last.phase + 1 : last.phase) : 0;
  let next: string | number | undefined = last && last.next !== null ? last.next : undefined;
  let page = last ? Number(last.key.slice(5)) + 1 : 0;
  const progress = new Progress(ctx, `export ${o.resource.name}`);
  const op0 = o.resource.op;
  const pageSizeOf = (op: Operation) => Math.min(o.pageSize ?? op.maxLimit ?? 100, op.maxLimit ?? 500);
  // A kind that imports names its links beside their ids and its custom values by field name, so its
  // file imports into another account; other CSVs name custom fields as the web app does (one
  // field-metadata read). Each linked list is read once per export.
  const importable = !o.raw && findImportResource(o.resource.name) !== undefined;
  const namer = importable ? await recordNames(ctx, o.resource, o.format) : undefined;
  const named = !importable && !o.raw && o.format === 'csv' && op0.cli.customFields ? await csvNamer(ctx, op0.cli.customFields) : undefined;

  const readPage = async (op: Operation, at: string | number | undefined): Promise<Envelope> => {
    const query = pageQuery(op, o.query, pageSizeOf(op), at);
    return (await callOperation(http, op, await prepare(ctx, op, { params: o.params, query }))).envelope;
  };
  const ahead = new ReadAhead<Envelope>();
  let noticed = false;
  run?.watchSignals('page');
  try {
    await run?.begin();
    while (phase < ops.length) {
      if (run?.stopping) throw run.stoppedError(`${written} records written to ${o.out}`);
      const op = ops[phase]!;
      const envelope = await ahead.take(`${phase}:${String(next)}`, () => readPage(op, next));
      const data = recordsOf(op, envelope);
      const listed = Array.isArray(data) ? data : data == null ? [] : [data];
      const after = op.pagination === 'none' || listed.length === 0 ? undefined : nextPage(op, envelope);
      if (!noticed) {
        // The first answer gives both the total and what is left today: the rest of the run, priced
        // before the next page is asked for (the figures are this page's).
        noticed = true;
        const total = totalOf(envelope.additional_data);
        const perPage = op.cost ?? 1;
        const pageSize = pageSizeOf(op);
        if (after !== undefined) {
          budgetNotice(ctx, http, total !== undefined
            ? { tokens: Math.ceil(Math.max(0, total - written - listed.length) / pageSize) * perPage, atLeast: op.cost == null }
            : { tokens: perPage, per: `a page of ${pageSize} records` });
        }
      }
      // The next page is asked for now, while this one is named, encoded and synced (src/core/read-ahead.ts).
      if (after !== undefined) await ahead.ask(`${phase}:${String(after)}`, () => readPage(op, after));
      const records = namer ? await namer.annotate(listed) : named ? await named(listed) : listed;
      const newColumns = o.format === 'csv' && columns === undefined;
      if (newColumns) {
        columns = csvColumns(op0.cli.fields, records);
        if (namer) columns = namer.columns(columns);
      }
      const encoder = encoderFor(o.format, columns);
      await sink.write(encoder.page(records, written));
      sink.sync();
      written += records.length;
      await run?.append({ key: `page:${page}`, op: 'read', status: 'done', phase, next: after ?? null, records: written, bytes: sink.bytes, ...(newColumns && !o.columns ? { columns } : {}) } satisfies PageEntry);
      page++;
      progress.update(written, { total: phase === 0 ? totalOf(envelope.additional_data) : undefined });
      if (after === undefined) {
        phase++;
        next = undefined;
      } else next = after;
    }
    if (o.format === 'csv' && columns === undefined) columns = namer ? namer.columns(csvColumns(op0.cli.fields, [])) : csvColumns(op0.cli.fields, []);
    await sink.write(encoderFor(o.format, columns).end(written));
    sink.sync();
    await run?.finish(`${written} records written to ${o.out}`, { records: written });
  } catch (err) {
    // A journal on disk means --resume continues from it: the error report says how.
    if (!run?.resumable) throw err;
    await run.pause(`${written} records written`);
    throw markResumable(err);
  } finally {
    sink.close();
    await run?.close();
  }
  progress.done(written);
  // What the file cannot carry to another account is said once, never dropped silently.
  const lost = namer?.warning();
  if (lost) ctx.warn(lost);
  if (o.out) ctx.info(`Wrote ${written} ${o.resource.name} records to ${o.out}.`);
  return { records: written };
}

/** Says whether archived records are in the export: the plain lists of deals and leads leave them out. */
function archivedNotice(ctx: Context, resource: string, archivedOp: Operation | undefined): void {
  if (archivedOp) ctx.io.stderr.write(`note: archived ${resource} included: read after the others from ${archivedOp.method} ${archivedOp.path} (cost ${archivedOp.cost} a page).\n`);
  else ctx.io.stderr.write(`note: archived ${resource} are not included (the service leaves them out of its ${resource} list); --include-archived adds them.\n`);
}

/** Who made or changed a record, and the service's own external ids: stamps, not links an import could carry. */
const STAMPS = new Set(['id', 'creator_user_id', 'creator_id', 'last_update_user_id', 'user_id', 'origin_id']);

/** The names an importable kind's export carries (src/names/links/record-names.ts), in the form of the file's format. */
async function recordNames(ctx: Context, resource: ExportResource, format: ExportFormat) {
  const [{ checkReader }, { linkNames }, { RecordNames }, { withNameColumns }] = await Promise.all([
    import('../entry/prepare.js'), import('../names/links/resolver.js'), import('../names/links/record-names.js'), import('../names/links/columns.js'),
  ]);
  const reader = checkReader(ctx);
  const names = linkNames(reader, ctx);
  const itemType = resource.op.cli.customFields;
  // Links the create does not take (a deal's source_lead_id, set by a conversion): named in the warning.
  const readOnly = new Set([...readOnlyFields(resource.name)].filter((k) => /_ids?$/.test(k) && !STAMPS.has(k)));
  const by = new RecordNames(names, itemType, resource.name, readOnly);
  const catalog = itemType ? await names.catalog(itemType) : undefined;
  const currency = catalog && currencyFor(ctx, catalog);
  // A product's variations are a list of their own: carried in a `variations` member (product-variations.ts).
  const variations = resource.name === 'products' ? (await import('./product-variations.js')).withVariations : undefined;
  return {
    columns: (columns: string[]) => {
      const named = withNameColumns(columns, itemType);
      return variations && !named.includes('variations') ? [...named, 'variations'] : named;
    },
    annotate: async (records: unknown[]) => {
      const named = await by.annotate(records, catalog && currency ? { custom: { catalog, form: format === 'csv' ? 'cells' : 'fields', currency: await currency(records) } } : {});
      return variations ? variations(reader, named) : named;
    },
    warning: () => by.warning(),
  };
}

async function csvNamer(ctx: Context, itemType: NonNullable<ExportResource['op']['cli']['customFields']>): Promise<(records: unknown[]) => Promise<unknown[]>> {
  const [{ checkReader }, { fieldCatalog }, { csvRecord }] = await Promise.all([import('../entry/prepare.js'), import('../names/catalog.js'), import('../names/read.js')]);
  const cat = await fieldCatalog(checkReader(ctx), itemType, ctx);
  const currency = currencyFor(ctx, cat);
  return async (records) => {
    const c = await currency(records);
    return records.map((r) => csvRecord(cat, r, c));
  };
}

function totalOf(add: Record<string, unknown> | null | undefined): number | undefined {
  const p = (add?.pagination ?? add ?? {}) as Record<string, unknown>;
  const t = Number(p.total_count ?? p.total);
  return Number.isFinite(t) && t > 0 ? t : undefined;
}
