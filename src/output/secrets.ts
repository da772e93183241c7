/**
 * Secrets in records are shown masked in every output format unless --show-secrets is given. The
 * service returns some in clear (a webhook's http_auth_password); a list piped into a log or a
 * ticket must not carry them. Done here, on the one path every record takes to stdout, so a new
 * command cannot forget it.
 */
export const MASK = '********';

/**
 * Field names that hold secrets wherever they appear in a record: the interface's webhook password,
 * and the credential names of the service's token and app documents (should a response carry them).
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(['http_auth_password', 'password', 'client_secret', 'api_token', 'access_token', 'refresh_token']);

/** A copy of `value` with every secret field (at any depth) masked; values without one are returned as they are. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const m = maskSecrets(v);
      if (m !== v) changed = true;
      return m;
    });
    return changed ? out : value;
  }
  if (!value || typeof value !== 'object') return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    // null and empty mean "no password": masking them would claim one is set.
    const m = SECRET_FIELDS.has(k) && v !== null && v !== undefined && v !== '' ? MASK : maskSecrets(v);
    if (m !== v) {
      out ??= { ...(value as Record<string, unknown>) };
      out[k] = m;
    }
  }
  return out ?? value;
}

export async function* maskedRecords(records: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<unknown> {
  for await (const r of records) yield maskSecrets(r);
}
