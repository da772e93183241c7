import { callOperation, recordsOf } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import { prepare, type Reader } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { CancelledError } from '../core/errors.js';
import type { HttpPort } from '../core/http-port.js';
import { recordsOfFilter } from './bulk-update-select.js';

type Rec = Record<string, unknown>;

// `<area> bulk-update --where "Budget > 1000"`: the conditions by name are the service's condition tree
// (src/names/conditions.ts builds it at the entry of the filter create), and only the service evaluates
// a tree, so the selection goes through a saved filter that lives for the selection's reads alone:
// created, its records read, deleted, all before the plan is printed. Evaluating the tree here instead
// would be a second interpreter of the service's operators (dates, money, labels, case) that could
// select other records than the same filter in the web app; the cost of the honest way is two writes
// (create 10, delete 6), said in the plan.

/** What the plan says about the temporary filter (its id, and that it is gone). */
export interface WhereSelection {
  records: Rec[];
  note: string;
}

/** The records the conditions select, through a temporary saved filter that is deleted on every path the process lives through. */
export async function recordsOfWhere(
  ctx: Context, reader: Reader, http: HttpPort, o: { list: Operation; type: string; where: string[]; runId: string },
): Promise<WhereSelection> {
  const { filterOps } = await import('../api/operations/filters.js');
  // The name says what made it and that it may go: a kill -9 inside the window leaves it behind.
  const name = `crmctl bulk-update ${o.runId} (temporary: safe to delete)`;
  // Names, operators and labels are checked here (exit 2 naming the clause) before anything is written.
  const input = await prepare(reader, filterOps.create, { params: {}, body: { name, type: o.type, where: o.where } });
  // Ctrl-C while the filter exists is held until it is deleted, then honoured.
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
  };
  process.on('SIGINT', onSigint);
  try {
    const { envelope } = await callOperation(http, filterOps.create, input);
    const id = (recordsOf(filterOps.create, envelope) as Rec | null)?.id;
    if (typeof id !== 'number' && typeof id !== 'string') throw new Error('internal: the filter create answered without an id');
    ctx.debug(`bulk-update --where: temporary filter ${id} created`);
    let records: Rec[];
    try {
      records = await recordsOfFilter(reader, o.list, { filter_id: id });
    } finally {
      await remove(ctx, reader, http, filterOps.delete, id);
    }
    if (interrupted) throw new CancelledError('Bulk update stopped before its plan: nothing was updated (the temporary filter is deleted).');
    return { records, note: `selected through temporary filter ${id} (created for the selection and deleted before this plan)` };
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** Deletes the temporary filter; a failure is a warning naming the command that deletes it (the selection stands). */
async function remove(ctx: Context, reader: Reader, http: HttpPort, del: Operation, id: string | number): Promise<void> {
  try {
    await callOperation(http, del, await prepare(reader, del, { params: { id } }));
  } catch (err) {
    ctx.warn(`the temporary filter ${id} could not be deleted (${(err as Error).message}); delete it with: crmctl filters delete ${id} --yes`);
  }
}
