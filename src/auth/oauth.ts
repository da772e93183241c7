import { AuthError, CliError, NetworkError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { redactText, redactUrlEncoded } from '../core/redact.js';
import { networkReason, rawRequest } from '../http/raw.js';

/** What the token endpoint returns. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms. */
  expiresAt: number;
  scopes: string[];
  apiDomain?: string;
  tokenType: string;
}

export interface ClientCredentials {
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

export function callbackUri(port: number): string {
  return `http://127.0.0.1:${port}/callback`;
}

export function authorizeUrl(authUrl: string, clientId: string, redirectUri: string, state: string): string {
  const u = new URL(joinUrl(authUrl, '/oauth/authorize'));
  u.searchParams.set('client_id', clientId);
  u.searchParams.set('redirect_uri', redirectUri);
  u.searchParams.set('state', state);
  return u.toString();
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

function basic(c: ClientCredentials): string {
  return `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;
}

/** Splits a scope string that may be comma- or space-separated. */
export function parseScopes(scope: unknown): string[] {
  if (Array.isArray(scope)) return scope.map(String).filter(Boolean);
  if (typeof scope !== 'string') return [];
  return [...new Set(scope.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean))];
}

export async function exchangeCode(c: ClientCredentials, code: string, redirectUri: string, debug?: (l: string) => void): Promise<TokenSet> {
  return tokenRequest(c, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, debug);
}

export async function refreshTokens(c: ClientCredentials, refreshToken: string, debug?: (l: string) => void): Promise<TokenSet> {
  return tokenRequest(c, { grant_type: 'refresh_token', refresh_token: refreshToken }, debug);
}

async function tokenRequest(c: ClientCredentials, form: Record<string, string>, debug?: (l: string) => void): Promise<TokenSet> {
  const url = joinUrl(c.authUrl, '/oauth/token');
  const secrets = [c.clientSecret, form.code, form.refresh_token];
  debug?.(`> POST ${url} (grant_type=${form.grant_type}, client auth Basic [redacted])`);
  const started = Date.now();
  let status: number;
  let text: string;
  let location: string | string[] | undefined;
  try {
    const res = await rawRequest(url, {
      method: 'POST',
      headers: {
        authorization: basic(c),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
      // Well under the 30 s after which a refresh lock counts as abandoned.
      timeoutMs: 12_000,
    });
    status = res.status;
    text = res.text;
    location = res.headers.location;
  } catch (err) {
    const code = networkReason(err);
    throw new NetworkError(
      `Could not reach the OAuth server at ${url}: ${code}.`,
      code === 'ECONNREFUSED' ? 'Check the profile\'s auth URL (`crmctl auth status`); if it is the sandbox, start it with `crmctl sandbox start`.' : 'Check the network and the auth URL.',
    );
  }
  debug?.(`< ${status} (${Date.now() - started} ms)`);
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { error: text.slice(0, 300) };
  }
  if (status >= 300 && status < 400) {
    // Never followed: the client secret and the code or refresh token would go to wherever Location says.
    const to = Array.isArray(location) ? location[0] : location;
    throw new CliError(`The OAuth server answered ${status} for POST ${url} with a redirect to ${to ? redactUrlEncoded(to) : '(no Location)'}; crmctl does not follow redirects (the credentials would go along).`, EXIT.ERROR, 'Check the auth URL (CRMCTL_AUTH_URL or the profile\'s authUrl): it should be the address the OAuth server answers at.');
  }
  if (status < 200 || status >= 300) throw tokenError(status, body, form.grant_type!, secrets);
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || !accessToken) {
    throw new CliError(`The OAuth server answered ${status} without an access_token.`, EXIT.ERROR);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined,
    expiresAt: Date.now() + (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) * 1000,
    scopes: parseScopes(body.scope),
    apiDomain: typeof body.api_domain === 'string' && body.api_domain ? normalizeDomain(body.api_domain) : undefined,
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
  };
}

/** `api_domain` may come without a scheme ("company.example.com"); the API is HTTPS then. */
export function normalizeDomain(d: string, source = 'api_domain'): string {
  const t = d.trim().replace(/\/+$/, '');
  const full = /^https?:\/\//i.test(t) ? t : `https://${t}`;
  // A user or password in the address would be printed by --debug and in hints, and sent as Basic auth
  // by some clients; the credentials of this CLI are tokens, so such an address is a mistake.
  if (/^https?:\/\/[^/?#]*@/i.test(full)) {
    throw new UsageError(`${source}: must not contain a user name or password (got ${JSON.stringify(redactText(full))})`, 'Give the address alone, e.g. https://yourcompany.example.com; the token goes in CRMCTL_ACCESS_TOKEN or CRMCTL_API_TOKEN.');
  }
  return full;
}

function tokenError(status: number, body: Record<string, unknown>, grant: string, secrets: Array<string | undefined>): CliError {
  const code = typeof body.error === 'string' ? body.error : '';
  const desc =
    typeof body.error_description === 'string' ? body.error_description : typeof body.message === 'string' ? body.message : '';
  const said = redactText([code, desc].filter(Boolean).join(': ') || `HTTP ${status}`, secrets);
  if (status === 401 || /invalid_client/i.test(code) || /invalid client/i.test(desc)) {
    return new AuthError(`The OAuth server rejected the client credentials (${said}).`, 'Check the client id and secret of the app (`crmctl auth login --client-id ID` with the secret from a prompt, stdin or CRMCTL_CLIENT_SECRET).');
  }
  if (grant === 'refresh_token') {
    return new AuthError(`The refresh token was refused (${said}).`);
  }
  if (status >= 500) return new CliError(`The OAuth server failed (${status}: ${said}).`, EXIT.ERROR, 'Try again later.');
  return new AuthError(`The OAuth server refused the authorization code (${said}).`, 'Start the login again: `crmctl auth login`.');
}

/** Best effort: revoke a token at {authUrl}/oauth/revoke. Returns false when it failed. */
export async function revokeToken(c: ClientCredentials, token: string, hint: 'access_token' | 'refresh_token'): Promise<boolean> {
  try {
    const res = await rawRequest(joinUrl(c.authUrl, '/oauth/revoke'), {
      method: 'POST',
      headers: { authorization: basic(c), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token, token_type_hint: hint }).toString(),
      timeoutMs: 10_000,
    });
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

/** Optional: who is logged in (the users table's `me`, against the token's API domain). Undefined when it fails. */
export async function fetchUser(apiDomain: string, accessToken: string): Promise<{ id: number; name: string; email: string } | undefined> {
  try {
    // The users table is imported here, not at the top: every API command loads this module for token refresh.
    const { userOps } = await import('../api/operations/users.js');
    const res = await rawRequest(joinUrl(apiDomain, userOps.me.path), {
      method: 'GET',
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      timeoutMs: 10_000,
    });
    if (res.status !== 200) return undefined;
    const data = (JSON.parse(res.text) as { data?: Record<string, unknown> }).data;
    if (!data || typeof data.id !== 'number') return undefined;
    return { id: data.id, name: String(data.name ?? ''), email: String(data.email ?? '') };
  } catch {
    return undefined;
  }
}
