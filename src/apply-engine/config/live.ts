import { userOps } from '../../api/operations/users.js';
import { read, readAll, type Reader } from '../../entry/prepare.js';
import { createHash } from 'node:crypto';
import { kinds } from '../kinds.js';
import { stableJson } from '../state.js';
import { checkSchema } from '../validate.js';
import { memoCost, memoReader, nameFilters, PERSONAL, type PersonalValue, UNNAMED } from './filter-names.js';
import { CONFIG_KINDS, nestedIds, PARENT_KEY as PARENT, readsFrom, sharedKeyReason, USER_REF, type ConfigKind, type Live } from './kinds.js';
import { gated, settledInOrder } from '../../core/bounded.js';
import { collect, pushAll } from '../../core/lists.js';

/** Configuration reads in flight at once (each still paced by the client's cost governor). */
const READS_IN_FLIGHT = 4;


/** One configuration record of the account, with the handle pull writes for it. */
export interface LiveRecord {
  ck: ConfigKind;
  rec: Live;
  id: string | number;
  /** The spec as the files write it, references still as ids. */
  spec: Record<string, unknown>;
  parentId?: unknown;
  key: string;
  handle: string;
  /** Words naming it in plan lines: `Sales/Qualified`. */
  label: string;
  /**
   * Why the create operation would refuse this record as the account holds it (a filter on leads,
   * whose conditions the interface does not describe): pull lists it in reference.yaml instead.
   */
  unwritable?: string;
  /** How many records of the account share this one's natural key, when more than one does (then it is unwritable). */
  shared?: number;
}

export interface LiveAccount {
  records: LiveRecord[];
  /** What the reads cost (the plan adds it to the cost of the writes). */
  cost: number;
  /** Hash of everything read: a saved plan is refused when the account no longer hashes the same. */
  fingerprint: string;
  /** The account's users (read when a kind refers to users): ${user:<email>} resolves through them. */
  users: Array<{ id: number; email: string }>;
}

/** The account's users by lower-case e-mail. */
export async function readUsers(reader: Reader): Promise<Array<{ id: number; email: string }>> {
  const answer = await read(reader, userOps.list);
  return (Array.isArray(answer) ? answer : []).map((u) => ({ id: Number((u as Live).id), email: String((u as Live).email ?? '').toLowerCase() })).filter((u) => u.email);
}

export const usersByEmail = (users: Array<{ id: number; email: string }>): Map<string, number> => new Map(users.map((u) => [u.email, u.id]));

/** The spec of a live record: the kind's keys, null and absent values left out (the creates take no nulls). */
export function liveSpec(ck: ConfigKind, rec: Live): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ck.keys) {
    const v = ck.value ? ck.value(rec, k) : rec[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * Replaces people's data in the account's text (`pull --sample`: the sample's names, and the names
 * filters hold in their conditions, become the sample's pseudonyms wherever they appear).
 */
export interface TextScrub {
  /** Values known to be people's data (a filter's condition on a person's name). */
  learn(values: PersonalValue[]): void;
  /** A copy of `value` with every known value in its text replaced. */
  value<T>(value: T): T;
}

/**
 * Reads the configuration of the account, kinds in dependency order (settings need the roles,
 * phases the boards). Each live record gets a natural key and a handle derived from its names
 * (after `scrub`, when given: a handle must not spell a name either).
 */
export async function readLive(reader: Reader, wanted: Set<string>, scrub?: TextScrub): Promise<LiveAccount> {
  const need = new Set(wanted);
  for (const ck of CONFIG_KINDS) if (need.has(ck.kind) && readsFrom(ck)) need.add(readsFrom(ck)!);
  const byKind = new Map<string, Live[]>();
  let cost = 0;
  // The reads are independent but for a kind's parent (stages after pipelines, phases after boards): ~45 small
  // lists, a few in flight at once rather than one round trip after another. Results land per kind and read,
  // so the files come out the same whatever order the answers arrive in.
  const gate = gated(READS_IN_FLIGHT);
  const readUserList = CONFIG_KINDS.some((k) => need.has(k.kind) && (k.userRefs || k.nestedRefs?.some((r) => r.kind === USER_REF)));
  const usersRead = readUserList ? gate(() => readUsers(reader)) : Promise.resolve([]);
  const kindsRead = new Map<string, Promise<void>>();
  const readKind = async (ck: ConfigKind): Promise<void> => {
    const from = readsFrom(ck);
    if (from) await kindsRead.get(from);
    const parents = from ? (byKind.get(from) ?? []) : [];
    const lists = await settledInOrder(ck.reads(parents).map((r) => {
      cost += r.op.cost ?? 0;
      const raw = { ...(r.params ? { params: r.params } : {}), ...(r.query ? { query: r.query } : {}) };
      return gate(async (): Promise<Live[]> => {
        if (ck.explode) return ck.explode(await read(reader, r.op, raw), r);
        if (r.op.pagination === 'none') {
          const answer = await read(reader, r.op, raw);
          return Array.isArray(answer) ? (answer as Live[]) : extractList(answer);
        }
        return (await collect(readAll(reader, r.op, raw))) as Live[];
      });
    }));
    const out: Live[] = [];
    for (const l of lists) pushAll(out, l);
    const kept = out.filter((x) => !ck.keep || ck.keep(x));
    if (ck.kind === 'filter') {
      const names = memoReader(reader);
      await nameFilters(names, kept);
      cost += memoCost(names);
    }
    byKind.set(ck.kind, ck.combine ? ck.combine(kept) : kept);
  };
  // CONFIG_KINDS is in dependency order, so a kind's parent is in the map before the kind looks for it.
  for (const ck of CONFIG_KINDS) if (need.has(ck.kind)) kindsRead.set(ck.kind, readKind(ck));
  const [, users] = await settledInOrder([settledInOrder([...kindsRead.values()]), usersRead] as const);
  if (scrub) {
    for (const f of byKind.get('filter') ?? []) if (Array.isArray(f[PERSONAL])) scrub.learn(f[PERSONAL] as PersonalValue[]);
    for (const [kind, list] of byKind) byKind.set(kind, list.map((r) => scrub.value(r)));
  }
  const records = describe(byKind);
  const fingerprint = `sha256:${createHash('sha256').update(stableJson(records.map((r) => [r.ck.kind, r.id, r.parentId ?? null, r.spec]))).digest('hex')}`;
  return { records: records.filter((r) => wanted.has(r.ck.kind)), cost: cost + (users.length ? (userOps.list.cost ?? 0) : 0), fingerprint, users };
}

/**
 * What `readLive` costs at least, known before any answer: one page of every list that needs no other
 * kind's answer (a kind read per parent, such as a role's settings, adds its reads once the parents are
 * read) and the users' list when a kind names users. A backup prices its run with it while these reads go on.
 */
export function liveCostAtLeast(wanted: Set<string>): number {
  const need = new Set(wanted);
  for (const ck of CONFIG_KINDS) if (need.has(ck.kind) && readsFrom(ck)) need.add(readsFrom(ck)!);
  const kinds = CONFIG_KINDS.filter((ck) => need.has(ck.kind));
  const roots = kinds.filter((ck) => !readsFrom(ck)).flatMap((ck) => ck.reads([]));
  const users = kinds.some((k) => k.userRefs || k.nestedRefs?.some((r) => r.kind === USER_REF)) ? (userOps.list.cost ?? 0) : 0;
  return roots.reduce((n, r) => n + (r.op.cost ?? 0), users);
}

/** Lists that answer an object holding the list (goals answer { goals: [...] }). */
function extractList(answer: unknown): Live[] {
  if (answer && typeof answer === 'object') for (const v of Object.values(answer)) if (Array.isArray(v)) return v as Live[];
  return [];
}

/** Natural keys, labels, handles; records sorted so that a re-pull writes them in the same order. */
function describe(byKind: Map<string, Live[]>): LiveRecord[] {
  const all: LiveRecord[] = [];
  const byId = new Map<string, LiveRecord>();
  const nameOf = (kind: string, id: unknown) => {
    const r = byId.get(`${kind}:${String(id)}`);
    return r ? r.label.split('/').pop() : undefined;
  };
  const used = new Set<string>();
  for (const ck of CONFIG_KINDS) {
    const def = kinds().get(ck.kind)!;
    const from = def.idFrom;
    const items = (byKind.get(ck.kind) ?? []).map((rec) => {
      const spec = liveSpec(ck, rec);
      const parentId = ck.parent ? rec[PARENT] : undefined;
      const parentName = ck.parent ? nameOf(ck.parent.kind, parentId) : undefined;
      const words = ck.words(spec, nameOf, parentName);
      const id = ('fixed' in from ? from.fixed : 'spec' in from ? spec[from.spec] : rec[from.record]) as string | number;
      const refused = checkSchema(def.create.body, { ...spec, ...Object.fromEntries(Object.keys(ck.refs ?? {}).filter((k) => k in spec).map((k) => [k, 1])) }, []).problems;
      const unwritable = refused.length ? refused.map((p) => `${p.path.join('.')}: ${p.rule}`).join('; ') : typeof rec[UNNAMED] === 'string' ? rec[UNNAMED] : undefined;
      return { ck, rec, id, spec, parentId, key: ck.key(spec, parentId), handle: '', label: words.join('/'), ...(unwritable ? { unwritable } : {}) };
    });
    // The service allows two lead labels called "Dup": no file record could be matched with one of them.
    const count = new Map<string, number>();
    for (const it of items) count.set(it.key, (count.get(it.key) ?? 0) + 1);
    for (const it of items) {
      const n = count.get(it.key)!;
      if (n > 1) Object.assign(it, { shared: n, unwritable: it.unwritable ?? sharedKeyReason(ck) });
    }
    items.sort((a, b) => compare(a, b, all));
    for (const it of items) {
      it.handle = uniqueHandle(`${ck.kind}-${slug(it.label)}`, used);
      all.push(it);
      byId.set(`${ck.kind}:${String(it.id)}`, it);
    }
  }
  notWrittenWithTarget(all, byId);
  return all;
}

/**
 * A record that refers to one the files do not hold (a stage of a pipeline that shares its name
 * with another) cannot be written either: its reference would name no record of the files.
 */
function notWrittenWithTarget(all: LiveRecord[], byId: Map<string, LiveRecord>): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const r of all) {
      if (r.unwritable) continue;
      const targets: Array<[string, unknown]> = [...Object.entries(r.ck.refs ?? {}).map(([k, kind]) => [kind, r.spec[k]] as [string, unknown]), ...nestedIds(r.ck, r.spec)];
      if (r.ck.parent) targets.push([r.ck.parent.kind, r.parentId]);
      const gone = targets.map(([kind, id]) => byId.get(`${kind}:${String(id)}`)).find((t) => t?.unwritable);
      if (gone) {
        r.unwritable = `refers to ${gone.ck.kind} ${gone.label}, which is not configuration either (${gone.unwritable})`;
        changed = true;
      }
    }
  }
}

/** Children in their parent's order, then by position (stages, phases) or by name. */
function compare(a: LiveRecord, b: LiveRecord, before: LiveRecord[]): number {
  const parentOf = (r: LiveRecord) => {
    const refKey = Object.keys(r.ck.refs ?? {}).find((k) => k !== 'parent_role_id');
    const kind = r.ck.parent?.kind ?? (refKey ? r.ck.refs![refKey] : undefined);
    const id = r.ck.parent ? r.parentId : refKey ? r.spec[refKey] : undefined;
    return kind ? before.findIndex((x) => x.ck.kind === kind && String(x.id) === String(id)) : -1;
  };
  const pa = parentOf(a);
  const pb = parentOf(b);
  if (pa !== pb) return pa - pb;
  const oa = Number(a.rec.order_nr);
  const ob = Number(b.rec.order_nr);
  if (pa >= 0 && Number.isFinite(oa) && Number.isFinite(ob) && oa !== ob) return oa - ob;
  if (a.label !== b.label) return a.label < b.label ? -1 : 1;
  // Records with the same words (goals of one title) in the order of their keys, so a re-pull names them alike.
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

export function slug(text: string): string {
  const s = text.toLowerCase().replace(/[^a-z0-9_]+/g, '-').replace(/^[-_]+|[-_]+$/g, '');
  return s || 'x';
}

function uniqueHandle(base: string, used: Set<string>): string {
  let h = base;
  for (let n = 2; used.has(h); n++) h = `${base}-${n}`;
  used.add(h);
  return h;
}
