/**
 * `crmctl export <kind> --incremental --out file.ndjson`: a local NDJSON copy kept in step with the
 * account. The first run is a full export; later runs read only what changed since the file's
 * watermark (the changes feed, src/automation/changes-feed.ts: one recents read per page for the
 * kind) and the changed records in the export's own form (the kind's list by `ids=`, 100 a read),
 * then rewrite the file: changed records replaced in place, new ones appended, deleted ones removed.
 * The file is replaced atomically first, its state (`<file>.state.json`) after: a run killed between
 * the two applies the same changes again next time, which leaves the same file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { read, readAll } from '../entry/prepare.js';
import type { Context } from '../core/context.js';
import { UsageError } from '../core/errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { acquireLock } from '../fs/lock.js';
import { fieldsOf } from '../input/fields.js';
import { ChangeFeed, CHANGE_TYPES, type Boundary, type ChangeType } from './changes-feed.js';
import { isSpan, parseSince, serviceTimeOf } from './changes-time.js';
import { LOCK_STALE_MS } from './changes-watermark.js';
import { readJson, writeJsonAtomic } from './durable.js';
import { Journal } from '../runs/journal.js';
import { checkpointPath, runExport } from './export.js';
import type { ExportResource } from './resources.js';

/** What `<out>.state.json` holds. */
export interface IncrementalState extends Boundary {
  version: 1;
  resource: string;
  records: number;
  updated_at: string;
}

export const statePath = (out: string) => `${out}.state.json`;

/** The export resources that keep in step: the kinds the changes feed reports. */
function kindOf(resource: ExportResource): ChangeType {
  const kind = CHANGE_TYPES.find((t) => t === resource.name);
  if (!kind) throw new UsageError(`--incremental: ${resource.name} cannot be kept in step`, `Kinds with a changes feed: ${CHANGE_TYPES.join(', ')}.`);
  return kind;
}

/**
 * `--since` of a plain export as the list's own `updated_since` filter (`--param updated_since=...`).
 * A resumed export keeps the time its checkpoint holds: a span (24h) would have moved with the clock.
 */
export function sinceParam(resource: ExportResource, since: string, resumedOut?: string): string {
  const at = parseSince(since);
  if (!fieldsOf(resource.op.query, 'query').some((f) => f.key === 'updated_since')) {
    throw new UsageError(`--since: the ${resource.name} list has no updated_since filter`, `Lists with one include ${CHANGE_TYPES.join(', ')}.`);
  }
  const header = isSpan(since) && resumedOut ? Journal.read(checkpointPath(resumedOut)).find((e) => e.type === 'run') : undefined;
  const kept = (header?.query as Record<string, unknown> | undefined)?.updated_since;
  return `updated_since=${typeof kept === 'string' ? kept : at.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
}

export async function runIncrementalExport(ctx: Context, resource: ExportResource, out: string, pageSize?: number): Promise<void> {
  const kind = kindOf(resource);
  const state = readJson<IncrementalState>(statePath(out));
  if (state && state.resource !== resource.name) {
    throw new UsageError(`--incremental: ${statePath(out)} keeps ${state.resource}, not ${resource.name}`, 'Use another --out file for this kind.');
  }
  // Two runs on one copy would each rewrite it from the same old file: the second is refused.
  const release = await acquireLock(`${statePath(out)}.lock`, { wait: false, staleMs: LOCK_STALE_MS, what: `The copy ${out}` });
  try {
    const from = !state || !existsSync(out) ? await fullExport(ctx, resource, out, pageSize) : { time: state.time, seen: state.seen };
    await catchUp(ctx, resource, kind, out, from);
  } finally {
    release();
  }
}

/**
 * A full export, with the watermark taken BEFORE it: the newest update time of a live record (one
 * read, newest first). Every change made while the export pages comes at or after that time; the
 * catch-up that follows (and its request log) applies them, and gives the next run an exact boundary.
 */
async function fullExport(ctx: Context, resource: ExportResource, out: string, pageSize?: number): Promise<Boundary> {
  const newest = await read(ctx, resource.op, { query: { sort_by: 'update_time', sort_direction: 'desc', limit: 1 } });
  const top = Array.isArray(newest) ? (newest[0] as { update_time?: unknown } | undefined) : undefined;
  const from: Boundary = { time: serviceTimeOf(top?.update_time) ?? '1970-01-01 00:00:00', seen: [] };
  // A full pass is always a new run, and leaves no checkpoint behind: the state file is the copy's record.
  const { records } = await runExport(ctx, { resource, params: {}, query: {}, format: 'ndjson', out, resume: false, newRun: true, ephemeral: true, pageSize, raw: true });
  saveState(out, resource, from, records);
  return from;
}

/** Reads what changed since `from` and rewrites the file with it; then the state, with the new boundary. */
async function catchUp(ctx: Context, resource: ExportResource, kind: ChangeType, out: string, from: Boundary): Promise<void> {
  const feed = new ChangeFeed(ctx, [kind], from);
  const changed = new Set<string>();
  const deleted = new Set<string>();
  for await (const c of feed.changes()) {
    const id = String(c.id);
    if (c.action === 'deleted') {
      deleted.add(id);
      changed.delete(id);
    } else {
      changed.add(id);
      deleted.delete(id);
    }
  }
  const fresh = await currentRecords(ctx, resource, [...changed]);
  // Asked for and not answered: deleted (or hidden) after the feed saw it, so not in a full export either.
  for (const id of changed) if (!fresh.has(id)) deleted.add(id);

  let text = '';
  let records = 0;
  const counts = { replaced: 0, added: 0, removed: 0 };
  const lines = readFileSync(out, 'utf8').split('\n');
  for (const [n, line] of lines.entries()) {
    if (!line) continue;
    const id = idOfLine(line, out, n + 1);
    if (deleted.has(id)) {
      counts.removed++;
      continue;
    }
    const now = fresh.get(id);
    text += now === undefined ? `${line}\n` : `${JSON.stringify(now)}\n`;
    if (now !== undefined) counts.replaced++;
    fresh.delete(id);
    records++;
  }
  for (const r of fresh.values()) {
    text += `${JSON.stringify(r)}\n`;
    counts.added++;
    records++;
  }
  if (counts.replaced || counts.added || counts.removed) writeFileAtomic(out, text, 0o644);
  saveState(out, resource, feed.boundary(), records);
  ctx.info(`${out}: ${counts.added} added, ${counts.replaced} replaced, ${counts.removed} removed; ${records} ${resource.name} records.`);
}

/** The changed records as the export writes them: the kind's list, by ids (the most it takes at once). */
async function currentRecords(ctx: Context, resource: ExportResource, ids: string[]): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  for (let i = 0; i < ids.length; i += 100) {
    const batch = ids.slice(i, i + 100).map(Number);
    for await (const r of readAll(ctx, resource.op, { query: { ids: batch, limit: 100 } })) found.set(String((r as { id: unknown }).id), r);
  }
  return found;
}

function idOfLine(line: string, out: string, n: number): string {
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    if (typeof id === 'number' || typeof id === 'string') return String(id);
  } catch {
    /* named below */
  }
  throw new UsageError(`--incremental: line ${n} of ${out} is not a record with an id; the copy was changed outside crmctl`, `Remove ${out} and ${statePath(out)} to export everything again.`);
}

function saveState(out: string, resource: ExportResource, b: Boundary, records: number): void {
  const state: IncrementalState = { version: 1, resource: resource.name, time: b.time, seen: b.seen, records, updated_at: new Date().toISOString() };
  writeJsonAtomic(statePath(out), state);
}
