// OAuth endpoints: GET /oauth/authorize (consent page), POST /oauth/authorize/decision,
// POST /oauth/token (and /oauth/token/), POST /oauth/revoke. Never subject to
// faults or the cost budget; logged in the request log with cost 0.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { parseForm, readBody } from '../http/body.js';
import type { SandboxHost } from '../host.js';
import type { OAuthClient } from '../types.js';
import { consentPage, errorPage } from './pages.js';
import { issueTokenPair, ROTATION_GRACE_MS } from './tokens.js';

const CODE_TTL_MS = 5 * 60 * 1000;

interface Reply { status: number; headers: Record<string, string>; body: string; userId?: number | null }

const html = (status: number, body: string): Reply => ({ status, headers: { 'content-type': 'text/html; charset=utf-8' }, body });
const json = (status: number, body: unknown, extra: Record<string, string> = {}): Reply =>
  ({ status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra }, body: JSON.stringify(body) });
const redirect = (location: string): Reply => ({ status: 302, headers: { location }, body: '' });
/** Token endpoint errors: RFC 6749 {error, error_description} plus the service's success:false. */
const oauthError = (status: number, error: string, description: string): Reply =>
  json(status, { success: false, error, error_description: description }, status === 401 ? { 'www-authenticate': 'Basic realm="oauth"' } : {});

function withParams(uri: string, params: Record<string, string | null>): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return u.toString();
}

export async function handleOAuth(s: SandboxHost, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const started = Date.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const raw = await readBody(req);
  const ct = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const form = ct === 'application/x-www-form-urlencoded' ? parseForm(raw.toString('utf8')) : null;
  let reply: Reply;
  const path = url.pathname;
  if (method === 'GET' && path === '/oauth/authorize') reply = authorize(s, url);
  else if (method === 'POST' && path === '/oauth/authorize/decision') reply = decision(s, form ?? {});
  else if (method === 'POST' && (path === '/oauth/token' || path === '/oauth/token/')) reply = token(s, req, form, raw.length > 0);
  else if (method === 'POST' && path === '/oauth/revoke') reply = revoke(s, req, form ?? {});
  else reply = json(404, { success: false, error: `Unknown method ${method} ${path}.`, error_info: 'Please check developers.pipedrive.com', data: null, additional_data: null });

  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) });
  res.end(reply.body);
  s.requests.add({
    time: new Date(started).toISOString(), request_id: randomBytes(8).toString('hex'), method, path,
    query: Object.fromEntries(url.searchParams), body: form ?? (raw.length ? '[non-form body]' : undefined),
    status: reply.status, user_id: reply.userId ?? null, cost: 0,
    auth: typeof req.headers.authorization === 'string' && /^basic /i.test(req.headers.authorization) ? 'basic' : 'none',
    duration_ms: Date.now() - started,
  });
}

function str(v: string | string[] | undefined): string | null {
  if (Array.isArray(v)) return v[v.length - 1] ?? null;
  return v === undefined || v === '' ? null : v;
}

/** The client and callback must both be registered; otherwise an HTML error, never a redirect. */
function checkClient(s: SandboxHost, clientId: string | null, redirectUri: string | null): OAuthClient | string {
  if (!clientId) return 'Missing parameter: client_id';
  if (!redirectUri) return 'Missing parameter: redirect_uri';
  const client = s.deps.clients.find((c) => c.clientId === clientId);
  if (!client) return `Unknown app: client_id ${clientId} is not registered.`;
  if (!client.redirectUris.includes(redirectUri)) return 'Invalid request: redirect_uri does not match the callback registered for this app.';
  return client;
}

function newCode(s: SandboxHost, client: OAuthClient, userId: number, redirectUri: string): string {
  const code = randomBytes(20).toString('hex');
  s.state.authCodes.insert({ id: code, client_id: client.clientId, user_id: userId, redirect_uri: redirectUri, scopes: client.scopes, expires_at: s.state.now() + CODE_TTL_MS, used: false });
  return code;
}

function authorize(s: SandboxHost, url: URL): Reply {
  const p = url.searchParams;
  const redirectUri = p.get('redirect_uri');
  const state = p.get('state');
  const client = checkClient(s, p.get('client_id'), redirectUri);
  if (typeof client === 'string') return html(400, errorPage(client));
  if (s.deps.autoApprove) {
    const admin = s.state.adminUserId();
    return { ...redirect(withParams(redirectUri!, { code: newCode(s, client, admin, redirectUri!), state })), userId: admin };
  }
  const users = s.state.users.filter((u) => u.active_flag);
  return html(200, consentPage({ client, users, redirectUri: redirectUri!, state, companyName: s.state.company.name }));
}

function decision(s: SandboxHost, f: Record<string, string | string[]>): Reply {
  const redirectUri = str(f.redirect_uri);
  const state = str(f.state);
  const client = checkClient(s, str(f.client_id), redirectUri);
  if (typeof client === 'string') return html(400, errorPage(client));
  if (str(f.decision) !== 'allow') return redirect(withParams(redirectUri!, { error: 'access_denied', state }));
  const userId = Number(str(f.user_id) ?? s.state.adminUserId());
  const user = s.state.users.get(userId);
  if (!user?.active_flag) return html(400, errorPage(`Unknown user ${userId}.`));
  return { ...redirect(withParams(redirectUri!, { code: newCode(s, client, userId, redirectUri!), state })), userId };
}

function clientFromBasic(s: SandboxHost, req: IncomingMessage): OAuthClient | Reply {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^basic\s+(\S+)$/i.exec(h) : null;
  if (!m) return oauthError(401, 'invalid_client', 'Invalid client: cannot retrieve client credentials');
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return oauthError(401, 'invalid_client', 'Invalid client: cannot retrieve client credentials');
  const id = decodeURIComponent(decoded.slice(0, i)), secret = decodeURIComponent(decoded.slice(i + 1));
  const client = s.deps.clients.find((c) => c.clientId === id && c.clientSecret === secret);
  return client ?? oauthError(401, 'invalid_client', 'Invalid client: client is invalid');
}

function tokenResponse(s: SandboxHost, client: OAuthClient, userId: number, scopes: string[]): Reply {
  const t = issueTokenPair(s.state, { clientId: client.clientId, userId, scopes, lifetimeSec: s.deps.config.tokenLifetimeSec });
  return { ...json(200, {
    access_token: t.access_token, token_type: 'Bearer', refresh_token: t.refresh_token, scope: t.scope,
    expires_in: t.expires_in, api_domain: s.baseUrl,
  }), userId };
}

function token(s: SandboxHost, req: IncomingMessage, form: Record<string, string | string[]> | null, hasBody: boolean): Reply {
  const client = clientFromBasic(s, req);
  if ('status' in client) return client;
  if (!form) {
    return oauthError(400, 'invalid_request', hasBody
      ? 'Invalid request: the body must be application/x-www-form-urlencoded'
      : 'Missing parameter: grant_type');
  }
  // The interface gives authorization_code as the default grant type.
  const grant = str(form.grant_type) ?? 'authorization_code';
  const now = s.state.now();
  if (grant === 'authorization_code') {
    const code = str(form.code);
    if (!code) return oauthError(400, 'invalid_request', 'Missing parameter: code');
    const c = s.state.authCodes.get(code);
    if (!c || c.client_id !== client.clientId) return oauthError(400, 'invalid_grant', 'Invalid grant: authorization_code is invalid');
    if (c.used) {
      // RFC 6749 §4.1.2: a replayed code revokes what was issued from it.
      for (const t of s.state.oauthTokens.filter((x) => x.from_code === code)) s.state.oauthTokens.update(t.id, { revoked: true });
      return oauthError(400, 'invalid_grant', 'Invalid grant: authorization_code is invalid or was already exchanged');
    }
    if (c.expires_at <= now) return oauthError(400, 'invalid_grant', 'Invalid grant: authorization_code has expired');
    if (str(form.redirect_uri) !== c.redirect_uri) return oauthError(400, 'invalid_request', 'Invalid request: redirect_uri is invalid or does not match the authorization request');
    s.state.authCodes.update(code, { used: true });
    const reply = tokenResponse(s, client, c.user_id, c.scopes);
    const issued = JSON.parse(reply.body) as { access_token: string; refresh_token: string };
    for (const id of [issued.access_token, issued.refresh_token]) s.state.oauthTokens.update(id, { from_code: code });
    return reply;
  }
  if (grant === 'refresh_token') {
    const rt = str(form.refresh_token);
    if (!rt) return oauthError(400, 'invalid_request', 'Missing parameter: refresh_token');
    const t = s.state.oauthTokens.get(rt);
    const valid = t && t.kind === 'refresh' && !t.revoked && t.client_id === client.clientId && t.expires_at > now &&
      (t.grace_until === null || t.grace_until === undefined || t.grace_until > now);
    if (!valid || !t) return oauthError(400, 'invalid_grant', 'Invalid grant: refresh_token is invalid');
    // Rotation: the old refresh token keeps working for a short grace period so racing refreshes both succeed.
    if (!t.grace_until) s.state.oauthTokens.update(rt, { grace_until: now + ROTATION_GRACE_MS });
    const user = s.state.users.get(t.user_id);
    if (!user?.active_flag) return oauthError(400, 'invalid_grant', 'Invalid grant: refresh_token is invalid');
    return tokenResponse(s, client, t.user_id, t.scopes);
  }
  return oauthError(400, 'unsupported_grant_type', 'Unsupported grant type: grant_type is invalid');
}

function revoke(s: SandboxHost, req: IncomingMessage, f: Record<string, string | string[]>): Reply {
  const client = clientFromBasic(s, req);
  if ('status' in client) return client;
  const tok = str(f.token);
  if (!tok) return oauthError(400, 'invalid_request', 'Missing parameter: token');
  const t = s.state.oauthTokens.get(tok);
  // RFC 7009: unknown tokens (or another client's) are answered 200 and left alone.
  if (t && t.client_id === client.clientId) {
    if (t.kind === 'refresh') {
      // Revoking the refresh token uninstalls the app for that user: every token of the pair chain goes.
      for (const x of s.state.oauthTokens.filter((y) => y.client_id === client.clientId && y.user_id === t.user_id)) {
        s.state.oauthTokens.update(x.id, { revoked: true });
      }
    } else {
      s.state.oauthTokens.update(t.id, { revoked: true });
    }
  }
  return { ...json(200, { success: true }), userId: t?.user_id ?? null };
}

