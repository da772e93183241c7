import { callOperation, recordsOf } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { prepare, type Reader } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { CancelledError, NotFoundError } from '../core/errors.js';
import type { HttpPort } from '../core/http-port.js';
import type { ItemEntry } from '../runs/run.js';
import { recordsOfFilter } from './bulk-update-select.js';

type Rec = Record<string, unknown>;

// `<area> bulk-update --where "Budget > 1000"`: the conditions by name are the service's condition tree
// (src/names/conditions.ts builds it at the entry of the filter create), and only the service evaluates
// a tree, so the selection goes through a saved filter that lives for the selection's reads alone:
// created, its records read, deleted, all before the plan is printed. Evaluating the tree here instead
// would be a second interpreter of the service's operators (dates, money, labels, case) that could
// select other records than the same filter in the web app; the cost of the honest way is two writes
// (create 10, delete 6), said in the plan.
//
// The filter is a write of the run like any other: journaled ("sending", with its name) before it is
// created, with its id once created, and its delete after. A run killed in between (kill -9, or a
// second signal) leaves it in the journal, and the next run of that journal deletes it first
// (leftoverFilter below) and says so.

/** The journal's key of the temporary filter. */
export const FILTER_KEY = 'filter:temporary';

/** What the plan says about the temporary filter (its id, and that it is gone). */
export interface WhereSelection {
  records: Rec[];
  note: string;
}

/** The records the conditions select, through a temporary saved filter that is deleted on every path the process lives through. */
export async function recordsOfWhere(
  ctx: Context, reader: Reader, http: HttpPort, o: { list: Operation; type: string; where: string[]; runId: string; append: (e: ItemEntry) => Promise<void> },
): Promise<WhereSelection> {
  const { filterOps } = await import('../api/operations/filters.js');
  // The name says what made it and that it may go: found by it when a kill came before its id was journaled.
  const name = filterName(o.runId);
  // Names, operators and labels are checked here (exit 2 naming the clause) before anything is written.
  const input = await prepare(reader, filterOps.create, { params: {}, body: { name, type: o.type, where: o.where } });
  // Ctrl-C or SIGTERM while the filter exists is held until it is deleted, then honoured.
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await o.append({ key: FILTER_KEY, op: 'create', status: 'sending', at: Date.now(), temporary: true, sent: { name, type: o.type } });
    const { envelope } = await callOperation(http, filterOps.create, input);
    const id = (recordsOf(filterOps.create, envelope) as Rec | null)?.id;
    if (typeof id !== 'number' && typeof id !== 'string') throw new Error('internal: the filter create answered without an id');
    await o.append({ key: FILTER_KEY, op: 'create', status: 'done', id, temporary: true });
    ctx.debug(`bulk-update --where: temporary filter ${id} created`);
    let records: Rec[];
    try {
      records = await recordsOfFilter(reader, o.list, { filter_id: id });
    } finally {
      await remove(ctx, reader, http, filterOps.delete, id, o.append);
    }
    if (interrupted) throw new CancelledError('Bulk update stopped before its plan: nothing was updated (the temporary filter is deleted).');
    return { records, note: `selected through temporary filter ${id} (created for the selection and deleted before this plan)` };
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

const filterName = (runId: string) => `crmctl bulk-update ${runId} (temporary: safe to delete)`;

/**
 * A temporary filter a killed run left: created (or being created) in its journal and never deleted.
 * Deleted now, by its id, or found by its name when the kill came before the id was journaled.
 */
export async function removeLeftoverFilter(ctx: Context, reader: Reader, http: HttpPort, runId: string, entries: ItemEntry[], append: (e: ItemEntry) => Promise<void>): Promise<void> {
  const mine = entries.filter((e) => e.key === FILTER_KEY);
  if (!mine.length || mine.some((e) => e.op === 'delete' && e.status === 'done')) return;
  const { filterOps } = await import('../api/operations/filters.js');
  let id = mine.find((e) => e.op === 'create' && e.status === 'done')?.id as string | number | undefined;
  if (id === undefined) {
    const { readAll } = await import('../entry/prepare.js');
    for await (const f of readAll(reader, filterOps.list, {})) if ((f as Rec).name === filterName(runId)) id = (f as Rec).id as string | number;
  }
  if (id === undefined) {
    // The create never reached the service: nothing to delete.
    await append({ key: FILTER_KEY, op: 'delete', status: 'done', temporary: true, absent: true });
    return;
  }
  ctx.io.stderr.write(`The run ${runId} was stopped while its temporary filter ${id} existed; deleting it now.\n`);
  await remove(ctx, reader, http, filterOps.delete, id, append);
}

/** Deletes the temporary filter; a failure is a warning naming the command that deletes it (the selection stands). */
async function remove(ctx: Context, reader: Reader, http: HttpPort, del: Operation, id: string | number, append: (e: ItemEntry) => Promise<void>): Promise<void> {
  await append({ key: FILTER_KEY, op: 'delete', status: 'sending', at: Date.now(), record: id, temporary: true });
  try {
    await callOperation(http, del, await prepare(reader, del, { params: { id } }));
    await append({ key: FILTER_KEY, op: 'delete', status: 'done', record: id, temporary: true });
  } catch (err) {
    if (err instanceof NotFoundError) {
      await append({ key: FILTER_KEY, op: 'delete', status: 'done', record: id, temporary: true, absent: true });
      return;
    }
    ctx.warn(`the temporary filter ${id} could not be deleted (${(err as Error).message}); delete it with: crmctl filters delete ${id} --yes`);
  }
}
