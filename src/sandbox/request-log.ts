// Log of API and OAuth requests (never control calls) for tests to inspect what a
// client actually sent. Secrets are redacted before they are stored.

export interface LoggedRequest {
  seq: number;
  time: string;
  request_id: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  body: unknown;
  status: number;
  user_id: number | null;
  cost: number;
  /** How the caller authenticated: bearer, api_token, basic (oauth client), or none. */
  auth: 'bearer' | 'api_token' | 'basic' | 'none';
  duration_ms: number;
  /** True when the fault injector answered or reset this request. */
  fault?: string;
}

const SECRET_KEYS = new Set([
  'client_secret', 'password', 'http_auth_password', 'refresh_token', 'access_token', 'token',
  'api_token', 'authorization',
]);
/** On the OAuth pages `code` is the authorization code; in the API it is data (a product's code). */
const OAUTH_SECRET_KEYS = new Set([...SECRET_KEYS, 'code']);

export function redact(v: unknown, keys: ReadonlySet<string> = SECRET_KEYS): unknown {
  if (Array.isArray(v)) return v.map((x) => redact(x, keys));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = keys.has(k.toLowerCase()) && x != null ? '[redacted]' : redact(x, keys);
    return out;
  }
  return v;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;
  constructor(private readonly max = 10_000) {}

  add(e: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const keys = e.path.startsWith('/oauth/') ? OAUTH_SECRET_KEYS : SECRET_KEYS;
    const entry = { ...e, query: redact(e.query, keys) as LoggedRequest['query'], body: redact(e.body, keys), seq: ++this.seq };
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
    return entry;
  }

  list(): LoggedRequest[] { return [...this.entries]; }
  clear(): void { this.entries = []; }
}
