// Field changes of any item type, recorded by the engine on every update and read by the v1 changelog,
// flow and pipeline statistics. One collection: {object, item_id, field_key, old_value, new_value, ...}.
import { ok } from '../http/envelope.js';
import { cursorPage } from '../http/paginate.js';
import type { SandboxState } from '../store/state.js';
import type { HandlerContext, RouteDef, SandboxRequest } from '../types.js';
import { v1Time } from './time.js';

export interface Change {
  id: number;
  object: string;
  item_id: number;
  field_key: string;
  old_value: string | null;
  new_value: string | null;
  actor_user_id: number;
  time: string;
  change_source: string | null;
  change_source_user_agent: string | null;
  is_bulk_update_flag: boolean;
  [k: string]: unknown;
}

export const changes = (s: SandboxState) => s.collection<Change>('changelog', { idKind: 'int' });

/** Members that are bookkeeping, not a user's change. */
const NOT_TRACKED = new Set(['update_time', 'stage_change_time', 'id']);

const text = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Records one entry per changed member (custom fields per key) between two states of a record. */
export function recordChanges(state: SandboxState, object: string, before: Record<string, unknown>, after: Record<string, unknown>, actor: number, time: string, userAgent: string | null = null): void {
  const entry = (field_key: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a ?? null) === JSON.stringify(b ?? null)) return;
    changes(state).insert({
      object, item_id: Number(after.id), field_key, old_value: text(a), new_value: text(b), actor_user_id: actor, time,
      change_source: 'api', change_source_user_agent: userAgent, is_bulk_update_flag: false,
    }, { silent: true });
  };
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (NOT_TRACKED.has(k)) continue;
    if (k === 'custom_fields') {
      const x = (before.custom_fields ?? {}) as Record<string, unknown>, y = (after.custom_fields ?? {}) as Record<string, unknown>;
      for (const ck of new Set([...Object.keys(x), ...Object.keys(y)])) entry(ck, x[ck], y[ck]);
    } else entry(k, before[k], after[k]);
  }
}

/**
 * An update a handler makes itself (a merge moving records to the kept one, filling the kept one's
 * contacts), logged as an update request is: the vendor's changelog records a field change on every
 * update, whatever operation made it.
 */
export function loggedUpdate<T extends { id: number }>(
  state: SandboxState, object: string, col: { get(id: number): T | undefined; update(id: number, patch: Partial<T>, w: { userId?: number }): T },
  id: number, patch: Partial<T>, req: SandboxRequest, time: string,
): void {
  const before = structuredClone(col.get(id)) as unknown as Record<string, unknown>;
  const after = col.update(id, patch, { userId: req.userId }) as unknown as Record<string, unknown>;
  recordChanges(state, object, before, after, req.userId, time, String(req.headers['user-agent'] ?? '') || null);
}

export const changesOf = (state: SandboxState, object: string, itemId: number): Change[] =>
  changes(state).filter((c) => c.object === object && c.item_id === itemId);

/** GET <item>/changelog (v1, cursor pages, newest first). */
export function changelogRoute(o: { object: string; path: string; scopes: string[]; load: (req: SandboxRequest, ctx: HandlerContext) => { id: number } }): RouteDef {
  return {
    method: 'GET', path: `${o.path}/changelog`, cost: 20, scopes: o.scopes,
    handler: (req, ctx) => {
      const item = o.load(req, ctx);
      const rows = changesOf(ctx.state, o.object, item.id).sort((a, b) => b.time.localeCompare(a.time) || b.id - a.id);
      const page = cursorPage(rows.map((r, rank) => ({ id: r.id, rank, r })), req.query, { field: 'rank', maxLimit: 500 });
      return ok(page.data.map(({ r }) => ({
        field_key: r.field_key, old_value: r.old_value, new_value: r.new_value, actor_user_id: r.actor_user_id, time: v1Time(r.time),
        change_source: r.change_source, change_source_user_agent: r.change_source_user_agent, is_bulk_update_flag: r.is_bulk_update_flag,
      })), page.additional_data);
    },
  };
}
