import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { id } from '../schemas.js';
import { createRow, deleteRow, getRow } from './rows.js';

// Webhooks (v1, scope admin). The list and create answers carry `status: "ok"` beside `success`.
export const EVENT_ACTIONS = ['create', 'change', 'delete', '*'] as const;
/** Objects the vendor added to webhooks v2 on 2026-04-10 (api-facts §11); a version 1.0 webhook has no payload for them. */
export const V2_ONLY_OBJECTS = ['project', 'task', 'board', 'phase', 'deal_product', 'deal_installment'] as const;
export const EVENT_OBJECTS = ['activity', 'deal', 'lead', 'note', 'organization', 'person', 'pipeline', 'product', 'stage', 'user', ...V2_ONLY_OBJECTS, '*'] as const;
export const WEBHOOK_VERSIONS = ['1.0', '2.0'] as const;
/** At most 40 webhooks per user (the vendor's documents); the service enforces it, the CLI names it in help. */
export const MAX_WEBHOOKS_PER_USER = 40;

export const WEBHOOK_FIELDS = [
  'id', 'company_id', 'owner_id', 'user_id', 'event_action', 'event_object', 'subscription_url', 'version', 'is_active', 'add_time',
  'remove_time', 'type', 'http_auth_user', 'http_auth_password', 'remove_reason', 'last_delivery_time', 'last_http_status', 'admin_id', 'name',
];
const COLUMNS = ['id', 'name', 'event_action', 'event_object', 'subscription_url', 'version', 'user_id', 'is_active', 'last_http_status'];
const SCOPES = ['admin'];

/** A full http(s) URL with a host; whether it is the service's own address is checked against the profile (commands/webhooks/checks.ts). */
export const subscriptionUrl = once(() => z.string().check(z.refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}, { error: 'must be a full http(s) URL, e.g. https://hooks.example.com/crm' })));

/** Path ids come in as text; a clear rule instead of a type error. */
const webhookId = once(() => z.int({ error: 'must be a webhook id (a positive integer, see crmctl webhooks list)' }).check(z.gte(1, { error: 'must be a webhook id (a positive integer, see crmctl webhooks list)' })));

const createBody = once(() => z
  .object({
    subscription_url: subscriptionUrl(),
    event_action: z.enum(EVENT_ACTIONS),
    event_object: z.enum(EVENT_OBJECTS),
    name: z.string().check(z.trim()).check(z.minLength(1)),
    user_id: z.optional(id()),
    http_auth_user: z.optional(z.string().check(z.minLength(1))),
    http_auth_password: z.optional(z.string().check(z.minLength(1))),
    version: z.optional(z.enum(WEBHOOK_VERSIONS)),
  }).check(z.superRefine((b, ctx) => {
    if (b.http_auth_password !== undefined && b.http_auth_user === undefined) {
      ctx.addIssue({ code: 'custom', path: ['http_auth_user'], message: 'is required with a password (basic auth needs a user name)' });
    }
    if (b.version === '1.0' && (V2_ONLY_OBJECTS as readonly string[]).includes(b.event_object)) {
      ctx.addIssue({ code: 'custom', path: ['event_object'], message: `${b.event_object} is delivered only by webhooks of version 2.0 (drop --payload-version 1.0)` });
    }
  })));

export const webhookOps = defineTable('webhooks', {
  list: getRow('/api/v1/webhooks', 10, SCOPES, {
    command: ['webhooks', 'list'],
    summary: "List the company's webhooks (passwords masked)",
    examples: ['crmctl webhooks list', 'crmctl webhooks list --json --fields id,name,last_http_status,last_delivery_time'],
    columns: COLUMNS,
    fields: WEBHOOK_FIELDS,
  }),
  create: createRow('/api/v1/webhooks', 10, SCOPES, () => createBody(), {
    prompts: { user_id: { from: 'users.list' } },
    command: ['webhooks', 'create'],
    summary: 'Create a webhook: POST events <action>.<object> to a URL',
    description: `The URL must be a full, publicly reachable http(s) URL that does not redirect and is not an address of the service. A user can have at most ${MAX_WEBHOOKS_PER_USER} webhooks. Each event is sent only if the webhook's user (default: you) may see the object. The local sandbox also accepts loopback URLs (e.g. one of "crmctl webhooks listen"); the real service does not.`,
    examples: [
      'crmctl webhooks create --name "ERP sync" --url https://erp.example.com/hooks/crm --action "*" --object deal',
      'crmctl webhooks create --name "New leads" --url https://hooks.example.com/leads --action create --object lead --payload-version 1.0 --auth-user crm --auth-password-stdin < secret.txt',
    ],
    columns: COLUMNS,
    fields: WEBHOOK_FIELDS,
    flagNames: { subscription_url: 'url', event_action: 'action', event_object: 'object', http_auth_user: 'auth-user', http_auth_password: 'auth-password', version: 'payload-version' },
    help: {
      subscription_url: 'full http(s) URL that receives the POSTs; not an address of the service',
      event_action: 'create, change, delete or * (all)',
      event_object: `object type, or * (all); ${V2_ONLY_OBJECTS.join(', ')} only with payload version 2.0`,
      user_id: 'events are checked against this user\'s permissions (default: you)',
      http_auth_user: 'basic-auth user the service sends',
      http_auth_password: 'basic-auth password (prefer --auth-password-stdin)',
      version: 'payload version (default 2.0)',
    },
  }, { successStatus: 201 }),
  delete: deleteRow('/api/v1/webhooks/{id}', 6, SCOPES, { prompts: { id: { from: 'webhooks.list', label: '{event_action}.{event_object} {subscription_url}' } }, command: ['webhooks', 'delete'], summary: 'Delete a webhook', examples: ['crmctl webhooks delete 12 --yes'], columns: ['id'] }, { params: () => z.object({ id: webhookId() }) }),
} satisfies OperationTable);
