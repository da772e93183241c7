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
  /** How records were paired: an id map of a restore, or the same ids (one account). */
  paired_by: 'id map' | 'id';
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
}

async function* lines(file: string): AsyncGenerator<Rec> {
  if (!existsSync(file)) return;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line.trim()) yield JSON.parse(line) as Rec;
}

export async function diffBackups(o: DiffInput): Promise<DiffResult> {
  const sideA = dirSide(o.a.dir);
  const sideB = dirSide(o.b.dir);
  const same: Link = (_k, id) => id;
  const linkA: Link = o.idmap ? (k, id) => o.idmap!.get(k, id) : same;
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
    kinds[k.name] = await diffKind(k.name, o.a.dir, o.b.dir, sideA, sideB, linkA, same, ignore, o.idmap);
  }
  const identical = Object.values(kinds).every((d) => !d.changed.length && !d.only_a.length && !d.only_b.length);
  return { a: o.a.label, b: o.b.label, paired_by: o.idmap ? 'id map' : 'id', kinds, not_compared: notCompared, identical };
}

async function diffKind(kind: string, dirA: string, dirB: string, sideA: Side, sideB: Side, linkA: Link, linkB: Link, ignore: Set<string>, idmap: IdMap | undefined): Promise<KindDiff> {
  // B's records of one kind by id, portable; A's streamed past them.
  const bById = new Map<string, Rec>();
  for await (const r of lines(paths.records(dirB, kind))) bById.set(String(r.id), toPortable(sideB, kind, r, linkB).rec);
  const out: KindDiff = { identical: 0, changed: [], only_a: [], only_b: [] };
  for await (const r of lines(paths.records(dirA, kind))) {
    const bId = idmap ? idmap.get(kind, r.id) : r.id;
    const b = bId === undefined ? undefined : bById.get(String(bId));
    if (!b) {
      out.only_a.push(r.id);
      continue;
    }
    bById.delete(String(bId));
    const a = toPortable(sideA, kind, r, linkA).rec;
    const fields = changedFields(a, b, ignore);
    if (fields.length) out.changed.push({ a: r.id, b: bId, fields });
    else out.identical++;
  }
  out.only_b = [...bById.keys()];
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
