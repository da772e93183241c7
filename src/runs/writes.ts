/**
 * What a run wrote, from its journal alone: one entry per item whose write was announced ("sending")
 * and settled. `runs list` counts them, `runs show` lists them and an undo is derived from them, so
 * the three agree on what a run did.
 */
import { itemStates, type ItemEntry, type ItemState } from './entries.js';

type Rec = Record<string, unknown>;

export interface RunWrite {
  key: string;
  /** The kind of record, when the run writes several kinds and says so per item (a restore). */
  kind?: string;
  op: 'create' | 'update' | 'delete';
  /** The record written: the id an update or a delete names, the new id of a create. */
  record: string | number | null;
  /** The body as sent (the values the run wrote). */
  sent?: Rec;
  /** The values an update replaced. */
  prior?: Rec;
  /** What a delete removed (a merge: the merged record). */
  deleted?: Rec;
  /** A merge's links, participants, followers, files and kept record's fields (src/automation/merge-keep.ts), for its undo. */
  merge?: MergeWrite;
  /** Done: the write landed. Unsettled: it may have (killed, or an answer nobody knows). */
  outcome: 'done' | 'unsettled';
}

/** What a merge's journal keeps for its undo (a journal of an older crmctl kept only links and fields). */
export interface MergeWrite {
  /** Per linked kind, the field naming the merged record and the ids the merge moved (a lead's id is a string), and those archived then. */
  links: Array<{ area: string; field: string; ids: Array<number | string>; archived?: Array<number | string> }>;
  /** The deals the merged person took part in: its participant row, and whether the kept person took part already. */
  participants?: Array<{ deal: number; id: number; kept_before: boolean }>;
  /** The users following the merged record, and those following the kept one before. */
  followers?: { moved: number[]; kept_before: number[] };
  /** The files the merge moved for good. */
  files?: number;
  prior?: Rec;
  after?: Rec;
}

/** Keys a run uses for its own bookkeeping, not for records of its work (bulk-update's selection, its temporary filter). */
const bookkeeping = (key: string) => key === 'selection' || key.startsWith('filter:');

const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The writes of a journal's items, in the order they first appear; refused writes (failed, not to retry) are left out. */
export function runWrites(items: readonly ItemEntry[]): RunWrite[] {
  const out: RunWrite[] = [];
  for (const s of itemStates(items).values()) {
    const w = writeOf(s);
    if (w) out.push(w);
  }
  return out;
}

function writeOf(s: ItemState): RunWrite | undefined {
  const w = s.write;
  if (bookkeeping(s.key) || !w || (w.op !== 'create' && w.op !== 'update' && w.op !== 'delete')) return undefined;
  const done = s.last.status === 'done';
  if (!done && !s.unsettled) return undefined;
  // Announced, then never sent: the run stopped before its turn (src/automation/import.ts).
  if (s.last.status === 'failed' && s.last.sent === false) return undefined;
  // A done entry that says the record was left alone (a conflict) or already as wanted wrote nothing.
  if (done && (s.last.action === 'unchanged' || s.last.action === 'conflict')) return undefined;
  const id = w.op === 'create' ? (done ? s.last.id : undefined) : w.record;
  return {
    key: s.key,
    ...(typeof w.kind === 'string' ? { kind: w.kind } : {}),
    op: w.op,
    record: typeof id === 'string' || typeof id === 'number' ? id : null,
    ...(isRec(w.sent) ? { sent: w.sent } : {}),
    ...(isRec(w.prior) ? { prior: w.prior } : {}),
    ...(isRec(w.deleted) ? { deleted: w.deleted } : isRec(s.last.deleted) ? { deleted: s.last.deleted } : {}),
    ...(Array.isArray(w.links) ? { merge: mergeOf(w, s.last) } : {}),
    outcome: done ? 'done' : 'unsettled',
  };
}

/** A merge's keeping: its links, participants, followers, files and the kept record's fields before (its "sending") and after (its outcome). */
function mergeOf(w: ItemEntry, last: ItemEntry): MergeWrite {
  const kept = isRec(w.kept) ? w.kept : {};
  const ids = (v: unknown) => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : Number(x))) : []);
  const users = (v: unknown) => (Array.isArray(v) ? v.map(Number) : []);
  return {
    links: (w.links as unknown[]).filter(isRec).map((l) => ({ area: String(l.area), field: String(l.field), ids: ids(l.ids), ...(Array.isArray(l.archived) ? { archived: ids(l.archived) } : {}) })),
    ...(Array.isArray(w.participants) ? { participants: w.participants.filter(isRec).map((p) => ({ deal: Number(p.deal), id: Number(p.id), kept_before: p.kept_before === true })) } : {}),
    ...(isRec(w.followers) ? { followers: { moved: users(w.followers.moved), kept_before: users(w.followers.kept_before) } } : {}),
    ...(typeof w.files === 'number' ? { files: w.files } : {}),
    ...(isRec(kept.prior) ? { prior: kept.prior } : {}),
    ...(isRec(last.kept_after) ? { after: last.kept_after } : {}),
  };
}

/** How many records a run wrote (settled writes). */
export function writtenCount(items: readonly ItemEntry[]): number {
  return runWrites(items).filter((w) => w.outcome === 'done').length;
}
