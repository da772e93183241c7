// Control endpoints, the request log, and persistence round trips.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { boot, until } from './helpers.js';

describe('control endpoints', () => {
  test('reset with seed empty/demo; issued tokens survive a reset', async () => {
    const { call, control } = await boot();
    await call('POST', '/api/v1/leads', { body: { title: 'temp', person_id: 1 } });
    expect((await control('POST', 'reset', { seed: 'empty' })).status).toBe(200);
    expect((await call('GET', '/api/v1/leads')).body.data).toEqual([]); // admin token still valid
    expect((await control('GET', 'state/persons')).body.data).toEqual([]);
    await control('POST', 'seed', { name: 'demo' });
    expect((await call('GET', '/api/v1/leads')).body.data.length).toBe(4);
    expect((await control('POST', 'reset')).status).toBe(200);
    expect((await control('POST', 'reset', { seed: 'nope' })).status).toBe(400);
  });

  test('request log: API only, secrets redacted, clearable', async () => {
    const { call, control } = await boot();
    await control('GET', 'info');
    await call('POST', '/api/v1/leadLabels', { body: { name: 'Logged', color: 'green' } });
    await call('GET', '/api/v1/leads?owner_id=1');
    await call('GET', '/api/v1/leads', { token: null, headers: { 'x-api-token': 'secret-value' } });
    const log = (await control('GET', 'requests')).body.data;
    expect(log.map((e: any) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /api/v1/leadLabels 200', 'GET /api/v1/leads 200', 'GET /api/v1/leads 401']);
    expect(log[0]).toMatchObject({ seq: expect.any(Number), body: { name: 'Logged', color: 'green' }, user_id: 1, cost: 10, auth: 'bearer' });
    expect(log[1]).toMatchObject({ query: { owner_id: '1' }, cost: 20 });
    expect(log[2]).toMatchObject({ user_id: null, cost: 0, auth: 'api_token' });
    expect(JSON.stringify(log)).not.toContain('secret-value');
    expect((await control('GET', `requests?since=${log[1].seq}`)).body.data).toHaveLength(1);
    await control('DELETE', 'requests');
    expect((await control('GET', 'requests')).body.data).toEqual([]);
  });

  test('tokens endpoint issues usable, scoped tokens', async () => {
    const { call, control } = await boot();
    const t = (await control('POST', 'tokens', { user_id: 3, scopes: ['leads:read'], lifetime_sec: 60 })).body.data;
    expect(t).toMatchObject({ token_type: 'Bearer', expires_in: 60, scope: 'leads:read' });
    expect((await call('GET', '/api/v1/leads', { token: t.access_token })).status).toBe(200);
    expect((await call('POST', '/api/v1/leadLabels', { token: t.access_token, body: { name: 'n', color: 'red' } })).status).toBe(403);
    expect((await control('POST', 'tokens', { user_id: 42 })).status).toBe(400);
  });

  test('info has users and API tokens but never the client secret', async () => {
    const { sb, control } = await boot();
    const info = (await control('GET', 'info')).body.data;
    expect(info.url).toBe(sb.url);
    expect(info.client_id).toBe(sb.clientId);
    expect(info.users.map((u: any) => u.name)).toEqual(['Ada Admin', 'Reggie Regular', 'Sam Seller']);
    expect(info.users[0].is_admin).toBe(true);
    expect(JSON.stringify(info)).not.toContain(sb.clientSecret);
  });

  test('config and faults can be read and changed; bad values are 400', async () => {
    const { call, control } = await boot();
    await control('PUT', 'config', { budget: { limit: 25, windowSec: 30 }, conversionDelayMs: 5 });
    expect((await control('GET', 'config')).body.data).toMatchObject({ budget: { limit: 25, windowSec: 30 }, conversionDelayMs: 5 });
    expect((await call('GET', '/api/v1/leads')).status).toBe(200);
    expect((await call('GET', '/api/v1/leads')).status).toBe(429);
    expect((await control('PUT', 'config', { budget: { limit: -1 } })).status).toBe(400);
    await control('PUT', 'faults', { rate5xx: 1, seed: 7 });
    expect((await control('GET', 'faults')).body.data).toEqual({ rate5xx: 1, seed: 7 });
    expect((await control('PUT', 'faults', { rate5xx: 2 })).status).toBe(400);
    expect((await control('GET', 'nothing')).status).toBe(404);
    expect((await control('GET', 'state/nothing')).status).toBe(404);
  });
});

describe('persistence', () => {
  test('state round-trips through the data file, including deletions and pending conversions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbx-'));
    const file = join(dir, 'state.json');
    const first = await boot({ dataFile: file, conversionDelayMs: 300 });
    const created = (await first.call('POST', '/api/v1/leads', { body: { title: 'Persisted', person_id: 2 } })).body.data;
    const gone = (await first.call('GET', '/api/v1/leads')).body.data[0];
    await first.call('DELETE', `/api/v1/leads/${gone.id}`);
    const conv = (await first.call('POST', `/api/v2/leads/${created.id}/convert/deal`, {})).body.data.conversion_id;
    const token = first.admin;
    const onDisk = JSON.parse(readFileSync(file, 'utf8'));
    expect(onDisk.format).toBe('crmctl-sandbox-state');
    expect(onDisk.collections.leads.records.some((r: any) => r.id === created.id)).toBe(true);
    await first.sb.close();

    const second = await boot({ dataFile: file, conversionDelayMs: 300 });
    // The old token is still valid after restart; the deleted lead stays deleted.
    expect((await second.call('GET', `/api/v1/leads/${gone.id}`, { token })).status).toBe(404);
    // The conversion started before the restart completes after it.
    const s = await until(async () => {
      const x = (await second.call('GET', `/api/v2/leads/${created.id}/convert/status/${conv}`, { token })).body.data;
      return x.status === 'completed' && x;
    });
    expect(s.deal_id).toEqual(expect.any(Number));
    // Ids keep counting after reload.
    const lbl = (await second.call('POST', '/api/v1/leadLabels', { token, body: { name: 'After', color: 'gray' } })).body.data;
    expect(lbl.name).toBe('After');
  });
});
