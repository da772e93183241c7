/**
 * What a merge needs kept so that `crmctl undo` can take it back. The service has no un-merge: the
 * merged (losing) record is gone and its links belong to the record kept. So a dedupe reads, just
 * before each merge, the losing record whole (re-created by the undo, with a new id), the kept
 * record's fields the merge may change (set back by the undo), the ids of the records linked to the
 * losing one that the merge moves to the kept one (deals, activities, notes, leads; an organization's
 * persons: pointed back at the re-created record), the deals the losing person takes part in (its
 * participant rows), the users following each of the two records, and how many files the merge moves
 * (the service cannot re-link a file: they stay with the kept record, and both plans say so).
 */
import type { Operation } from '../api/operation.js';
import { dealOps } from '../api/operations/deals.js';
import { leadOps } from '../api/operations/leads.js';
import { organizationOps } from '../api/operations/organizations.js';
import { personOps } from '../api/operations/persons.js';
import { readAll, read, type Reader } from '../entry/prepare.js';
import { recordOps } from './record-ops.js';

type Rec = Record<string, unknown>;

export type MergeKind = 'persons' | 'organizations';

/** A kind of record linked to a merged one through `field` (its id), moved to the kept one by the merge. */
export interface MergeLink {
  area: string;
  field: string;
  /** The merged record's counts (v2 include_fields) that say how many it has; none: the service gives no count (leads). */
  counts: readonly string[];
  /** The list of the archived ones, when the area's list leaves them out (deals, leads): a merge moves them too. */
  archived?: Operation;
}

const DEALS = ['open_deals_count', 'closed_deals_count'] as const;

/** The links each merge moves that the undo moves back (the service's merge: deals, activities, notes, leads; an organization's persons). */
export const MERGE_LINKS: Record<MergeKind, readonly MergeLink[]> = {
  persons: [
    { area: 'deals', field: 'person_id', counts: DEALS, archived: dealOps.archived },
    { area: 'activities', field: 'person_id', counts: ['activities_count'] },
    { area: 'notes', field: 'person_id', counts: ['notes_count'] },
    { area: 'leads', field: 'person_id', counts: [], archived: leadOps.archived },
  ],
  organizations: [
    { area: 'persons', field: 'org_id', counts: ['people_count'] },
    { area: 'deals', field: 'org_id', counts: DEALS, archived: dealOps.archived },
    { area: 'activities', field: 'org_id', counts: ['activities_count'] },
    { area: 'notes', field: 'org_id', counts: ['notes_count'] },
    { area: 'leads', field: 'organization_id', counts: [], archived: leadOps.archived },
  ],
};

/** The counts a merged person takes part in deals with: every deal it is on (its own and those it takes part in). */
const PARTICIPATING = [...DEALS, 'participant_open_deals_count', 'participant_closed_deals_count'];

/** The counts the dedupe reads with each record (v2 include_fields): what its plan's cost and its files line are made of. */
export const LINK_COUNTS: Record<MergeKind, readonly string[]> = {
  persons: [...new Set([...MERGE_LINKS.persons.flatMap((l) => l.counts), ...PARTICIPATING, 'files_count', 'followers_count'])],
  organizations: [...new Set([...MERGE_LINKS.organizations.flatMap((l) => l.counts), 'files_count', 'followers_count'])],
};

/** The follower operations of a kind (v2: a follower is named by its user's id). */
export function followerOps(kind: MergeKind): { list: Operation; add: Operation; remove: Operation } {
  const t = kind === 'persons' ? personOps : organizationOps;
  return { list: t.followers, add: t.addFollower, remove: t.removeFollower };
}

/** The get and the merge of a kind (the merge is v1 only: the service has no v2 form). */
export function mergeOpsOf(kind: MergeKind): { get: Operation; merge: Operation } {
  const t = kind === 'persons' ? personOps : organizationOps;
  return { get: t.get, merge: t.merge };
}

/** The participant operations of deals (v1 only: the service has no v2 form). */
export const PARTICIPANT_OPS = { list: dealOps.participants, add: dealOps.addParticipant, remove: dealOps.deleteParticipant };

/** The kept record's fields a merge changes: a person gets the e-mails and phones it lacked, and the organization when it had none. */
export const KEPT_FIELDS: Record<MergeKind, readonly string[]> = {
  persons: ['emails', 'phones', 'org_id'],
  organizations: [],
};

/** A deal the merged person took part in: its participant row (the merge gives it to the kept person) and whether the kept person took part already. */
export interface KeptParticipant {
  deal: number;
  id: number;
  kept_before: boolean;
}

/** The users following the merged record (the merge moves them to the kept one) and those following the kept one before. */
export interface KeptFollowers {
  moved: number[];
  kept_before: number[];
}

/** What the journal of one merge keeps (its "sending" entry), for the undo. */
export interface MergeKept {
  /** The losing record, whole. */
  deleted: Rec;
  /** The kept record's id and its fields the merge may change, as they were. */
  kept: { id: number; prior: Rec };
  /** Per linked kind, the field naming the losing record and the ids of the records that name it (a lead's id is a string); those archived, apart (the undo un-archives them to write, then archives them again). */
  links: Array<{ area: string; field: string; ids: Array<number | string>; archived?: Array<number | string> }>;
  /** The deals the losing person took part in (persons only). */
  participants: KeptParticipant[];
  followers: KeptFollowers;
  /** The files the merge moves to the kept record, for good (absent: the service did not count them). */
  files?: number;
}

const count = (rec: Rec | undefined, keys: readonly string[]) => keys.reduce((n, k) => n + (typeof rec?.[k] === 'number' ? (rec[k] as number) : 0), 0);
/** Pages of a list holding `n` records, read whole (at least one: an empty list is read too). */
const pages = (n: number, op: Operation) => Math.max(1, Math.ceil(n / (op.maxLimit ?? 500))) * (op.cost ?? 1);

/**
 * The reads one merge's keeping costs, from the counts the plan's read gave (LINK_COUNTS): the losing
 * record, the kept one before (and after, when the merge changes it), the pages of each link list, the
 * deals a person is on and each one's participants, both records' followers. Leads have no count (a
 * page each of the open and archived lists), nor have archived deals, and the v1 list of a person's deals
 * states no cost, so the sum is a floor: the plans say "at least".
 */
export function keepCost(kind: MergeKind, merged?: Rec, kept?: Rec): number {
  const get = recordOps(kind).get?.cost ?? 1;
  let n = (KEPT_FIELDS[kind].length ? 3 : 2) * get;
  // The counts do not say how many are archived: a page of that list each (a floor).
  for (const l of MERGE_LINKS[kind]) for (const op of [recordOps(l.area).list!, ...(l.archived ? [l.archived] : [])]) n += pages(op === l.archived ? 0 : count(merged, l.counts), op);
  const f = followerOps(kind).list;
  n += pages(count(merged, ['followers_count']), f) + pages(count(kept, ['followers_count']), f);
  // A person on no deal is not looked up (readMergeKeep); the v1 list of a person's deals has no stated cost (counted 1).
  const on = count(merged, PARTICIPATING);
  if (kind === 'persons' && on) n += pages(on, personOps.deals) + on * (PARTICIPANT_OPS.list.cost ?? 1);
  return n;
}

/** The files a merge of `merged` moves for good (its files_count; 0 when the read gave none). */
export const filesOf = (merged: Rec | undefined): number => count(merged, ['files_count']);

/** The kept record's fields a merge may change, as `rec` holds them. */
export function keptFields(kind: MergeKind, rec: Rec): Rec {
  return Object.fromEntries(KEPT_FIELDS[kind].map((f) => [f, rec[f] ?? null]));
}

async function collect(it: AsyncIterable<unknown>): Promise<Rec[]> {
  const out: Rec[] = [];
  for await (const r of it) out.push(r as Rec);
  return out;
}

/** The users following a record (v2 list: user ids). */
export async function followersOf(reader: Reader, kind: MergeKind, id: number): Promise<number[]> {
  return (await collect(readAll(reader, followerOps(kind).list, { params: { id } }))).map((f) => Number(f.user_id));
}

/** The participant rows of a deal (v1). */
export const participantsOf = (reader: Reader, deal: number): Promise<Rec[]> => collect(readAll(reader, PARTICIPANT_OPS.list, { params: { id: deal } }));

/** Reads what the undo of merging `id` into `into` needs (through the same paced client as the merge). */
export async function readMergeKeep(reader: Reader, kind: MergeKind, id: number, into: number): Promise<MergeKept> {
  const get = recordOps(kind).get!;
  const counts = kind === 'persons' ? ['files_count', ...PARTICIPATING] : ['files_count'];
  const read1 = (await read(reader, get, { params: { id }, query: { include_fields: counts } })) as Rec;
  const deleted = Object.fromEntries(Object.entries(read1).filter(([k]) => !counts.includes(k)));
  const files = read1.files_count;
  const survivor = (await read(reader, get, { params: { id: into } })) as Rec;
  const links: MergeKept['links'] = [];
  const named = async (op: Operation, field: string): Promise<Array<number | string>> => {
    const ids: Array<number | string> = [];
    for await (const r of readAll(reader, op, { query: { [field]: id } })) {
      const rec = r as Rec;
      // A filter the service ignored would list records of others: only those that name the losing record.
      if (linkId(rec[field]) === id) ids.push(typeof rec.id === 'string' ? rec.id : Number(rec.id));
    }
    return ids;
  };
  for (const l of MERGE_LINKS[kind]) {
    const ids = await named(recordOps(l.area).list!, l.field);
    const archived = l.archived ? await named(l.archived, l.field) : [];
    links.push({ area: l.area, field: l.field, ids: [...ids, ...archived], ...(archived.length ? { archived } : {}) });
  }
  const participants: KeptParticipant[] = [];
  // The deals a person is on (its own and those it takes part in): not looked up when its counts say there are none.
  if (kind === 'persons' && !PARTICIPATING.every((k) => read1[k] === 0)) {
    for await (const d of readAll(reader, personOps.deals, { params: { id } })) {
      const deal = Number((d as Rec).id);
      const rows = await participantsOf(reader, deal);
      const keptBefore = rows.some((r) => linkId(r.person_id) === into);
      for (const r of rows) if (linkId(r.person_id) === id) participants.push({ deal, id: Number(r.id), kept_before: keptBefore });
    }
  }
  const followers = { moved: await followersOf(reader, kind, id), kept_before: await followersOf(reader, kind, into) };
  return { deleted, kept: { id: into, prior: keptFields(kind, survivor) }, links, participants, followers, ...(typeof files === 'number' ? { files } : {}) };
}

/** A link's id: a number, or a v1 object `{value}`. */
export function linkId(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as Rec).value === 'number') return (v as Rec).value as number;
  return undefined;
}
