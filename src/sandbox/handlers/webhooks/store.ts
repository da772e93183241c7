// The webhook record (the vendor's documents) and its collection. Webhooks are
// not an event object themselves, so the collection emits no events.
import type { SandboxState } from '../../store/state.js';

export const EVENT_ACTIONS = ['create', 'change', 'delete', '*'] as const;
/** Objects of webhooks v2 only (the vendor added them on 2026-04-10); a version 1.0 webhook is never sent them. */
export const V2_ONLY_OBJECTS = ['project', 'task', 'board', 'phase', 'deal_product', 'deal_installment'] as const;
export const EVENT_OBJECTS = ['activity', 'deal', 'lead', 'note', 'organization', 'person', 'pipeline', 'product', 'stage', 'user', ...V2_ONLY_OBJECTS, '*'] as const;
export const isV2Only = (object: string): boolean => (V2_ONLY_OBJECTS as readonly string[]).includes(object);
export const VERSIONS = ['1.0', '2.0'] as const;
/** Interface / the vendor's documents: at most 40 webhooks per user. */
export const MAX_WEBHOOKS_PER_USER = 40;

export interface Webhook {
  id: number;
  company_id: number;
  owner_id: number;
  user_id: number;
  event_action: string;
  event_object: string;
  subscription_url: string;
  version: string;
  is_active: 0 | 1;
  add_time: string;
  remove_time: string | null;
  type: 'general' | 'application' | 'automation';
  http_auth_user: string | null;
  http_auth_password: string | null;
  remove_reason: string | null;
  last_delivery_time: string | null;
  last_http_status: number | null;
  admin_id: number;
  name: string;
  [k: string]: unknown;
}

export const webhooks = (state: SandboxState) => state.collection<Webhook>('webhooks', { idKind: 'int' });
