// Demo webhooks, pointing at example hosts. They are inactive (is_active 0, how the service
// shows a hook that is switched off) so a demo sandbox never sends requests to the internet.
import type { SandboxState, SeedName } from '../../store/state.js';
import { webhooks } from './store.js';

const T = '2025-01-08T10:00:00.000Z';

export function seedWebhooks(state: SandboxState, name: SeedName): void {
  webhooks(state); // the collection exists (and shows in /__sandbox/state) even when empty
  if (name !== 'demo') return;
  const add = (user_id: number, name: string, event_action: string, event_object: string, subscription_url: string, version: string, auth: [string, string] | null) =>
    webhooks(state).insert({
      id: webhooks(state).allocateId() as number, company_id: state.company.id, owner_id: 1, user_id, event_action, event_object,
      subscription_url, version, is_active: 0, add_time: T, remove_time: null, type: 'general', http_auth_user: auth?.[0] ?? null,
      http_auth_password: auth?.[1] ?? null, remove_reason: null, last_delivery_time: null, last_http_status: null, admin_id: 1, name,
    }, { silent: true });
  add(1, 'ERP sync: deals', '*', 'deal', 'https://erp.sandbox-trading.example/hooks/crm', '2.0', ['erp', 'erp-hook-secret']);
  add(2, 'Slack: new leads', 'create', 'lead', 'https://hooks.slack.example/services/T000/B000/XXXX', '1.0', null);
}
