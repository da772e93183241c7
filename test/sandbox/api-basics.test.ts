// Envelopes, auth, scopes, unknown routes, cost budget and rate-limit headers.
import { describe, expect, test } from 'vitest';
import { advanceClock, boot } from './helpers.js';
import { OTHER_CLIENT } from '../../src/sandbox/index.js';

describe('envelopes and routing', () => {
  test('v1 list: success envelope with offset pagination', async () => {
    const { call } = await boot();
    const r = await call('GET', '/api/v1/leads?limit=2');
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.additional_data.pagination).toEqual({ start: 0, limit: 2, more_items_in_collection: true, next_start: 2 });
    const last = await call('GET', '/api/v1/leads?start=2&limit=100');
    expect(last.body.additional_data.pagination.more_items_in_collection).toBe(false);
    expect(last.body.additional_data.pagination.next_start).toBeUndefined();
    const ids = [...r.body.data, ...last.body.data].map((l: any) => l.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('/v1 and /api/v1 are the same operation; v2 only under /api/v2', async () => {
    const { call } = await boot();
    const a = await call('GET', '/api/v1/leadLabels');
    const b = await call('GET', '/v1/leadLabels');
    expect(b.status).toBe(200);
    expect(b.body.data).toEqual(a.body.data);
    expect((await call('GET', '/v2/leads/search?term=acme')).status).toBe(404);
    expect((await call('GET', '/api/v2/leads/search?term=acme')).status).toBe(200);
  });

  test('unknown route and unknown method answer the service-shaped 404', async () => {
    const { call } = await boot();
    for (const [m, p] of [['GET', '/api/v1/nothing'], ['PUT', '/api/v1/leadLabels'], ['GET', '/api/v2/leads']]) {
      const r = await call(m!, p!);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ success: false, error: `Unknown method ${m} ${p}.`, error_info: 'Please check developers.pipedrive.com', data: null, additional_data: null });
    }
  });

  test('malformed JSON body is a 400 in the error shape', async () => {
    const { sb, admin } = await boot();
    const r = await fetch(`${sb.url}/api/v1/leadLabels`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: '{nope' });
    expect(r.status).toBe(400);
    const b = await r.json() as any;
    expect(b).toMatchObject({ success: false, data: null, additional_data: null });
    expect(typeof b.error).toBe('string');
  });
});

describe('authentication', () => {
  const body401 = { success: false, error: 'unauthorized access', errorCode: 401, error_info: 'Please check developers.pipedrive.com' };

  test('missing, malformed and unknown credentials are 401 with the exact body', async () => {
    const { call } = await boot();
    for (const headers of [{}, { authorization: 'Token abc' }, { authorization: 'Bearer nope' }, { 'x-api-token': 'nope' }] as Array<Record<string, string>>) {
      const r = await call('GET', '/api/v1/leads', { token: null, headers });
      expect(r.status).toBe(401);
      expect(r.body).toEqual(body401);
      expect(r.headers.get('x-request-id')).toBeTruthy();
    }
  });

  test('expired, revoked and foreign-client tokens are rejected', async () => {
    const { sb, call } = await boot();
    const short = sb.issueToken({ lifetimeSec: 1 }).access_token;
    expect((await call('GET', '/api/v1/leadLabels', { token: short })).status).toBe(200);
    await advanceClock(sb.url, 1.1);
    expect((await call('GET', '/api/v1/leadLabels', { token: short })).status).toBe(401);

    const revoked = sb.issueToken().access_token;
    sb.state.oauthTokens.update(revoked, { revoked: true });
    expect((await call('GET', '/api/v1/leadLabels', { token: revoked })).status).toBe(401);

    const foreign = sb.issueToken({ clientId: OTHER_CLIENT.clientId, scopes: ['leads:read'] }).access_token;
    expect((await call('GET', '/api/v1/leadLabels', { token: foreign })).status).toBe(401);
  });

  test('a user API token in x-api-token authenticates as that user with full access', async () => {
    const { call, control } = await boot();
    const info = (await control('GET', 'info')).body.data;
    const reggie = info.users.find((u: any) => u.id === 2);
    expect(reggie.api_token).toMatch(/^[0-9a-f]{40}$/);
    const r = await call('POST', '/api/v1/leads', { token: null, headers: { 'x-api-token': reggie.api_token }, body: { title: 'By token', person_id: 1 } });
    expect(r.status).toBe(201);
    expect(r.body.data.owner_id).toBe(2);
    expect(r.body.data.creator_id).toBe(2);
  });

  test('a token without the needed scope gets 403 naming the scopes', async () => {
    const { sb, call } = await boot();
    const ro = sb.issueToken({ scopes: ['base', 'leads:read'] }).access_token;
    expect((await call('GET', '/api/v1/leads', { token: ro })).status).toBe(200);
    const w = await call('POST', '/api/v1/leadLabels', { token: ro, body: { name: 'x', color: 'red' } });
    expect(w.status).toBe(403);
    expect(w.body).toMatchObject({ success: false, error: 'You do not have permissions to do this.', data: null, additional_data: null });
    expect(w.body.error_info).toContain('leads:full');
    const none = sb.issueToken({ scopes: ['deals:read'] }).access_token;
    const r = await call('GET', '/api/v1/leads', { token: none });
    expect(r.status).toBe(403);
    expect(r.body.error_info).toContain('leads:read');
  });
});

describe('cost budget', () => {
  test('every API response carries rate-limit headers charged by operation cost', async () => {
    const { call } = await boot({ budget: { limit: 1000, windowSec: 60 } });
    const a = await call('GET', '/api/v1/leads');          // cost 20
    expect(a.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(a.headers.get('x-ratelimit-remaining')).toBe('980');
    // The daily budget is a separate one (default 10,000,000; test/sandbox/budget-daily.test.ts).
    expect(a.headers.get('x-daily-ratelimit-token-limit')).toBe('10000000');
    expect(a.headers.get('x-daily-ratelimit-token-remaining')).toBe('9999980');
    expect(Number(a.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
    const b = await call('GET', '/api/v1/leads/archived'); // cost 40
    expect(b.headers.get('x-ratelimit-remaining')).toBe('940');
    const c = await call('GET', '/api/v2/leads/search?term=ac'); // cost 20
    expect(c.headers.get('x-ratelimit-remaining')).toBe('920');
  });

  test('over budget: 429 with Retry-After, not charged; budget comes back after the window', async () => {
    const { call, sb } = await boot({ budget: { limit: 46, windowSec: 1 } });
    const leadId = (await call('GET', '/api/v1/leads')).body.data[0].id; // 20
    await advanceClock(sb.url, 1.05);
    expect((await call('GET', '/api/v1/leads')).status).toBe(200); // 20
    expect((await call('GET', '/api/v1/leads')).status).toBe(200); // 40
    const over = await call('GET', '/api/v1/leads');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, error: 'Request over limit', data: null, additional_data: null });
    const ra = Number(over.headers.get('retry-after'));
    expect(Number.isInteger(ra) && ra >= 1).toBe(true);
    expect(over.headers.get('x-ratelimit-remaining')).toBe('6');
    // A delete (cost 6) still fits exactly: the 429 was not charged.
    const del = await call('DELETE', `/api/v1/leads/${leadId}`);
    expect(del.status).toBe(200);
    expect(del.headers.get('x-ratelimit-remaining')).toBe('0');
    await advanceClock(sb.url, 1.05);
    expect((await call('GET', '/api/v1/leads')).status).toBe(200);
  });
});
