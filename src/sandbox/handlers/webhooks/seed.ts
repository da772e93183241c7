// Demo webhooks. Their URLs are ones the sandbox's own create accepts (routes.ts): the service
// refuses a URL that is not reachable (interface: "publicly reachable"; 400 "invalid or non-reachable
// URL"), so hooks on hosts that never resolve (.example) were records no account can hold, and
// `pull` then `apply` of a demo account stopped at them. Loopback's discard port (9) is accepted
// (the sandbox's documented loopback deviation) and never leaves the machine; the hooks are also
// inactive (is_active 0, how the service shows a hook that is switched off).
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
  add(1, 'ERP sync: deals', '*', 'deal', 'http://127.0.0.1:9/erp/hooks/crm', '2.0', ['erp', 'erp-hook-secret']);
  add(2, 'Slack: new leads', 'create', 'lead', 'http://127.0.0.1:9/slack/services/T000/B000/XXXX', '1.0', null);
}
