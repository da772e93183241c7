/**
 * The changes feed: what was added, updated or deleted in the five record kinds since a boundary,
 * read from the service's own change list, v1 `GET /recents` (one read for every kind, deletions
 * included: the service marks a record deleted and bumps its update time, so a deletion is a change).
 *
 * Telling the actions apart (the recents entry carries the record as it is now):
 * - deleted: the record says so (`deleted: true` on a deal, `active_flag: false` on the others).
 * - added: it was created inside the window (`add_time` at or after the boundary; at the boundary
 *   second itself only when the previous run did not report it).
 * - updated: everything else.
 *
 * The boundary (watermark) is the service's time of the newest change seen, never the local clock,
 * with the changes already reported at that very second. The service keeps whole seconds and its
 * `since_timestamp` includes that second, so the next read starts AT the boundary second and drops
 * what was reported there already (same kind, id and content): a change later in the same second is
 * still reported, none is reported twice. Pages are keyed by time for the same reason: each page
 * after the first starts at the newest second of the one before (offsets only within one second),
 * so a record that changes while the feed pages moves to the end instead of shifting one past us.
 */
import { recentOps } from '../api/operations/recents.js';
import { read, type Reader } from '../entry/prepare.js';
import { serviceTimeOf, toRfc3339 } from './changes-time.js';

export const CHANGE_TYPES = ['deals', 'persons', 'organizations', 'activities', 'products'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export type ChangeAction = 'added' | 'updated' | 'deleted';

/** The recents item name of each kind. */
export const RECENT_ITEM: Record<ChangeType, string> = { deals: 'deal', persons: 'person', organizations: 'organization', activities: 'activity', products: 'product' };
const TYPE_OF_ITEM = new Map(Object.entries(RECENT_ITEM).map(([t, i]) => [i, t as ChangeType]));

export interface Change {
  type: ChangeType;
  action: ChangeAction;
  id: number | string;
  /** When the change happened, service time as RFC 3339 UTC. */
  time: string;
  /** The record as the recents list gives it (the v1 form). */
  record: Record<string, unknown>;
}

/** Where a feed starts: a service time (`YYYY-MM-DD HH:MM:SS`) and the changes reported at that second. */
export interface Boundary {
  time: string;
  /** `<type>:<id>:<fingerprint of the record>` of each change already reported at `time`. */
  seen: string[];
}

export class ChangeFeed {
  private newest: string;
  private atNewest: Set<string>;

  constructor(
    private readonly reader: Reader,
    private readonly types: readonly ChangeType[],
    private readonly from: Boundary,
    private readonly pageSize = 500,
  ) {
    this.newest = from.time;
    this.atNewest = new Set(from.seen);
  }

  /** Every change after the boundary, oldest first, each once. */
  async *changes(): AsyncGenerator<Change> {
    const items = this.types.map((t) => RECENT_ITEM[t]);
    const reported = new Set(this.from.seen);
    const reportedIds = new Set(this.from.seen.map(idPart));
    let since = this.from.time;
    let start = 0;
    for (;;) {
      const page = await read(this.reader, recentOps.list, { query: { since_timestamp: since, items, start, limit: this.pageSize } });
      const entries = Array.isArray(page) ? (page as Array<Record<string, unknown>>) : [];
      let last = since;
      for (const entry of entries) {
        const type = TYPE_OF_ITEM.get(String(entry.item));
        const record = entry.data as Record<string, unknown> | null | undefined;
        const time = record ? serviceTimeOf(record.update_time ?? record.add_time) : undefined;
        if (!type || !record || !time) continue;
        if (time > last) last = time;
        if (time < this.from.time) continue;
        const id = (entry.id ?? record.id) as number | string;
        const key = `${type}:${id}:${fingerprint(record)}`;
        if (reported.has(key)) continue;
        reported.add(key);
        this.note(time, key);
        yield { type, action: this.actionOf(type, id, record, reportedIds), id, time: toRfc3339(time)!, record };
      }
      if (entries.length < this.pageSize) return;
      if (last > since) {
        since = last;
        start = 0;
      } else {
        start += entries.length;
      }
    }
  }

  /** The boundary for the next run: the newest change seen (the old boundary when none was). */
  boundary(): Boundary {
    return { time: this.newest, seen: [...this.atNewest].sort() };
  }

  private note(time: string, key: string): void {
    if (time > this.newest) {
      this.newest = time;
      this.atNewest = new Set([key]);
    } else if (time === this.newest) {
      this.atNewest.add(key);
    }
  }

  private actionOf(type: ChangeType, id: number | string, r: Record<string, unknown>, reportedIds: Set<string>): ChangeAction {
    if (r.deleted === true || r.is_deleted === true || r.active_flag === false) return 'deleted';
    const added = serviceTimeOf(r.add_time);
    if (added === undefined) return 'updated';
    if (added > this.from.time) return 'added';
    return added === this.from.time && !reportedIds.has(`${type}:${id}`) ? 'added' : 'updated';
  }
}

const idPart = (key: string) => key.slice(0, key.lastIndexOf(':'));

/** FNV-1a of the record's JSON: two versions of a record within one second differ here. */
function fingerprint(record: unknown): string {
  const s = JSON.stringify(record);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
