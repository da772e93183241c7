// The sandbox against the service interface (issue 18, points 18-21 and the webhook delivery queue):
// raw requests, the answer the interface requires.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_QUEUED_PER_WEBHOOK } from '../../src/sandbox/handlers/webhooks/delivery.js';
import { boot, until } from './helpers.js';

/** A local HTTP receiver; its sockets are destroyed at the end so a never-answering one cannot hold the run. */
const receivers: Array<{ server: Server; sockets: Set<Socket> }> = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) {
    for (const s of r.sockets) s.destroy();
    await new Promise((res) => r.server.close(() => res(undefined)));
  }
});
async function receiver(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => { hits++; req.resume(); handle(req, res); });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  receivers.push({ server, sockets });
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/hook`, hits: () => hits };
}

describe('default visibility: the authorized user\'s role setting for the item type', () => {
  test('every item type with a default-visibility setting takes the creator\'s role value when visible_to is not sent', async () => {
    const { sb, call } = await boot();
    // Reggie (user 2) has role 2; give that role a distinct default for every item type.
    const settings: Record<string, number> = { lead: 5, deal: 7, person: 1, org: 5, product: 7 };
    for (const [item, value] of Object.entries(settings)) {
      const r = await call('POST', '/api/v1/roles/2/settings', { body: { setting_key: `${item}_default_visibility`, value } });
      expect(r.status, item).toBe(200);
    }
    const company = (await call('GET', '/__sandbox/state/company', { token: null })).body.data ?? (await call('GET', '/__sandbox/state/company', { token: null })).body;
    expect(company.default_visibility).toEqual({ deal: 3, lead: 3, org: 3, person: 3, product: 3 });
    const reggie = sb.issueToken({ userId: 2 }).access_token;
    const made = {
      lead: await call('POST', '/api/v1/leads', { token: reggie, body: { title: 'Vis', person_id: 1 } }),
      deal: await call('POST', '/api/v2/deals', { token: reggie, body: { title: 'Vis' } }),
      person: await call('POST', '/api/v2/persons', { token: reggie, body: { name: 'Vis' } }),
      org: await call('POST', '/api/v2/organizations', { token: reggie, body: { name: 'Vis' } }),
      product: await call('POST', '/api/v2/products', { token: reggie, body: { name: 'Vis' } }),
    };
    for (const [item, r] of Object.entries(made)) {
      expect(r.status, `${item} ${JSON.stringify(r.body)}`).toBeLessThan(300);
      expect(String(r.body.data.visible_to), item).toBe(String(settings[item]));
    }
    // The admin's role (1) set nothing: the company default.
    expect((await call('POST', '/api/v1/leads', { body: { title: 'Vis', person_id: 1 } })).body.data.visible_to).toBe('3');
    // A visible_to that is sent wins.
    expect((await call('POST', '/api/v1/leads', { token: reggie, body: { title: 'Vis', person_id: 1, visible_to: '7' } })).body.data.visible_to).toBe('7');
  });
});

describe('notes: pinned flags are the numbers 0/1', () => {
  test('list, get, create and update answer 0/1', async () => {
    const { call } = await boot();
    const FLAGS = ['pinned_to_lead_flag', 'pinned_to_deal_flag', 'pinned_to_organization_flag', 'pinned_to_person_flag', 'pinned_to_project_flag', 'pinned_to_task_flag'];
    const list = (await call('GET', '/api/v1/notes?limit=500')).body.data as Array<Record<string, unknown>>;
    expect(list.length).toBeGreaterThan(0);
    for (const n of list) for (const f of FLAGS) expect([0, 1], `${n.id} ${f}`).toContain(n[f]);
    expect(list.some((n) => n.pinned_to_organization_flag === 1)).toBe(true);
    const created = await call('POST', '/api/v1/notes', { body: { content: 'pinned', deal_id: 1, pinned_to_deal_flag: 1 } });
    expect(created.body.data).toMatchObject({ pinned_to_deal_flag: 1, pinned_to_person_flag: 0 });
    expect((await call('GET', `/api/v1/notes/${created.body.data.id}`)).body.data.pinned_to_deal_flag).toBe(1);
    expect((await call('PUT', `/api/v1/notes/${created.body.data.id}`, { body: { pinned_to_deal_flag: 0 } })).body.data.pinned_to_deal_flag).toBe(0);
  });
});

describe('webhook URLs: publicly reachable, loopback allowed for local use', () => {
  const hook = (subscription_url: string) => ({ name: 'x', subscription_url, event_action: 'create', event_object: 'deal' });
  const refused = { status: 'error', success: false, errors: { subscription_url: ['invalid or non-reachable URL'] } };

  test('private ranges and names that do not resolve are refused with the service\'s 400', async () => {
    const { call } = await boot();
    const before = (await call('GET', '/api/v1/webhooks')).body.data;
    for (const url of ['https://10.0.0.1/x', 'https://172.16.5.5/x', 'https://172.31.255.1/x', 'https://192.168.1.20/x', 'http://169.254.169.254/latest',
      'https://[fd00::1]/x', 'https://[fe80::1]/x', 'https://[::ffff:10.0.0.1]/x', 'https://no-such-host.invalid/hook']) {
      const r = await call('POST', '/api/v1/webhooks', { body: hook(url) });
      expect(r.status, url).toBe(400);
      expect(r.body, url).toEqual(refused);
    }
    expect((await call('GET', '/api/v1/webhooks')).body.data).toEqual(before);
  });

  test('loopback (address or localhost) and public addresses are accepted', async () => {
    const { call } = await boot();
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'https://198.51.100.7/hook', 'https://172.32.0.1/x']) {
      const r = await call('POST', '/api/v1/webhooks', { body: hook(url) });
      expect(r.status, `${url} ${JSON.stringify(r.body)}`).toBe(201);
    }
  });

  test('a delivery answered with a redirect counts as failed and is not followed', async () => {
    const { call, control } = await boot();
    const target = await receiver((_req, res) => { res.writeHead(200).end(); });
    const redirecting = await receiver((_req, res) => { res.writeHead(302, { location: target.url }).end(); });
    const created = await call('POST', '/api/v1/webhooks', { body: hook(redirecting.url) });
    expect(created.status).toBe(201);
    expect((await call('POST', '/api/v2/deals', { body: { title: 'Redirected' } })).status).toBe(200);
    const stats = await until(async () => { const s = (await control('GET', 'deliveries')).body.data; return s.outstanding === 0 && s.failed > 0 ? s : undefined; }, 15_000);
    expect(stats).toMatchObject({ delivered: 0, failed: 1 });
    expect(redirecting.hits()).toBe(4); // the first try and three retries
    expect(target.hits()).toBe(0);
    const wh = (await call('GET', '/api/v1/webhooks')).body.data.find((h: { id: number }) => h.id === created.body.data.id);
    expect(wh.last_http_status).toBe(302);
  }, 20_000);

  test('a target that never answers: the delivery queue stays bounded, the oldest waiting deliveries are dropped as failed', async () => {
    const { call, control } = await boot();
    const silent = await receiver(() => { /* never answers */ });
    expect((await call('POST', '/api/v1/webhooks', { body: { ...hook(silent.url), event_action: '*' } })).status).toBe(201);
    const events = MAX_QUEUED_PER_WEBHOOK + 30;
    let maxSeen = 0;
    for (let i = 0; i < events; i++) {
      expect((await call('POST', '/api/v2/deals', { body: { title: `Flood ${i}` } })).status).toBe(200);
      if (i % 10 === 0) maxSeen = Math.max(maxSeen, (await control('GET', 'deliveries')).body.data.max_queued);
    }
    const s = (await control('GET', 'deliveries')).body.data;
    maxSeen = Math.max(maxSeen, s.max_queued);
    expect(maxSeen).toBe(MAX_QUEUED_PER_WEBHOOK);
    expect(s.queued).toBeLessThanOrEqual(MAX_QUEUED_PER_WEBHOOK);
    // Every event is accounted for: waiting, on the wire, or dropped (counted failed).
    expect(s.dropped).toBeGreaterThan(0);
    expect(s.failed).toBe(s.dropped);
    expect(s.outstanding + s.dropped).toBe(events);
  }, 30_000);
});

describe('every success body has a data element (but note and comment deletes)', () => {
  test('DELETE /api/v1/goals/{id} and /api/v1/webhooks/{id} answer data {id}', async () => {
    const { call } = await boot();
    const goal = (await call('GET', '/api/v1/goals/find')).body.data.goals[0];
    expect(await call('DELETE', `/api/v1/goals/${goal.id}`)).toMatchObject({ status: 200, body: { success: true, data: { id: goal.id } } });
    const wh = (await call('GET', '/api/v1/webhooks')).body.data[0];
    const del = await call('DELETE', `/api/v1/webhooks/${wh.id}`);
    expect(del).toMatchObject({ status: 200, body: { status: 'ok', success: true, data: { id: wh.id } } });
  });
});
