/**
 * What a merge needs kept so that `crmctl undo` can take it back. The service has no un-merge: the
 * merged (losing) record is gone and its links belong to the record kept. So a dedupe reads, just
 * before each merge, the losing record whole (re-created by the undo, with a new id), the kept
 * record's fields the merge may change (set back by the undo) and the ids of the records linked to
 * the losing one that the merge moves to the kept one (pointed back at the re-created record).
 * Files, leads, participants and followers move too; they are not kept (the plans say so).
 */
import { readAll, read, type Reader } from '../entry/prepare.js';
import { recordOps } from './undo-plan.js';

type Rec = Record<string, unknown>;

export type MergeKind = 'persons' | 'organizations';

/** A kind of record linked to a merged one through `field` (its id), moved to the kept one by the merge. */
export interface MergeLink {
  area: string;
  field: string;
}

/** The links each merge moves that the undo moves back (the interface's merge: deals, activities, notes; an organization's persons). */
export const MERGE_LINKS: Record<MergeKind, readonly MergeLink[]> = {
  persons: [
    { area: 'deals', field: 'person_id' },
    { area: 'activities', field: 'person_id' },
    { area: 'notes', field: 'person_id' },
  ],
  organizations: [
    { area: 'persons', field: 'org_id' },
    { area: 'deals', field: 'org_id' },
    { area: 'activities', field: 'org_id' },
    { area: 'notes', field: 'org_id' },
  ],
};

/** The kept record's fields a merge changes: a person gets the e-mails and phones it lacked, and the organization when it had none. */
export const KEPT_FIELDS: Record<MergeKind, readonly string[]> = {
  persons: ['emails', 'phones', 'org_id'],
  organizations: [],
};

/** What the journal of one merge keeps (its "sending" entry), for the undo. */
export interface MergeKept {
  /** The losing record, whole. */
  deleted: Rec;
  /** The kept record's id and its fields the merge may change, as they were. */
  kept: { id: number; prior: Rec };
  /** Per linked kind, the field naming the losing record and the ids of the records that name it. */
  links: Array<{ area: string; field: string; ids: number[] }>;
}

/** The reads one merge's keeping costs, one page per linked kind: the losing record, the kept one before (and after, when the merge changes it), the link lists. */
export function keepCost(kind: MergeKind): number {
  const get = recordOps(kind).get?.cost ?? 1;
  return (KEPT_FIELDS[kind].length ? 3 : 2) * get + MERGE_LINKS[kind].reduce((n, l) => n + (recordOps(l.area).list?.cost ?? 1), 0);
}

/** The kept record's fields a merge may change, as `rec` holds them. */
export function keptFields(kind: MergeKind, rec: Rec): Rec {
  return Object.fromEntries(KEPT_FIELDS[kind].map((f) => [f, rec[f] ?? null]));
}

/** Reads what the undo of merging `id` into `into` needs (through the same paced client as the merge). */
export async function readMergeKeep(reader: Reader, kind: MergeKind, id: number, into: number): Promise<MergeKept> {
  const get = recordOps(kind).get!;
  const deleted = (await read(reader, get, { params: { id } })) as Rec;
  const survivor = (await read(reader, get, { params: { id: into } })) as Rec;
  const links: MergeKept['links'] = [];
  for (const l of MERGE_LINKS[kind]) {
    const ids: number[] = [];
    for await (const r of readAll(reader, recordOps(l.area).list!, { query: { [l.field]: id } })) {
      const rec = r as Rec;
      // A filter the service ignored would list records of others: only those that name the losing record.
      if (linkId(rec[l.field]) === id) ids.push(Number(rec.id));
    }
    links.push({ area: l.area, field: l.field, ids });
  }
  return { deleted, kept: { id: into, prior: keptFields(kind, survivor) }, links };
}

/** A link's id: a number, or a v1 object `{value}`. */
export function linkId(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as Rec).value === 'number') return (v as Rec).value as number;
  return undefined;
}
