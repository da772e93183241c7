/**
 * Two backups compared record by record, kind by kind (`crmctl diff`): each record made portable
 * (portable.ts: users by e-mail, labels and options by name, custom fields by field name), A's links
 * carried into B's ids through the id map a restore of A into B's account kept (or compared by id when
 * both are backups of one account). Per kind: identical, changed (which fields), only in one.
 * No API call: a live account is compared through a fresh backup of it (src/commands/diff).
 */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { canonical } from '../runs/fingerprint.js';
import { paths, type Manifest } from './format.js';
import type { IdMap } from './idmap.js';
import { BACKUP_KINDS } from './kinds.js';
import { toPortable, type Link } from './portable.js';
import { dirSide, type Side } from './side.js';

type Rec = Record<string, unknown>;

export interface KindDiff {
  /** Records in both, the same. */
  identical: number;
  changed: Array<{ a: unknown; b: unknown; fields: string[] }>;
  only_a: unknown[];
  only_b: unknown[];
}

export interface DiffResult {
  a: string;
  b: string;
  /** How records were paired: an id map of a restore, the same ids (one account), or names (two accounts, no map). */
  paired_by: Pairing;
  kinds: Record<string, KindDiff>;
  /** Kinds or fields left out of the comparison, and why. */
  not_compared: Record<string, string>;
  identical: boolean;
}

export interface DiffInput {
  a: { dir: string; manifest: Manifest; label: string };
  b: { dir: string; manifest: Manifest; label: string };
  /** A's ids → B's (a restore of A into B's account); undefined: the same ids. */
  idmap?: IdMap;
  /** Fields per kind the restore did not carry (its report): not compared. */
  notCarried?: Record<string, string[]>;
  /** Kinds the restore does not write: not compared. */
  notRestored?: Record<string, string>;
  /** 'natural key': two accounts that share no id map (diff --from --to): records paired by name and linked names. */
  pairing?: Pairing;
}

export type Pairing = 'id map' | 'id' | 'natural key';

async function* lines(file: string): AsyncGenerator<Rec> {
  if (!existsSync(file)) return;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line.trim()) yield JSON.parse(line) as Rec;
}

export async function diffBackups(o: DiffInput): Promise<DiffResult> {
  const sideA = dirSide(o.a.dir);
  const sideB = dirSide(o.b.dir);
  const same: Link = (_k, id) => id;
  let linkA: Link = o.idmap ? (k, id) => o.idmap!.get(k, id) : same;
  let linkB: Link = same;
  // Two accounts with no id map between them: each link is read as its record's natural key (kinds.ts), on both sides.
  const natural = o.pairing === 'natural key';
  if (natural) {
    linkA = await naturalLinks(o.a.dir, o.a.manifest, sideA);
    linkB = await naturalLinks(o.b.dir, o.b.manifest, sideB);
  }
  const notCompared: Record<string, string> = {};
  const kinds: Record<string, KindDiff> = {};
  for (const k of BACKUP_KINDS) {
    if (k.reference) continue;
    const inA = o.a.manifest.kinds[k.name];
    const inB = o.b.manifest.kinds[k.name];
    if (!inA && !inB) continue;
    if (o.notRestored?.[k.name] && (inA?.count ?? 0) > 0) {
      notCompared[k.name] = `not restored: ${o.notRestored[k.name]}`;
      continue;
    }
    if (!inA || !inB) {
      notCompared[k.name] = `only ${inA ? o.a.label : o.b.label} holds this kind (the other backup left it out)`;
      continue;
    }
    const ignore = new Set(o.notCarried?.[k.name] ?? []);
    if (ignore.size) notCompared[`${k.name} fields`] = `${[...ignore].join(', ')}: not carried by the restore (its report.json)`;
    // A side read without files' bytes (a live account, or backup --no-file-bytes) has no hash of them to compare.
    const noBytes = k.name === 'files' ? [o.a, o.b].find((x) => (x.manifest.files?.skipped ?? 0) > 0) : undefined;
    if (noBytes) {
      ignore.add('bytes_sha256');
      notCompared['files bytes'] = `${noBytes.label} was read without files' bytes (two backups with their bytes compare them: crmctl diff DIR1 DIR2)`;
    }
    // Records without an id of their own (followers) pair by who follows what; the rest by id (through the map) or natural key.
    const pair: Pair = k.identity ? fieldsKey(k.identity) : natural ? fieldsKey(k.natural) : { a: (r) => (o.idmap ? o.idmap.get(k.name, r.id) : r.id), b: (r) => r.id };
    kinds[k.name] = await diffKind(k.name, o.a.dir, o.b.dir, sideA, sideB, linkA, linkB, ignore, pair);
  }
  const identical = Object.values(kinds).every((d) => !d.changed.length && !d.only_a.length && !d.only_b.length);
  return { a: o.a.label, b: o.b.label, paired_by: o.pairing ?? (o.idmap ? 'id map' : 'id'), kinds, not_compared: notCompared, identical };
}

/** How a record finds its counterpart: a key of A's record and of B's (raw record, then its portable form). */
interface Pair {
  a(raw: Rec, p: Rec): unknown;
  b(raw: Rec, p: Rec): unknown;
}

/** Pairs by fields of the portable form (links already read through the side's link: ids of B, or natural keys). */
const fieldsKey = (fields: string[]): Pair => {
  const key = (_raw: Rec, p: Rec) => canonical(fields.map((f) => p[f] ?? null));
  return { a: key, b: key };
};

/**
 * Each record's natural key (kinds.ts `natural`: name or title, and what it links to by that record's own
 * natural key), read kind by kind in dependency order, as a Link: (kind, id) → key. Two accounts' records
 * then compare and pair by names, never by their ids.
 */
async function naturalLinks(dir: string, manifest: Manifest, side: Side): Promise<Link> {
  const keys = new Map<string, Map<string, string>>();
  const link: Link = (kind, id) => keys.get(kind)?.get(String(id)) ?? (id === null || id === undefined ? undefined : `#${String(id)}`);
  for (const k of BACKUP_KINDS) {
    if (k.reference || k.identity || !manifest.kinds[k.name]) continue;
    const m = new Map<string, string>();
    keys.set(k.name, m);
    for await (const r of lines(paths.records(dir, k.name))) {
      const p = toPortable(side, k.name, r, link).rec;
      m.set(String(r.id), canonical(k.natural.map((f) => p[f] ?? null)));
    }
  }
  return link;
}

async function diffKind(kind: string, dirA: string, dirB: string, sideA: Side, sideB: Side, linkA: Link, linkB: Link, ignore: Set<string>, pair: Pair): Promise<KindDiff> {
  // B's records of one kind by their pairing key, portable (a key several records share pairs them in file order); A's streamed past them.
  const bByKey = new Map<string, Array<{ id: unknown; rec: Rec }>>();
  for await (const r of lines(paths.records(dirB, kind))) {
    const rec = toPortable(sideB, kind, r, linkB).rec;
    const key = String(pair.b(r, rec));
    // A record without an id (a follower) is named by its key.
    const id = r.id ?? key;
    const list = bByKey.get(key);
    if (list) list.push({ id, rec });
    else bByKey.set(key, [{ id, rec }]);
  }
  const out: KindDiff = { identical: 0, changed: [], only_a: [], only_b: [] };
  for await (const r of lines(paths.records(dirA, kind))) {
    const a = toPortable(sideA, kind, r, linkA).rec;
    const key = pair.a(r, a);
    const list = key === undefined ? undefined : bByKey.get(String(key));
    const b = list?.shift();
    if (!b) {
      out.only_a.push(r.id ?? key);
      continue;
    }
    if (!list!.length) bByKey.delete(String(key));
    const fields = changedFields(a, b.rec, ignore);
    if (fields.length) out.changed.push({ a: r.id ?? key, b: b.id, fields });
    else out.identical++;
  }
  out.only_b = [...bByKey.values()].flatMap((l) => l.map((x) => x.id));
  return out;
}

/** Top-level members that differ; custom fields by name (`fields.Segment`). */
function changedFields(a: Rec, b: Rec, ignore: Set<string>): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (ignore.has(key)) continue;
    if (key === 'fields') {
      const fa = (a.fields ?? {}) as Rec;
      const fb = (b.fields ?? {}) as Rec;
      for (const n of new Set([...Object.keys(fa), ...Object.keys(fb)])) if (canonical(fa[n] ?? null) !== canonical(fb[n] ?? null)) out.push(`fields.${n}`);
      continue;
    }
    if (canonical(a[key] ?? null) !== canonical(b[key] ?? null)) out.push(key);
  }
  return out.sort();
}

/** The fields a restore's report lists as not carried, per kind (`birthday (why)` → `birthday`). */
export function notCarriedOf(reportFile: string): Record<string, string[]> | undefined {
  if (!existsSync(reportFile)) return undefined;
  const r = JSON.parse(readFileSync(reportFile, 'utf8')) as { not_carried?: { fields?: Record<string, string[]> } };
  return Object.fromEntries(Object.entries(r.not_carried?.fields ?? {}).map(([k, fs]) => [k, fs.map((f) => f.split(' ')[0]!)]));
}

/** The comparison for people: one line per kind, then the verdict. */
export function diffLines(d: DiffResult): string[] {
  const width = Math.max(4, ...Object.keys(d.kinds).map((k) => k.length));
  const show = (ids: unknown[]) => `${ids.slice(0, 5).map(String).join(', ')}${ids.length > 5 ? `, … (${ids.length})` : ''}`;
  const out = [`Comparing ${d.a} with ${d.b} (records paired by ${d.paired_by}):`];
  for (const [k, x] of Object.entries(d.kinds)) {
    if (!x.changed.length && !x.only_a.length && !x.only_b.length) {
      out.push(`  ${k.padEnd(width)}  identical (${x.identical})`);
      continue;
    }
    const parts = [`${x.identical} identical`];
    if (x.changed.length) parts.push(`${x.changed.length} changed: ${x.changed.slice(0, 3).map((c) => `${String(c.a)}→${String(c.b)} ${c.fields.join(', ')}`).join('; ')}${x.changed.length > 3 ? '; …' : ''}`);
    if (x.only_a.length) parts.push(`only in ${d.a}: ${show(x.only_a)}`);
    if (x.only_b.length) parts.push(`only in ${d.b}: ${show(x.only_b)}`);
    out.push(`  ${k.padEnd(width)}  ${parts.join('; ')}`);
  }
  for (const [k, why] of Object.entries(d.not_compared)) out.push(`  not compared: ${k}: ${why}`);
  out.push(d.identical ? 'Identical.' : 'Different (exit 8).');
  return out;
}
