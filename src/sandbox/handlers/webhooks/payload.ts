// Delivery bodies in the two webhook versions (the vendor's documents). v2: `meta` with string ids,
// `data` = current record (null on delete), `previous` = changed fields only (change) or the
// last state (delete). v1: actions added/updated/deleted, `current`, full `previous`, `event`,
// `retry` counting from 0.
import type { SandboxEvent } from '../../store/events.js';
import type { Webhook } from './store.js';

export interface DeliveryInfo {
  /** 1 for the first try, up to 4. */
  attempt: number;
  /** Same for every webhook that gets this event. */
  correlationId: string;
  /** Same for every try of this webhook and event. */
  eventId: string;
  companyId: number;
  /** Host of the company's API (the sandbox's own host:port). */
  host: string;
  permittedUserIds: number[];
}

const V1_ACTION = { create: 'added', change: 'updated', delete: 'deleted' } as const;

/** Fields whose value differs, with their values before the change. */
export function changedFields(previous: Record<string, unknown> | null, current: Record<string, unknown> | null): Record<string, unknown> {
  if (!previous || !current) return {};
  const out: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(previous), ...Object.keys(current)])) {
    if (JSON.stringify(previous[k]) !== JSON.stringify(current[k])) out[k] = previous[k] ?? null;
  }
  return out;
}

export function payloadV2(wh: Webhook, e: SandboxEvent, d: DeliveryInfo): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    action: e.action,
    entity: e.object,
    company_id: String(d.companyId),
    correlation_id: d.correlationId,
    entity_id: String(e.id),
    id: d.eventId,
    is_bulk_edit: false,
    timestamp: e.time,
    type: wh.type,
    user_id: e.userId === null ? null : String(e.userId),
    version: '2.0',
    webhook_id: String(wh.id),
    webhook_owner_id: String(wh.owner_id),
    change_source: 'api',
    attempt: d.attempt,
    host: d.host,
  };
  if (e.object !== 'user') meta.permitted_user_ids = d.permittedUserIds.map(String);
  const previous = e.action === 'create' ? null : e.action === 'delete' ? e.previous : changedFields(e.previous, e.data);
  return { meta, data: e.action === 'delete' ? null : e.data, previous };
}

export function payloadV1(wh: Webhook, e: SandboxEvent, d: DeliveryInfo): Record<string, unknown> {
  const action = V1_ACTION[e.action];
  const ms = Date.parse(e.time);
  const matches = { current: [], previous: [] };
  return {
    v: 1,
    matches_filters: matches,
    meta: {
      v: 1,
      action,
      object: e.object,
      change_source: 'api',
      id: e.id,
      company_id: d.companyId,
      user_id: e.userId,
      host: d.host,
      timestamp: Math.floor(ms / 1000),
      timestamp_micro: ms * 1000,
      permitted_user_ids: d.permittedUserIds,
      trans_pending: false,
      is_bulk_update: false,
      pipedrive_service_name: false,
      matches_filters: matches,
      webhook_id: wh.id,
    },
    retry: d.attempt - 1,
    current: e.data,
    previous: e.previous,
    event: `${action}.${e.object}`,
  };
}
