// Issues 29.11 and 28.10: the service refuses its own endpoints and URLs that are not public. The sandbox
// allows loopback receivers (for `crmctl webhooks listen`) but refuses unspecified addresses, every
// IPv4-mapped or -compatible spelling of a refused address, and its own port in every spelling: a
// webhook to `http://[::ffff:127.0.0.1]:P/__sandbox/reset` reset the sandbox on the first event.
import { describe, expect, test } from 'vitest';
import { webhooks } from '../../src/sandbox/handlers/webhooks/store.js';
import { boot, until } from './helpers.js';

const REFUSED = { status: 'error', success: false, errors: { subscription_url: ['invalid or non-reachable URL'] } };
const hook = (subscription_url: string) => ({ name: 'x', subscription_url, event_action: '*', event_object: '*' });

describe('webhook URLs the sandbox refuses and accepts', () => {
  test('its own port in every spelling, unspecified addresses, and mapped or compatible forms of refused addresses: 400, nothing created', async () => {
    const { sb, call } = await boot();
    const P = new URL(sb.url).port;
    const before = (await call('GET', '/api/v1/webhooks')).body.data;
    for (const url of [
      `http://127.0.0.1:${P}/__sandbox/reset`, `http://localhost:${P}/x`, `http://[::1]:${P}/x`, `http://127.0.0.2:${P}/x`, `http://127.1:${P}/x`,
      `http://2130706433:${P}/x`, `http://0x7f000001:${P}/x`, `http://[::ffff:127.0.0.1]:${P}/__sandbox/reset`, `http://[::ffff:7f00:1]:${P}/x`,
      `http://[0:0:0:0:0:ffff:127.0.0.1]:${P}/x`,
      'http://0.0.0.0:9/x', `http://0.0.0.0:${P}/x`, 'http://0:9/x', 'http://0.1.2.3:9/x', 'http://[::]:9/x', 'http://[::ffff:0.0.0.0]:9/x',
      'http://[::ffff:10.0.0.1]/x', 'http://[::ffff:192.168.1.1]/x', 'http://[::ffff:169.254.169.254]/latest', 'http://[::127.0.0.1]:9/x',
      'http://[64:ff9b::10.0.0.1]/x', 'http://224.0.0.1/x', 'http://255.255.255.255/x', 'http://[ff02::1]/x',
    ]) {
      const r = await call('POST', '/api/v1/webhooks', { body: hook(url) });
      expect([url, r.status, r.body]).toEqual([url, 400, REFUSED]);
    }
    expect((await call('GET', '/api/v1/webhooks')).body.data).toEqual(before);
  });

  test('loopback receivers on another port stay allowed, in each spelling tests use', async () => {
    const { call } = await boot();
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x', 'http://[::ffff:127.0.0.1]:9/x', 'https://198.51.100.7/hook', 'https://[64:ff9b::198.51.100.7]/hook']) {
      const r = await call('POST', '/api/v1/webhooks', { body: hook(url) });
      expect([url, r.status]).toEqual([url, 201]);
    }
  });

  test('a webhook that points at the sandbox anyway (a name resolving there later) is not delivered: no reset, counted failed', async () => {
    const { sb, call, control } = await boot({ seed: 'demo' });
    const P = new URL(sb.url).port;
    const t = new Date().toISOString();
    // Stored as if a name had resolved elsewhere when it was created.
    webhooks(sb.state).insert({
      company_id: 1, owner_id: 1, user_id: 1, event_action: '*', event_object: '*', subscription_url: `http://[::ffff:127.0.0.1]:${P}/__sandbox/reset`,
      version: '2.0', is_active: 1, add_time: t, remove_time: null, type: 'general', http_auth_user: null, http_auth_password: null, remove_reason: null,
      last_delivery_time: null, last_http_status: null, admin_id: 1, name: 'self',
    } as never);
    const deal = (await call('POST', '/api/v2/deals', { body: { title: 'Survives' } })).body.data;
    await until(async () => { const s = (await control('GET', 'deliveries')).body.data; return s.outstanding === 0 && s.failed >= 1 ? s : undefined; }, 10_000);
    // A reset would have reseeded the demo account: the deal made after it would be gone.
    expect((await call('GET', `/api/v2/deals/${deal.id}`)).status).toBe(200);
    expect(webhooks(sb.state).all().find((w) => w.name === 'self')).toMatchObject({ last_http_status: null });
  });
});
