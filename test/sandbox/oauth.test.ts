// OAuth: consent page, decision redirects, token exchange, refresh rotation, revoke.
import { describe, expect, test } from 'vitest';
import { advanceClock, boot } from './helpers.js';
import { OTHER_CLIENT } from '../../src/sandbox/index.js';

const CB = 'http://127.0.0.1:8250/callback';

async function post(url: string, form: Record<string, string>, basic?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${basic}`;
  const r = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(form).toString(), redirect: 'manual' });
  const text = await r.text();
  let body: any = text; try { body = JSON.parse(text); } catch { /* html */ }
  return { status: r.status, body, headers: r.headers };
}

async function setup(opts = {}) {
  const b = await boot(opts);
  const basic = Buffer.from(`${b.sb.clientId}:${b.sb.clientSecret}`).toString('base64');
  const authorizeUrl = (q: Record<string, string>) => `${b.sb.url}/oauth/authorize?${new URLSearchParams(q)}`;
  /** Consent + allow as a user; returns the code from the callback URL. */
  const getCode = async (userId = 1, state = 'st-1') => {
    const r = await post(`${b.sb.url}/oauth/authorize/decision`, { client_id: b.sb.clientId, redirect_uri: CB, state, decision: 'allow', user_id: String(userId) });
    expect(r.status).toBe(302);
    const loc = new URL(r.headers.get('location')!);
    expect(loc.searchParams.get('state')).toBe(state);
    return loc.searchParams.get('code')!;
  };
  const exchange = (code: string, extra: Record<string, string> = {}) =>
    post(`${b.sb.url}/oauth/token`, { grant_type: 'authorization_code', code, redirect_uri: CB, ...extra }, basic);
  return { ...b, basic, authorizeUrl, getCode, exchange };
}

describe('authorize', () => {
  test('consent page lists app, scopes, users and has #allow/#cancel', async () => {
    const { authorizeUrl, sb } = await setup();
    const r = await fetch(authorizeUrl({ client_id: sb.clientId, redirect_uri: CB, state: 'a<b' }));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    const page = await r.text();
    expect(page).toContain('id="allow"');
    expect(page).toContain('id="cancel"');
    expect(page).toContain('leads:full');
    expect(page).toContain('Reggie Regular');
    expect(page).toContain('action="/oauth/authorize/decision"');
    expect(page).toContain('value="a&lt;b"'); // state echoed, escaped
  });

  test('unknown client or unregistered redirect_uri: 400 HTML, no redirect', async () => {
    const { authorizeUrl, sb } = await setup();
    for (const q of [{ client_id: 'nope', redirect_uri: CB }, { client_id: sb.clientId, redirect_uri: 'http://127.0.0.1:9999/cb' }, { client_id: sb.clientId }] as Array<Record<string, string>>) {
      const r = await fetch(authorizeUrl(q), { redirect: 'manual' });
      expect(r.status).toBe(400);
      expect(r.headers.get('location')).toBeNull();
      expect(r.headers.get('content-type')).toContain('text/html');
    }
  });

  test('cancel redirects with error=access_denied and state', async () => {
    const { sb } = await setup();
    const r = await post(`${sb.url}/oauth/authorize/decision`, { client_id: sb.clientId, redirect_uri: CB, state: 'xyz', decision: 'cancel' });
    expect(r.status).toBe(302);
    const loc = new URL(r.headers.get('location')!);
    expect(`${loc.origin}${loc.pathname}`).toBe(CB);
    expect(Object.fromEntries(loc.searchParams)).toEqual({ error: 'access_denied', state: 'xyz' });
  });

  test('autoApprove redirects at once with a code for the admin', async () => {
    const { authorizeUrl, sb, exchange, call } = await setup({ autoApprove: true });
    const r = await fetch(authorizeUrl({ client_id: sb.clientId, redirect_uri: CB, state: 's9' }), { redirect: 'manual' });
    expect(r.status).toBe(302);
    const loc = new URL(r.headers.get('location')!);
    expect(loc.searchParams.get('state')).toBe('s9');
    const tok = (await exchange(loc.searchParams.get('code')!)).body;
    const lead = await call('POST', '/api/v1/leads', { token: tok.access_token, body: { title: 'x', person_id: 1 } });
    expect(lead.body.data.owner_id).toBe(1);
  });
});

describe('token endpoint', () => {
  test('code exchange: response shape, user of the consent, single use', async () => {
    const { getCode, exchange, sb, call } = await setup();
    const code = await getCode(2);
    const r = await exchange(code);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', refresh_token: expect.any(String),
      scope: expect.stringContaining('leads:full'), expires_in: 3600, api_domain: sb.url });
    expect(r.body.scope.split(',')).toContain('base');
    const me = await call('POST', '/api/v1/leads', { token: r.body.access_token, body: { title: 'mine', person_id: 1 } });
    expect(me.body.data.owner_id).toBe(2);
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, error: 'invalid_grant' });
    expect(again.body.error_description).toContain('authorization_code is invalid');
    // The replay revoked the tokens issued from that code.
    expect((await call('GET', '/api/v1/leads', { token: r.body.access_token })).status).toBe(401);
  });

  test('client auth, grant and parameter errors', async () => {
    const { getCode, exchange, sb, basic } = await setup();
    const url = `${sb.url}/oauth/token`;
    const code = await getCode();
    const noAuth = await post(url, { grant_type: 'authorization_code', code, redirect_uri: CB });
    expect(noAuth.status).toBe(401);
    expect(noAuth.body).toEqual({ success: false, error: 'invalid_client', error_description: 'Invalid client: cannot retrieve client credentials' });
    const wrong = await post(url, { code, redirect_uri: CB }, Buffer.from(`${sb.clientId}:bad`).toString('base64'));
    expect(wrong.body.error_description).toBe('Invalid client: client is invalid');
    expect((await post(url, { grant_type: 'password' }, basic)).body.error_description).toBe('Unsupported grant type: grant_type is invalid');
    const mism = await exchange(code, { redirect_uri: 'http://127.0.0.1:8250/other' });
    expect(mism.status).toBe(400);
    expect(mism.body.error_description).toMatch(/^Invalid request: redirect_uri is/);
    // The code is still good after a failed attempt with the wrong redirect_uri; grant_type defaults to authorization_code.
    const ok = await post(url, { code, redirect_uri: CB }, basic);
    expect(ok.status).toBe(200);
    const json = await fetch(url, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'refresh_token' }) });
    expect(json.status).toBe(400);
    // Another client cannot redeem this client's code.
    const code2 = await getCode();
    const other = await post(url, { code: code2, redirect_uri: CB }, Buffer.from(`${OTHER_CLIENT.clientId}:${OTHER_CLIENT.clientSecret}`).toString('base64'));
    expect(other.body.error_description).toContain('authorization_code is invalid');
  });

  test('expired code', async () => {
    const { getCode, exchange, sb } = await setup();
    const code = await getCode();
    sb.state.authCodes.update(code, { expires_at: Date.now() - 1 });
    expect((await exchange(code)).body.error_description).toBe('Invalid grant: authorization_code has expired');
  });

  test('refresh rotates; the old refresh token works during a grace period, then not', async () => {
    const { getCode, exchange, sb, basic, call } = await setup();
    const first = (await exchange(await getCode())).body;
    const refresh = (rt: string) => post(`${sb.url}/oauth/token/`, { grant_type: 'refresh_token', refresh_token: rt }, basic);
    const [a, b] = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.refresh_token).not.toBe(first.refresh_token);
    expect((await call('GET', '/api/v1/leads', { token: a.body.access_token })).status).toBe(200);
    // End the grace period.
    sb.state.oauthTokens.update(first.refresh_token, { grace_until: Date.now() - 1 });
    const late = await refresh(first.refresh_token);
    expect(late.status).toBe(400);
    expect(late.body.error_description).toBe('Invalid grant: refresh_token is invalid');
    expect((await refresh(a.body.refresh_token)).status).toBe(200);
    expect((await refresh('garbage')).status).toBe(400);
  });

  test('access token expiry follows tokenLifetimeSec; refresh gets a new working one', async () => {
    const { getCode, exchange, sb, basic, call } = await setup({ tokenLifetimeSec: 1 });
    const t = (await exchange(await getCode())).body;
    expect(t.expires_in).toBe(1);
    await advanceClock(sb.url, 1.1);
    expect((await call('GET', '/api/v1/leads', { token: t.access_token })).status).toBe(401);
    const r = await post(`${sb.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: t.refresh_token }, basic);
    expect((await call('GET', '/api/v1/leads', { token: r.body.access_token })).status).toBe(200);
  });

  test('revoke: access token alone, or the refresh token (uninstall) revoking all', async () => {
    const { getCode, exchange, sb, basic, call } = await setup();
    const a = (await exchange(await getCode())).body;
    expect((await post(`${sb.url}/oauth/revoke`, { token: a.access_token, token_type_hint: 'access_token' }, basic)).status).toBe(200);
    expect((await call('GET', '/api/v1/leads', { token: a.access_token })).status).toBe(401);
    const r = await post(`${sb.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: a.refresh_token }, basic);
    expect(r.status).toBe(200);
    await post(`${sb.url}/oauth/revoke`, { token: a.refresh_token, token_type_hint: 'refresh_token' }, basic);
    expect((await call('GET', '/api/v1/leads', { token: r.body.access_token })).status).toBe(401);
    expect((await post(`${sb.url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: r.body.refresh_token }, basic)).status).toBe(400);
    expect((await post(`${sb.url}/oauth/revoke`, { token: 'x' })).status).toBe(401);
  });

  test('OAuth requests are logged with secrets redacted', async () => {
    const { getCode, exchange, control } = await setup();
    const code = await getCode();
    await exchange(code);
    const log = (await control('GET', 'requests')).body.data;
    const tok = log.find((e: any) => e.path === '/oauth/token');
    expect(tok).toMatchObject({ method: 'POST', status: 200, auth: 'basic', cost: 0, body: { code: '[redacted]', grant_type: 'authorization_code' } });
    expect(JSON.stringify(log)).not.toContain(code);
  });
});
