import type { PageOptions } from '../api/entry-types.js';
import type { Operation } from '../api/operation.js';
import type { Prepared } from '../entry/prepare.js';
import { asRecords, callOperation, paginate, recordsOf } from '../api/call.js';
import type { Context } from '../core/context.js';
import { checkFields, renderRecord, renderRecords } from '../output/render.js';
import { watchList } from './list-notice.js';

// What a command needs once it runs, in one module: the one entry (prepare), the named view of custom
// fields, the call and the output. Each separate import() is a file of its own in the bundle (a facade
// of a shared chunk) and Node pays for every file it loads; a command that runs needs all of them.
export { prepare } from '../entry/prepare.js';
export { namedView } from './named-view.js';

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

/** After the entry: confirm, send, render. Shared by generated and hand-written commands. */
export async function executeOperation(ctx: Context, op: Operation, input: Prepared, hooks: RunHooks = {}): Promise<void> {
  const known = op.cli.fields && [...op.cli.fields, ...(hooks.derived ?? [])];
  checkFields(ctx, known);
  if (op.cli.confirm) await ctx.confirm(hooks.confirmMessage ?? `${op.cli.summary} ${Object.values(input.params).join(' ')}?`);
  const http = await ctx.http();
  const present = hooks.present ?? ((r: AsyncIterable<unknown>) => r);
  const view = { columns: hooks.columns ?? op.cli.columns, fields: known };
  if (op.pagination !== 'none') {
    const paging = { ...hooks.paging };
    const watch = watchList({ all: paging.all, limit: paging.limit });
    // More than one page's worth: follow pages until the limit.
    if (paging.limit !== undefined && !paging.all && op.maxLimit && paging.limit > op.maxLimit) paging.all = true;
    await renderRecords(ctx, present(asRecords(op, watch.count(paginate(http, op, input, { ...paging, onPage: watch.onPage })))), view);
    const notice = watch.notice();
    if (notice) ctx.io.stderr.write(`${notice}\n`);
    return;
  }
  // An upload shows its own progress line; anything else a spinner while it waits.
  // A write is recorded (src/automation/record-write.ts: a run of its own, undone by `crmctl undo`).
  const send = () => callOperation(http, op, input, hooks.upload ? { upload: hooks.upload } : {});
  const call = op.method === 'GET' ? send : async () => (await import('../automation/record-write.js')).recordedWrite(ctx, op, input, { kind: 'command' }, send);
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
