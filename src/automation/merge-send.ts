/**
 * One merge of a person or organization as a run sends it (a dedupe's merges, and an undo of the undo
 * of a dedupe, which merges each re-created record into the kept one again): what its undo needs is
 * read and journaled "sending" with the merge (src/automation/merge-keep.ts), then the merge goes out;
 * a lost answer is settled by reading the merged record (gone means merged), never by sending twice.
 */
import { callOperation } from '../api/call.js';
import type { Operation } from '../api/operation.js';
import type { Context } from '../core/context.js';
import { NotFoundError } from '../core/errors.js';
import { read, type Prepared, type Reader } from '../entry/prepare.js';
import type { HttpPort } from '../core/http-port.js';
import type { HttpResponse } from '../http/types.js';
import { recordedValue } from '../runs/command-line.js';
import type { Run } from '../runs/run.js';
import { keptFields, readMergeKeep, type MergeKind } from './merge-keep.js';

type Rec = Record<string, unknown>;

export interface MergeOps {
  get: Operation;
  merge: Operation;
}

/** Reads what the undo of merging `id` into `into` needs and journals the merge, with it, before it is sent. */
export async function announceMerge(ctx: Context, run: Run, reader: Reader, kind: MergeKind, key: string, prepared: Prepared, id: number, into: number): Promise<void> {
  const keep = await readMergeKeep(reader, kind, id, into);
  await run.sending(key, {
    op: 'update', kind, record: id, sent: prepared.body as Rec, merge: true, deleted: recordedValue(keep.deleted, ctx.knownSecrets()) as Rec,
    kept: keep.kept, links: keep.links, participants: keep.participants, followers: keep.followers, ...(keep.files !== undefined ? { files: keep.files } : {}),
  });
}

/**
 * Sends the merge announced; `unsettled` is called when a lost answer could not be settled by reading
 * either. Returns what its "done" entry says: merged into whom, and the kept record's fields as the
 * merge left them (what its undo expects to find there, else a conflict).
 */
export async function sendMerge(http: HttpPort, reader: Reader, ops: MergeOps, kind: MergeKind, prepared: Prepared, id: number, into: number, unsettled: () => void): Promise<Rec> {
  const reconcile = async (): Promise<HttpResponse | undefined> => {
    try {
      return (await exists(reader, ops.get, id)) ? undefined : { status: 200, headers: {}, body: { success: true, data: { id: into, merge_what_id: id } } };
    } catch (err) {
      unsettled();
      throw err;
    }
  };
  await callOperation(http, ops.merge, prepared, { idempotent: false, reconcile });
  const after = kind === 'persons' ? keptFields(kind, (await read(reader, ops.get, { params: { id: into } })) as Rec) : {};
  return { action: 'merged', into, kept_after: after };
}

/** The record is still there (a merged one is gone: not found, or answered as deleted). */
export async function exists(reader: Reader, get: Operation, id: number): Promise<boolean> {
  try {
    const rec = (await read(reader, get, { params: { id } })) as Rec | null;
    return Boolean(rec) && rec!.is_deleted !== true && rec!.active_flag !== false;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}
