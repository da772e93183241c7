/**
 * `crmctl history`: the service's own change log of a record merged with what crmctl's runs wrote to
 * it. Pure: the command reads both sides (history-read.ts, history-local.ts) and hands them here. A
 * service change is crmctl's when a run wrote the same field of the same record to the same value
 * while it ran (its start to its end, with a slack for the clocks); anything else was made by people or
 * other tools. Each local write accounts for one change at most, so a value written twice by hand is
 * not claimed twice.
 */

/** One field change as the service logs it (the v1 changelog). */
export interface ServiceChange {
  field: string;
  old_value: string | null;
  new_value: string | null;
  user_id: number | null;
  /** ms since the epoch (the service logs whole seconds, UTC). */
  at: number;
  /** `api`, `app`, `mobile`…, as the service says it. */
  source: string | null;
  /** The user agent of the request that made it, when the service logs it. */
  agent: string | null;
}

/** One field a run wrote to the record (or its create/delete), with the run's window. */
export interface LocalWrite {
  run: string;
  /** The door: `import`, `bulk update`, `command`, `MCP (client)`… (history-local.ts names it). */
  door: string;
  op: 'create' | 'update' | 'delete';
  /** Field key as sent (custom fields by their hash key); absent for a create or delete as a whole. */
  field?: string;
  /**
   * Another record was merged into this one (a dedupe): the service changed this record's fields as it
   * chose (contacts added, children moved), so its changes in the run's window are the run's.
   */
  mergedInto?: boolean;
  value?: unknown;
  /** The run's start and end (ms); a run still going (or killed) ends now. */
  from: number;
  to: number;
}

/** Something else the flow says happened on the record: a note, an activity, a file, a follower… */
export interface FlowEvent {
  /** The flow's object type: `note`, `activity`, `file`, `dealFollower`… */
  object: string;
  /** The record's kind when crmctl's runs can write it (notes, activities, files, deals), and its id. */
  kind?: string;
  id: string | null;
  user_id: number | null;
  at: number;
  /** A short line of it: a note's text, an activity's subject, a file's name. */
  text: string | null;
}

export interface HistoryRow {
  time: string;
  field: string;
  old_value: string | null;
  new_value: string | null;
  user_id: number | null;
  /** `crmctl` when a run of crmctl made it, else `others` (people, other tools). */
  by: 'crmctl' | 'others';
  door: string | null;
  run: string | null;
  /** The service's word for where it came from; null for what only the local record knows. */
  change_source: string | null;
  /** `crmctl bulk update (run 3f2a…)` or `others (app)`: the table's column. */
  made_by: string;
}

/** How far (ms) a service time may fall outside a run's window: whole-second times and two clocks. */
export const SLACK_MS = 120_000;

/** The same field under the names v1 logs and v2 writes (the deal's owner is `user_id` in v1, `owner_id` in v2). */
const SAME_FIELD: Record<string, string> = { user_id: 'owner_id' };
const fieldKey = (f: string) => SAME_FIELD[f] ?? f;

/** A value as the changelog writes it: text, objects as JSON, null for nothing. */
export function logText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The changelog's text and a sent value agree: same text, or the same number (`100` and `100.00`). */
function sameValue(logged: string | null, sent: unknown): boolean {
  const t = logText(sent);
  if (logged === t) return true;
  if (logged === null || t === null || logged.trim() === '' || t.trim() === '') return false;
  const a = Number(logged), b = Number(t);
  return Number.isFinite(a) && Number.isFinite(b) && a === b;
}

/** How far a time lies outside a window (0 inside). */
const outside = (at: number, w: LocalWrite) => (at < w.from ? w.from - at : at > w.to ? at - w.to : 0);

/**
 * The service's changes (newest first, as the changelog serves them) and the runs' writes as one list,
 * oldest first; with the flow's other events (`made`: the run that created that record, if one did).
 */
export function mergeHistory(service: readonly ServiceChange[], local: readonly LocalWrite[], events: ReadonlyArray<{ event: FlowEvent; made?: LocalWrite }> = []): HistoryRow[] {
  const used = new Set<LocalWrite>();
  // Oldest first; changes of one second keep the service's order, reversed (it serves newest first).
  const changes = [...service].reverse().sort((a, b) => a.at - b.at);
  const claimed = new Map<ServiceChange, LocalWrite>();
  for (const c of changes) {
    let best: LocalWrite | undefined;
    for (const w of local) {
      if (used.has(w) || w.field === undefined || fieldKey(w.field) !== fieldKey(c.field) || !sameValue(c.new_value, w.value)) continue;
      const d = outside(c.at, w);
      if (d > SLACK_MS) continue;
      // The nearest run wins; between two equally near, the later one (an undo after the run it undoes).
      if (!best || d < outside(c.at, best) || (d === outside(c.at, best) && w.from > best.from)) best = w;
    }
    if (best) {
      used.add(best);
      claimed.set(c, best);
    }
  }
  // A record others were merged into: what changed on it while the merging run ran came from those merges.
  for (const c of changes) {
    if (claimed.has(c)) continue;
    const merge = local.find((w) => w.mergedInto && outside(c.at, w) <= SLACK_MS);
    if (merge) claimed.set(c, merge);
  }
  // One request logs all its changes at one time: what the service derived from a field crmctl wrote
  // (a person's first and last name from the name) is logged with it (same second, user, source and
  // user agent) and is the run's too. Another client's change in that second has another user agent.
  for (const c of changes) {
    if (claimed.has(c)) continue;
    const twin = changes.find((o) => claimed.has(o) && o.at === c.at && o.user_id === c.user_id && o.source === c.source && o.agent === c.agent);
    if (twin) claimed.set(c, claimed.get(twin)!);
  }
  // `rank` orders rows of one second: a creation before the changes, a deletion after them.
  const rows: Array<HistoryRow & { at: number; rank: number }> = [];
  for (const c of changes) {
    const best = claimed.get(c);
    rows.push({
      at: c.at, rank: 1, time: iso(c.at), field: c.field, old_value: c.old_value, new_value: c.new_value, user_id: c.user_id,
      by: best ? 'crmctl' : 'others', door: best?.door ?? null, run: best?.run ?? null, change_source: c.source,
      made_by: best ? `crmctl ${best.door} (run ${best.run})` : `others${c.source ? ` (${c.source})` : ''}`,
    });
  }
  // Events of one second in the order they were made (ids grow), whatever order the flow served them in.
  const ordered = [...events].sort((a, b) => a.event.at - b.event.at || Number(a.event.id ?? 0) - Number(b.event.id ?? 0));
  for (const { event: e, made } of ordered) {
    rows.push({
      at: e.at, rank: 1, time: iso(e.at), field: `(${e.object})`, old_value: null, new_value: e.text, user_id: e.user_id,
      by: made ? 'crmctl' : 'others', door: made?.door ?? null, run: made?.run ?? null, change_source: null,
      made_by: made ? `crmctl ${made.door} (run ${made.run})` : 'others',
    });
  }
  // What the change log does not show (it logs field changes of a record that exists): the record's
  // creation and deletion by a run, placed at the run's start.
  for (const w of local) {
    if (w.field !== undefined || w.op === 'update' || w.mergedInto) continue;
    const what = w.op === 'create' ? '(created)' : '(deleted)';
    const at = Math.floor(w.from / 1000) * 1000;
    rows.push({
      at, rank: w.op === 'create' ? 0 : 2, time: iso(at), field: what, old_value: null, new_value: null, user_id: null,
      by: 'crmctl', door: w.door, run: w.run, change_source: null, made_by: `crmctl ${w.door} (run ${w.run})`,
    });
  }
  // Whole seconds, as the service logs: the sort is stable, so changes keep their order within one.
  return rows.sort((a, b) => a.at - b.at || a.rank - b.rank).map(({ at: _at, rank: _rank, ...r }) => r);
}

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
