/**
 * What undoing a run does, derived from its journal alone (src/runs/writes.ts): a record it created is
 * deleted, fields it changed are set back to the values it replaced, a record it deleted is created
 * again from the content the journal kept. Nothing here reads the account; the undo reads each record
 * just before its write (src/automation/undo.ts).
 */
import type { Operation } from '../api/operation.js';
import { fieldsOf } from '../input/fields.js';
import type { RunHeader } from '../runs/entries.js';
import { itemStates, type ItemEntry } from '../runs/entries.js';
import { runWrites, type MergeWrite, type RunWrite } from '../runs/writes.js';
import { holds, leaves, show, valueAt } from './bulk-update-changes.js';
import { followerOps, keepCost, mergeOpsOf, PARTICIPANT_OPS, type MergeKind } from './merge-keep.js';
import { recordOps, type RecordOps } from './record-ops.js';

type Rec = Record<string, unknown>;

export type UndoAction = 'delete' | 'restore' | 'recreate' | 'unmerge' | 'remerge';

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
  /** What the undo writes: the prior values (restore), the content kept (re-create, unmerge: the merged record's). */
  values?: Rec;
  /** An unmerge's other parts: the links to point back at the re-created record, the kept record's fields to set back. */
  merge?: UnmergeParts;
  /** A remerge: the record kept by the dedupe (merged into again) and the id the merged record had. */
  remerge?: { into: number; merged: number };
}

/** A merge an undo of a dedupe took back (its re-created record, the record kept), for the undo of that undo to make again. */
export interface Remerge {
  key: string;
  record: number;
  into: number;
  merged: number;
}

/** What the undo of one merge does after re-creating the merged record. */
export interface UnmergeParts {
  /** The record kept (merged into). */
  into: number;
  /** Per linked kind (deals, activities, notes, leads, persons), the field that names the merged record and the ids the merge moved. */
  links: MergeWrite['links'];
  /** The deals the merged person took part in (its participant rows the merge gave the kept person). */
  participants: NonNullable<MergeWrite['participants']>;
  /** The users following the merged record, and those following the kept one before (absent: an older journal kept none). */
  followers?: MergeWrite['followers'];
  /** The files the merge moved for good (they stay with the kept record). */
  files: number;
  /** The kept record's fields as they were before the merge (absent: the merge changes none). */
  prior?: Rec;
  /** The same fields as the merge left them (what they must still hold, else a conflict). */
  after?: Rec;
}

export interface UndoPlan {
  /** The run's kind of record (the first item's when the run wrote several). */
  area: string;
  items: UndoItem[];
  /** Writes of the run no undo can take back, with why (an unknown outcome, no operation for it). */
  cannot: Array<{ key: string; why: string }>;
  counts: Record<UndoAction, number>;
  /** Links the merges moved that the undo points back at the re-created records. */
  linksBack: number;
  /** Kept records whose fields a merge changed, set back. */
  keptBack: number;
  /** Deal participations the merges gave the kept persons, given back to the re-created ones. */
  participantsBack: number;
  /** Follows the merges moved to the kept records, moved back. */
  followersBack: number;
  /** Files the merges moved: they stay with the kept records. */
  filesStay: number;
  /** Tokens at most: a read before each write, and the write. */
  cost: number;
}

/** The kind of records a run wrote: an import's resource, a bulk update's (or an undo's) area. */
export function areaOf(header: RunHeader): string | undefined {
  const a = header.area ?? header.resource;
  return typeof a === 'string' ? a : undefined;
}


/** The area of one write: its own kind when it names one with a get (a restore writes several kinds), else the run's. */
function areaOfWrite(w: RunWrite, runArea: string | undefined): string | undefined {
  return w.kind && recordOps(w.kind).get ? w.kind : runArea;
}

/**
 * The merges an undo of a dedupe took back (its "unmerged" entries: the re-created record and the
 * record kept), in the order the dedupe made them (the undo took them back newest first).
 */
export function remergesOf(items: readonly ItemEntry[]): Remerge[] {
  const out: Remerge[] = [];
  for (const s of itemStates(items).values()) {
    const l = s.last;
    if (/^merge:\d+$/.test(s.key) && l.status === 'done' && l.action === 'unmerged' && typeof l.into === 'number' && l.id !== undefined && l.id !== null) {
      out.push({ key: s.key, record: Number(l.id), into: l.into, merged: Number(l.record) });
    }
  }
  return out.reverse();
}

/**
 * The plan of the writes not settled yet by an earlier try of the same undo (`settled`: their keys).
 * `remerges`: an undo of the undo of a dedupe merges each re-created record into the kept one again
 * through the service's merge (which moves its links, participations and followers back), instead of
 * deleting it and pointing each link back by hand: the parts of those unmerges are not undone one by one.
 */
export function undoPlan(writes: readonly RunWrite[], runArea: string | undefined, settled: ReadonlySet<string> = new Set(), remerges: readonly Remerge[] = []): UndoPlan {
  const items: UndoItem[] = [];
  const cannot: UndoPlan['cannot'] = [];
  const remerged = (key: string) => remerges.some((r) => key.startsWith(`${r.key}:`));
  for (const w of writes) {
    if (settled.has(w.key) || remerged(w.key)) continue;
    const area = areaOfWrite(w, runArea);
    const item = area ? itemOf(w, recordOps(area)) : 'the journal does not say which kind of record it wrote';
    if (typeof item === 'string') cannot.push({ key: w.key, why: item });
    else if (item) items.push(item);
  }
  // Merges are taken back newest first: the kept record's fields go back through each merge in turn.
  const unmerges = items.filter((i) => i.action === 'unmerge').reverse();
  if (unmerges.length) items.splice(0, items.length, ...items.filter((i) => i.action !== 'unmerge'), ...unmerges);
  for (const r of remerges) {
    if (!settled.has(r.key)) items.push({ key: r.key, area: runArea ?? 'persons', action: 'remerge', record: r.record, remerge: { into: r.into, merged: r.merged } });
  }
  const counts: Record<UndoAction, number> = { delete: 0, restore: 0, recreate: 0, unmerge: 0, remerge: 0 };
  for (const i of items) counts[i.action]++;
  const cost = items.reduce((n, i) => {
    const ops = recordOps(i.area);
    if (i.action === 'unmerge') return n + unmergeCost(i);
    // A merge as a dedupe sends it: the record read first, what its undo needs (a floor), the merge.
    if (i.action === 'remerge') return n + (ops.get?.cost ?? 1) + (isMergeKind(i.area) ? keepCost(i.area) + (mergeOpsOf(i.area).merge.cost ?? 1) : 0);
    const write = (i.action === 'delete' ? ops.delete : i.action === 'restore' ? ops.update : ops.create)?.cost ?? 1;
    // A re-create reads nothing first (its record is gone); the others read the record before writing.
    return n + write + (i.action === 'recreate' ? 0 : (ops.get?.cost ?? 1));
  }, 0);
  const merges = items.filter((i) => i.action === 'unmerge');
  const linksBack = merges.reduce((n, i) => n + i.merge!.links.reduce((m, l) => m + l.ids.length, 0), 0);
  const keptBack = merges.filter((i) => i.merge!.prior).length;
  const participantsBack = merges.reduce((n, i) => n + i.merge!.participants.length, 0);
  const followersBack = merges.reduce((n, i) => n + (i.merge!.followers?.moved.length ?? 0), 0);
  const filesStay = merges.reduce((n, i) => n + i.merge!.files, 0);
  return { area: runArea ?? items[0]?.area ?? 'records', items, cannot, counts, linksBack, keptBack, participantsBack, followersBack, filesStay, cost };
}

/**
 * One merge's undo: the re-create, then a read and an update per link moved back and for the kept
 * record; per deal taken part in, its participants read, one added and one removed; the followers of
 * both records read, each moved follower added to the re-created record and removed from the kept one.
 */
function unmergeCost(i: UndoItem): number {
  const ops = recordOps(i.area);
  const m = i.merge!;
  const follow = isMergeKind(i.area) ? followerOps(i.area) : undefined;
  const part = PARTICIPANT_OPS;
  const rw = (o: RecordOps) => (o.get?.cost ?? 1) + (o.update?.cost ?? 1);
  const c = (o: Operation) => o.cost ?? 1;
  const links = m.links.reduce((n, l) => n + l.ids.length * rw(recordOps(l.area)), 0);
  const participants = m.participants.length * (c(part.list) + c(part.add) + c(part.remove));
  const followers = m.followers && follow ? 2 * c(follow.list) + m.followers.moved.length * (c(follow.add) + c(follow.remove)) : 0;
  return (ops.create?.cost ?? 1) + links + participants + followers + (m.prior ? rw(ops) : 0);
}

const isMergeKind = (area: string): area is MergeKind => area === 'persons' || area === 'organizations';

/** Why an undo cannot take back a merge whose journal kept nothing (a dedupe of an older crmctl). */
export const MERGE_FOREVER = 'the service cannot undo a merge and this journal (of an older crmctl) kept neither the merged record nor its links';

/** What an undo does with a merge, said by a dedupe's plan before any merge, and by the undo's. */
export const MERGE_UNDO = 'an undo re-creates each merged record (a new id: the old one cannot come back), moves its deals, activities, notes and leads (an organization\'s persons too), its deal participations and its followers back to it and sets the kept record\'s changed fields back; files stay with the kept record (the service cannot move a file back)';

/** What both plans say of the files merges moved: the service cannot re-link a file (its update takes a name and a description only). */
export function filesStay(n: number): string {
  return `${n} file${n === 1 ? ' stays' : 's stay'} with the kept record (the service cannot move a file back)`;
}

/** The undo of one write; a string says why there is none. */
function itemOf(w: RunWrite, ops: RecordOps): UndoItem | string | undefined {
  if (w.op === 'create') {
    if (w.record === null) return w.outcome === 'unsettled' ? 'the create may have landed and the journal does not know its id' : undefined;
    if (!ops.delete || !ops.get) return `${ops.area} have no delete`;
    return { key: w.key, area: ops.area, action: 'delete', record: w.record, wrote: w.sent ?? {} };
  }
  if (w.op === 'update') {
    // A dedupe's merge (`sent` = {merge_with_id}): journaled like an update, with the merged record and its links kept.
    if (!w.prior && typeof w.sent?.merge_with_id === 'number') return unmergeOf(w, ops, w.sent.merge_with_id);
    if (w.record === null || !w.prior) return 'the journal does not keep the values this update replaced';
    if (!ops.update || !ops.get) return `${ops.area} have no update`;
    return { key: w.key, area: ops.area, action: 'restore', record: w.record, wrote: w.sent ?? {}, values: w.prior };
  }
  if (!w.deleted) return 'the journal does not keep the content of the deleted record';
  if (!ops.create) return `${ops.area} have no create`;
  if (w.outcome === 'unsettled') return undefined; // the delete may not have landed: the record is still there, nothing to put back
  return { key: w.key, area: ops.area, action: 'recreate', values: createBody(w.deleted, ops.create) };
}

/** The undo of one merge: the merged record created again, its links moved back, the kept record's fields set back. */
function unmergeOf(w: RunWrite, ops: RecordOps, into: number): UndoItem | string | undefined {
  if (!w.merge || !w.deleted) return `merged into ${into}: ${MERGE_FOREVER}`;
  if (w.outcome === 'unsettled') return `merged into ${into}: the merge may not have landed; crmctl dedupe --resume settles it first`;
  if (!ops.create) return `${ops.area} have no create`;
  const m = w.merge;
  const prior = m.prior && Object.keys(m.prior).length ? m.prior : undefined;
  return {
    key: w.key,
    area: ops.area,
    action: 'unmerge',
    ...(w.record !== null ? { record: w.record } : {}),
    values: createBody(w.deleted, ops.create),
    merge: { into, links: m.links, participants: m.participants ?? [], ...(m.followers ? { followers: m.followers } : {}), files: m.files ?? 0, ...(prior ? { prior, after: m.after ?? {} } : {}) },
  };
}

/** A record's content as its create takes it: the members the create knows, without empty ones. */
export function createBody(content: Rec, create: Operation): Rec {
  const known = new Set(fieldsOf(create.body, 'body').map((f) => f.key.split('.')[0]!));
  return Object.fromEntries(Object.entries(content).filter(([k]) => known.has(k)).map(([k, v]) => [k, filled(v)] as const).filter(([, v]) => v !== undefined));
}

/** A value without its empty members (null, [], and objects left empty: a read answers an unset address part as null; a create refuses it). */
function filled(v: unknown): unknown {
  if (v === null || v === undefined || (Array.isArray(v) && v.length === 0)) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) return v;
  const out = Object.fromEntries(Object.entries(v as Rec).map(([k, x]) => [k, filled(x)] as const).filter(([, x]) => x !== undefined));
  return Object.keys(out).length ? out : undefined;
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

const NOUN: Record<UndoAction, string> = {
  delete: 'to delete (the run created them)',
  restore: 'to set back (fields the run changed)',
  recreate: 'to create again (the run deleted them, from the content it kept)',
  unmerge: 'to create again (the run merged them away; from the content it kept, each with a new id: the old id cannot come back)',
  remerge: 'to merge again into the records kept (the service\'s merge moves their links, participations and followers back to those; an undo of this undo creates them again)',
};

/** The plan in words, on stderr before anything is written. */
export function planText(plan: UndoPlan, o: { runId: string; describe: string; doneEarlier: number; daily?: { remaining: number } }): string {
  const lines = [`Undo of run ${o.runId} (${o.describe}):`];
  for (const a of ['delete', 'restore', 'recreate', 'unmerge', 'remerge'] as const) if (plan.counts[a]) lines.push(`  ${plan.counts[a]} ${plan.area} ${NOUN[a]}`);
  if (plan.counts.unmerge) {
    lines.push(`  ${plan.linksBack} link${plan.linksBack === 1 ? '' : 's'} to move back to the re-created records (deals, activities, notes, leads${plan.area === 'organizations' ? ', persons' : ''} the merges moved; one changed since is a conflict, left alone)`);
    if (plan.participantsBack) lines.push(`  ${plan.participantsBack} deal participation${plan.participantsBack === 1 ? '' : 's'} to give back to the re-created persons (the kept person stays a participant only where it was one before)`);
    if (plan.followersBack) lines.push(`  ${plan.followersBack} follower${plan.followersBack === 1 ? '' : 's'} to move back to the re-created records (one who stopped following since is a conflict, left alone)`);
    if (plan.filesStay) lines.push(`  ${filesStay(plan.filesStay)}`);
    if (plan.keptBack) lines.push(`  ${plan.keptBack} kept ${plan.area} to set back (the fields the merges changed)`);
  }
  if (!plan.items.length) lines.push('  nothing to undo');
  if (o.doneEarlier) lines.push(`  ${o.doneEarlier} undone by an earlier try of this undo (not written again)`);
  for (const c of plan.cannot) lines.push(`  cannot undo ${c.key}: ${c.why}`);
  lines.push(`  cost: up to ${plan.cost} (each record is read before it is written; a record changed since the run is a conflict, left alone)${o.daily ? `; ${o.daily.remaining.toLocaleString('en-US')} left today` : ''}`);
  return lines.join('\n');
}

export { runWrites };
