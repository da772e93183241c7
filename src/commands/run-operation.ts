import type { PageOptions } from '../api/entry-types.js';
import type { Operation, OperationInput } from '../api/operation.js';
import type { Context } from '../core/context.js';
import type { Prepared } from '../api/prepare.js';
import { flag, parseFlags } from '../core/flags.js';
import type { RawInput } from '../input/operation-input.js';

export interface RunHooks {
  /** Paging of a list (from --limit/--all/--start/--cursor); default: the first page. */
  paging?: PageOptions;
  /** Records as the command shows them (a hand-written command that reshapes rows). */
  present?: (records: AsyncIterable<unknown>) => AsyncIterable<unknown>;
  /** Replaces the confirmation question of a destructive operation. */
  confirmMessage?: string;
  /** Table columns when the command shows more (or less) than the table's default. */
  columns?: string[];
  /** Columns `present` adds (a name looked up for an id): valid in --fields beside the service's fields. */
  derived?: string[];
  /** The file of an upload operation (multipart/form-data). */
  upload?: import('../http/multipart.js').UploadFile;
}

/**
 * Runs one operation with typed input, the way a hand-written command calls it: the one entry
 * (`prepare`: unknown keys, the schemas, the operation's account checks; exit 2 naming the field,
 * nothing sent), then confirmation of destructive operations, the call (paged when the operation is)
 * and the output.
 */
export async function runOperation<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>, hooks: RunHooks = {}): Promise<void> {
  await executeOperation(ctx, op, await prepareTyped(ctx, op, input), hooks);
}

/** Typed input of a hand-written command through the one entry. */
export async function prepareTyped<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>): Promise<Prepared> {
  const { prepare } = await import('../api/prepare.js');
  return prepare(ctx, op, toRaw(input));
}

/** Calls one operation with typed input and returns its records (`data`, unwrapped); nothing is printed. */
export async function fetchOperation<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>): Promise<unknown> {
  const { read } = await import('../api/prepare.js');
  return read(ctx, op, toRaw(input));
}

/** Calls one operation with typed input and returns the whole answer (for what the service sends beside `data`). */
export async function fetchEnvelope<O extends Operation>(ctx: Context, op: O, input: OperationInput<O>): Promise<import('../api/call.js').Envelope> {
  const valid = await prepareTyped(ctx, op, input);
  const [http, { callOperation }] = await Promise.all([ctx.http(), import('../api/call.js')]);
  return (await callOperation(http, op, valid)).envelope;
}

function toRaw(input: unknown): RawInput {
  const i = input as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  return { params: i.params ?? {}, query: i.query ?? {}, body: i.body };
}

/** After the entry: confirm, send, render. Shared by generated and hand-written commands. */
export async function executeOperation(ctx: Context, op: Operation, input: Prepared, hooks: RunHooks = {}): Promise<void> {
  const { checkFields, renderRecords, renderRecord } = await import('../output/render.js');
  const known = op.cli.fields && [...op.cli.fields, ...(hooks.derived ?? [])];
  checkFields(ctx, known);
  if (op.cli.confirm) await ctx.confirm(hooks.confirmMessage ?? `${op.cli.summary} ${Object.values(input.params).join(' ')}?`);
  const http = await ctx.http();
  const { callOperation, paginate, recordsOf, asRecords } = await import('../api/call.js');
  const present = hooks.present ?? ((r: AsyncIterable<unknown>) => r);
  const view = { columns: hooks.columns ?? op.cli.columns, fields: known };
  if (op.pagination !== 'none') {
    const paging = { ...hooks.paging };
    const { watchList } = await import('./list-notice.js');
    const watch = watchList({ all: paging.all, limit: paging.limit });
    // More than one page's worth: follow pages until the limit.
    if (paging.limit !== undefined && !paging.all && op.maxLimit && paging.limit > op.maxLimit) paging.all = true;
    await renderRecords(ctx, present(asRecords(op, watch.count(paginate(http, op, input, { ...paging, onPage: watch.onPage })))), view);
    const notice = watch.notice();
    if (notice) ctx.io.stderr.write(`${notice}\n`);
    return;
  }
  // An upload shows its own progress line; anything else a spinner while it waits.
  const call = () => callOperation(http, op, input, hooks.upload ? { upload: hooks.upload } : {});
  const { envelope } = hooks.upload ? await call() : await ctx.spin(`${op.method} ${op.path}`, call);
  const data = recordsOf(op, envelope);
  if (Array.isArray(data)) {
    await renderRecords(ctx, present(asRecords(op, toAsync(data))), view);
    return;
  }
  let record: unknown = data ?? { success: envelope.success ?? true };
  // One record stays one record (json prints the object, a table its fields) after presentation.
  if (hooks.present) for await (const r of hooks.present(toAsync([record]))) record = r;
  await renderRecord(ctx, record, view);
}

async function* toAsync(items: unknown[]): AsyncGenerator<unknown> {
  yield* items;
}

/**
 * The paging flags of a list command, described once: operationOptions declares `limit`, `all` and
 * the one of `start`/`cursor` its pagination uses; pagingOptions reads them back checked.
 */
export function pagingFlags(maxLimit = 500) {
  return {
    limit: flag.int({ min: 1, description: `at most this many records (page size up to ${maxLimit})` }),
    all: flag.bool({ description: 'follow every page' }),
    start: flag.int({ min: 0, description: 'start from this position (resume)' }),
    cursor: flag.string({ value: 'cursor', description: 'start from this position (resume)' }),
  };
}

/** --limit/--all/--start/--cursor of a list command, checked. */
export function pagingOptions(opts: Record<string, unknown>): PageOptions {
  const { limit, all, start, cursor } = parseFlags(pagingFlags(), opts);
  return { limit, all, from: start !== undefined ? String(start) : cursor };
}
