// Webhook passwords are secrets: the service returns them, the CLI never prints them.
export const MASK = '********';

export function maskWebhook(rec: unknown): unknown {
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) return rec;
  const r = rec as Record<string, unknown>;
  return r.http_auth_password == null ? r : { ...r, http_auth_password: MASK };
}
