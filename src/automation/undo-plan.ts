/**
 * What undoing a run does, derived from its journal alone (src/runs/writes.ts): a record it created is
 * deleted, fields it changed are set back to the values it replaced, a record it deleted is created
 * again from the content the journal kept. Nothing here reads the account; the undo reads each record
 * just before its write (src/automation/undo.ts).
 */
import type { Operation } from '../api/operation.js';
import { ALL_OPERATIONS } from '../api/operations/index.js';
import { fieldsOf } from '../input/fields.js';
import type { RunHeader } from '../runs/entries.js';
import { runWrites, type RunWrite } from '../runs/writes.js';
import { holds, leaves, show, valueAt } from './bulk-update-changes.js';

type Rec = Record<string, unknown>;

export type UndoAction = 'delete' | 'restore' | 'recreate';

export interface UndoItem {
  /** The item's key in the run undone (an input line, a record id): the undo's journal keys it the same. */
  key: string;
  /** The kind of record (an area: persons, deals). */
  area: string;
  action: UndoAction;
  /** The record the run wrote (absent for a re-create: the record is gone). */
  record?: string | number;
  /** What the run wrote there (what the record must still hold, else a conflict). */
  wrote?: Rec;
  /** What the undo writes: the prior values (restore), the content kept (re-create). */
  values?: Rec;
}

/** The operations of one kind of record an undo uses. */
export interface RecordOps {
  area: string;
  get?: Operation;
  update?: Operation;
  delete?: Operation;
  create?: Operation;
}

export interface UndoPlan {
  /** The run's kind of record (the first item's when the run wrote several). */
  area: string;
  items: UndoItem[];
  /** Writes of the run no undo can take back, with why (an unknown outcome, no operation for it). */
  cannot: Array<{ key: string; why: string }>;
  counts: Record<UndoAction, number>;
  /** Tokens at most: a read before each write, and the write. */
  cost: number;
}

/** The kind of records a run wrote: an import's resource, a bulk update's (or an undo's) area. */
export function areaOf(header: RunHeader): string | undefined {
  const a = header.area ?? header.resource;
  return typeof a === 'string' ? a : undefined;
}

/** The get, update, delete and create of an area, as its commands call them (the first row at a path: v2 before v1). */
export function recordOps(area: string): RecordOps {
  const known = OPS.get(area);
  if (known) return known;
  const at = (verb: string) => ALL_OPERATIONS.find((op) => op.cli.command.length === 2 && op.cli.command[0] === area && op.cli.command[1] === verb && !op.cli.switch);
  const ops = { area, get: at('get'), update: at('update'), delete: at('delete'), create: at('create') };
  OPS.set(area, ops);
  return ops;
}
const OPS = new Map<string, RecordOps>();

/** The area of one write: its own kind when it names one with a get (a restore writes several kinds), else the run's. */
function areaOfWrite(w: RunWrite, runArea: string | undefined): string | undefined {
  return w.kind && recordOps(w.kind).get ? w.kind : runArea;
}

/** The plan of the writes not settled yet by an earlier try of the same undo (`settled`: their keys). */
export function undoPlan(writes: readonly RunWrite[], runArea: string | undefined, settled: ReadonlySet<string> = new Set()): UndoPlan {
  const items: UndoItem[] = [];
  const cannot: UndoPlan['cannot'] = [];
  for (const w of writes) {
    if (settled.has(w.key)) continue;
    const area = areaOfWrite(w, runArea);
    const item = area ? itemOf(w, recordOps(area)) : 'the journal does not say which kind of record it wrote';
    if (typeof item === 'string') cannot.push({ key: w.key, why: item });
    else if (item) items.push(item);
  }
  const counts: Record<UndoAction, number> = { delete: 0, restore: 0, recreate: 0 };
  for (const i of items) counts[i.action]++;
  const cost = items.reduce((n, i) => {
    const ops = recordOps(i.area);
    const write = (i.action === 'delete' ? ops.delete : i.action === 'restore' ? ops.update : ops.create)?.cost ?? 1;
    // A re-create reads nothing first (its record is gone); the others read the record before writing.
    return n + write + (i.action === 'recreate' ? 0 : (ops.get?.cost ?? 1));
  }, 0);
  return { area: runArea ?? items[0]?.area ?? 'records', items, cannot, counts, cost };
}

/** Why an undo cannot take a merge back: said by a dedupe's plan before any merge, and by the undo's. */
export const MERGE_FOREVER = 'the service cannot undo a merge (the merged record is gone; its deals, activities, notes and followers belong to the record kept)';

/** The undo of one write; a string says why there is none. */
function itemOf(w: RunWrite, ops: RecordOps): UndoItem | string | undefined {
  if (w.op === 'create') {
    if (w.record === null) return w.outcome === 'unsettled' ? 'the create may have landed and the journal does not know its id' : undefined;
    if (!ops.delete || !ops.get) return `${ops.area} have no delete`;
    return { key: w.key, area: ops.area, action: 'delete', record: w.record, wrote: w.sent ?? {} };
  }
  if (w.op === 'update') {
    // A dedupe's merge (`sent` = {merge_with_id}): journaled like an update, with no values to put back.
    if (!w.prior && typeof w.sent?.merge_with_id === 'number') return `merged into ${w.sent.merge_with_id}: ${MERGE_FOREVER}`;
    if (w.record === null || !w.prior) return 'the journal does not keep the values this update replaced';
    if (!ops.update || !ops.get) return `${ops.area} have no update`;
    return { key: w.key, area: ops.area, action: 'restore', record: w.record, wrote: w.sent ?? {}, values: w.prior };
  }
  if (!w.deleted) return 'the journal does not keep the content of the deleted record';
  if (!ops.create) return `${ops.area} have no create`;
  if (w.outcome === 'unsettled') return undefined; // the delete may not have landed: the record is still there, nothing to put back
  return { key: w.key, area: ops.area, action: 'recreate', values: createBody(w.deleted, ops.create) };
}

/** A record's content as its create takes it: the members the create knows, without empty ones. */
export function createBody(content: Rec, create: Operation): Rec {
  const known = new Set(fieldsOf(create.body, 'body').map((f) => f.key.split('.')[0]!));
  return Object.fromEntries(Object.entries(content).filter(([k, v]) => known.has(k) && v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)));
}

export interface Conflict {
  field: string;
  /** The value the run wrote, shown. */
  wrote: string;
  /** The value now, shown. */
  now: string;
}

/** The members the run wrote that the record no longer holds (someone changed them since). */
export function conflictsOf(current: Rec, wrote: Rec): Conflict[] {
  const out: Conflict[] = [];
  for (const { path, value } of leaves(wrote)) {
    const last = path[path.length - 1]!;
    if (holds(valueAt(current, path.slice(0, -1)), { [last]: value })) continue;
    out.push({ field: path.join('.'), wrote: show(value), now: show(valueAt(current, path)) });
  }
  return out;
}

const NOUN: Record<UndoAction, string> = { delete: 'to delete (the run created them)', restore: 'to set back (fields the run changed)', recreate: 'to create again (the run deleted them, from the content it kept)' };

/** The plan in words, on stderr before anything is written. */
export function planText(plan: UndoPlan, o: { runId: string; describe: string; doneEarlier: number; daily?: { remaining: number } }): string {
  const lines = [`Undo of run ${o.runId} (${o.describe}):`];
  for (const a of ['delete', 'restore', 'recreate'] as const) if (plan.counts[a]) lines.push(`  ${plan.counts[a]} ${plan.area} ${NOUN[a]}`);
  if (!plan.items.length) lines.push('  nothing to undo');
  if (o.doneEarlier) lines.push(`  ${o.doneEarlier} undone by an earlier try of this undo (not written again)`);
  for (const c of plan.cannot) lines.push(`  cannot undo ${c.key}: ${c.why}`);
  lines.push(`  cost: up to ${plan.cost} (each record is read before it is written; a record changed since the run is a conflict, left alone)${o.daily ? `; ${o.daily.remaining.toLocaleString('en-US')} left today` : ''}`);
  return lines.join('\n');
}

export { runWrites };
