// End to end: `crmctl webhooks listen` (in-process) receives what the sandbox delivers for
// leads created, changed and deleted through the CLI, in both payload versions, with basic
// auth, retries, the delivery status on the webhook and the authorizing user's visibility.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type RunResult } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { freePort, recorder, until, waitForListener } from './helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean; stdin?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { ...opts, env: { ...fx.env, ...(opts.env ?? {}) } });
type Hook = { id: number; last_http_status: number | null; last_delivery_time: string | null; [k: string]: unknown };
type Payload = Record<string, any>;

async function ok(args: string[], stdin?: string): Promise<any> {
  const r = await run([...args, '--json'], { stdin });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

/** Starts `webhooks listen` on a free port and waits until it answers. */
async function startListener(extra: string[], opts: { stdin?: string; tty?: boolean; env?: Record<string, string> } = {}): Promise<{ port: number; done: Promise<RunResult> }> {
  const port = await freePort();
  const done = run(['webhooks', 'listen', '--port', String(port), '--timeout', '20', ...extra], opts);
  await waitForListener(port);
  return { port, done };
}

const hook = (id: number) => until(async () => (await fx.collection<Hook>('webhooks')).find((h) => h.id === id));
/** Every delivery the sandbox scheduled has ended (GET /__sandbox/deliveries), so nothing else is on its way. */
const settled = () => until(async () => ((await (await fetch(`${fx.sandbox.url}/__sandbox/deliveries`)).json()) as { data: { outstanding: number } }).data.outstanding === 0);
const createLead = (title: string, extra: string[] = []) => ok(['leads', 'create', '--title', title, '--person-id', '1', ...extra]);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
});

describe('version 2.0 with basic auth', () => {
  it('delivers create, change and delete of a lead and records the delivery status', async () => {
    const { port, done } = await startListener(['--user', 'crm', '--password-stdin', '--max-events', '3'], { stdin: 'pw-123\n' });
    // The listener refuses wrong credentials with 401 (and does not count them).
    const wrong = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('crm:nope').toString('base64')}` }, body: '{}' });
    expect(wrong.status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' })).status).toBe(401);

    const wh = await ok(['webhooks', 'create', '--name', 'local', '--url', `http://127.0.0.1:${port}/`, '--action', '*', '--object', 'lead', '--auth-user', 'crm', '--auth-password-stdin'], 'pw-123');
    const lead = await createLead('Hook test');
    await ok(['leads', 'update', lead.id, '--title', 'Hook test, renamed']);
    await ok(['leads', 'delete', lead.id, '--yes']);

    const r = await done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('rejected a delivery with wrong or missing basic auth');
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Payload);
    expect(events.map((e) => e.meta.action).sort()).toEqual(['change', 'create', 'delete']);
    const by = (a: string) => events.find((e) => e.meta.action === a)!;
    for (const e of events) {
      expect(e.meta).toMatchObject({ entity: 'lead', entity_id: lead.id, version: '2.0', webhook_id: String(wh.id), webhook_owner_id: '1', user_id: '1', company_id: '1', attempt: 1, is_bulk_edit: false, type: 'general' });
      expect(e.meta.permitted_user_ids.every((u: unknown) => typeof u === 'string')).toBe(true);
      expect(Date.parse(e.meta.timestamp)).not.toBeNaN();
    }
    expect(by('create').data).toMatchObject({ id: lead.id, title: 'Hook test', person_id: 1 });
    expect(by('create').previous).toBeNull();
    expect(by('change').data).toMatchObject({ id: lead.id, title: 'Hook test, renamed' });
    // previous holds only the fields that changed, with their old values.
    expect(by('change').previous.title).toBe('Hook test');
    expect(Object.keys(by('change').previous).sort()).toEqual(['title', 'update_time']);
    expect(by('delete').data).toBeNull();
    expect(by('delete').previous).toMatchObject({ id: lead.id, title: 'Hook test, renamed', cc_email: lead.cc_email });

    const stored = await until(async () => { const h = await hook(wh.id); return h.last_http_status === 200 ? h : undefined; });
    expect(Date.parse(stored.last_delivery_time!)).not.toBeNaN();
    // Deliveries are not API requests: only the CLI's calls are in the request log.
    expect((await fx.requests()).every((q) => q.path.startsWith('/api/'))).toBe(true);
  });

  it('a wrong password on the webhook gets 401 from the listener, recorded on the webhook, nothing printed', async () => {
    const { port, done } = await startListener(['--user', 'crm', '--timeout', '2'], { env: { CRMCTL_WEBHOOK_PASSWORD: 'right' } });
    const wh = await ok(['webhooks', 'create', '--name', 'bad auth', '--url', `http://127.0.0.1:${port}/`, '--action', 'create', '--object', 'lead', '--auth-user', 'crm', '--auth-password', 'wrong']);
    await createLead('Nobody hears this');
    const stored = await until(async () => { const h = await hook(wh.id); return h.last_http_status === 401 ? h : undefined; });
    expect(stored.last_delivery_time).not.toBeNull();
    const r = await done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('rejected a delivery');
  });
});

describe('version 1.0', () => {
  it('delivers added/updated events with current, full previous, event name and retry', async () => {
    const { done } = await startListener(['--max-events', '2']).then(async (l) => {
      const wh = await ok(['webhooks', 'create', '--name', 'v1', '--url', `http://127.0.0.1:${l.port}/v1`, '--action', '*', '--object', 'lead', '--payload-version', '1.0']);
      expect(wh.version).toBe('1.0');
      return l;
    });
    const lead = await createLead('Version one');
    await ok(['leads', 'update', lead.id, '--was-seen', 'true']);
    const r = await done;
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Payload);
    const added = events.find((e) => e.event === 'added.lead')!;
    const updated = events.find((e) => e.event === 'updated.lead')!;
    expect(added).toMatchObject({ v: 1, retry: 0, previous: null, current: { id: lead.id, title: 'Version one' }, matches_filters: { current: [], previous: [] } });
    expect(added.meta).toMatchObject({ v: 1, action: 'added', object: 'lead', id: lead.id, company_id: 1, user_id: 1, is_bulk_update: false, trans_pending: false });
    expect(typeof added.meta.webhook_id).toBe('number');
    expect(typeof added.meta.timestamp).toBe('number');
    expect(added.meta.timestamp_micro).toBe(added.meta.timestamp * 1_000_000 + (added.meta.timestamp_micro % 1_000_000));
    expect(added.meta.permitted_user_ids.every((u: unknown) => typeof u === 'number')).toBe(true);
    expect(updated.meta.action).toBe('updated');
    expect(updated.current.was_seen).toBe(true);
    // v1 previous is the whole record before the change.
    expect(updated.previous).toMatchObject({ id: lead.id, was_seen: false, title: 'Version one' });
    expect(Object.keys(updated.previous).sort()).toEqual(Object.keys(updated.current).sort());
  });
});

describe('who receives what', () => {
  it("a regular user's webhook skips objects that user cannot see; an admin's gets everything", async () => {
    const regular = await recorder();
    const admin = await recorder();
    try {
      const reggie = await ok(['webhooks', 'create', '--name', 'reggie', '--url', regular.url, '--action', 'create', '--object', 'lead', '--user-id', '2']);
      await ok(['webhooks', 'create', '--name', 'ada', '--url', admin.url, '--action', 'create', '--object', 'lead']);
      const hidden = await createLead('Owner-only lead of Ada', ['--visible-to', '1']);
      const shared = await createLead('Company-wide lead', ['--visible-to', '3']);
      const reggies = await createLead('Owner-only lead of Reggie', ['--visible-to', '1', '--owner-id', '2']);
      await until(async () => admin.got.length === 3 && regular.got.length === 2);
      await settled(); // nothing else is on its way
      const ids = (r: typeof admin) => r.got.map((g) => (g.body as Payload).meta.entity_id).sort();
      expect(ids(admin)).toEqual([hidden.id, shared.id, reggies.id].sort());
      expect(ids(regular)).toEqual([shared.id, reggies.id].sort());
      expect(regular.got.every((g) => g.headers.authorization === undefined)).toBe(true);
      const own = regular.got.map((g) => g.body as Payload).find((b) => b.meta.entity_id === reggies.id)!;
      expect(own.meta.permitted_user_ids).toEqual(['1', '2']);
      expect((await hook(reggie.id)).last_http_status).toBe(200);
    } finally {
      await regular.close();
      await admin.close();
    }
  });

  it('matches action and object exactly unless a wildcard is used', async () => {
    const deletes = await recorder();
    try {
      await ok(['webhooks', 'create', '--name', 'deletes', '--url', deletes.url, '--action', 'delete', '--object', '*']);
      const lead = await createLead('Short-lived');
      await ok(['leads', 'update', lead.id, '--title', 'Still short-lived']);
      await settled();
      expect(deletes.got).toEqual([]);
      await ok(['leads', 'delete', lead.id, '--yes']);
      await until(async () => deletes.got.length === 1);
      expect((deletes.got[0]!.body as Payload).meta).toMatchObject({ action: 'delete', entity: 'lead', entity_id: lead.id });
    } finally {
      await deletes.close();
    }
  });
});

describe('retries', () => {
  it('retries a failed delivery (attempt 2, 3) with the same event id and ends with the last status', async () => {
    const flaky = await recorder([500, 503]);
    try {
      const wh = await ok(['webhooks', 'create', '--name', 'flaky', '--url', flaky.url, '--action', 'create', '--object', 'lead']);
      const lead = await createLead('Retry me');
      await until(async () => flaky.got.length === 3, 6000);
      const metas = flaky.got.map((g) => (g.body as Payload).meta);
      expect(metas.map((m) => m.attempt)).toEqual([1, 2, 3]);
      expect(new Set(metas.map((m) => m.id)).size).toBe(1);
      expect(metas.every((m) => m.entity_id === lead.id)).toBe(true);
      const stored = await until(async () => { const h = await hook(wh.id); return h.last_http_status === 200 ? h : undefined; });
      expect(stored.last_http_status).toBe(200);
    } finally {
      await flaky.close();
    }
  });
});

describe('listen output and options', () => {
  it('prints a one-line summary per event on a terminal', async () => {
    const { port, done } = await startListener(['--max-events', '1'], { tty: true });
    const wh = await ok(['webhooks', 'create', '--name', 'tty', '--url', `http://127.0.0.1:${port}/`, '--action', 'create', '--object', 'lead']);
    const lead = await createLead('Pretty');
    const r = await done;
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z  create  lead          ${lead.id}  webhook ${wh.id} v2\\.0$`));
  });

  it('forwards each payload to --forward and accepts the password from CRMCTL_WEBHOOK_PASSWORD', async () => {
    const app = await recorder();
    try {
      const { port, done } = await startListener(['--max-events', '1', '--user', 'u', '--forward', app.url], { env: { CRMCTL_WEBHOOK_PASSWORD: 'p' } });
      const sent = { meta: { action: 'change', entity: 'deal', entity_id: '7', version: '2.0' }, data: { id: 7 }, previous: { value: 1 } };
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from('u:p').toString('base64')}`, 'content-type': 'application/json' }, body: JSON.stringify(sent) });
      expect(res.status).toBe(200);
      const r = await done;
      expect(JSON.parse(r.stdout)).toEqual(sent);
      await until(async () => app.got.length === 1);
      expect(app.got[0]!.body).toEqual(sent);
    } finally {
      await app.close();
    }
  });

  it.each([
    [['--user', 'u'], '--password-stdin: a password is needed with --user'],
    [['--password-stdin'], '--user: is required with --password-stdin'],
    [['--forward', 'ftp://x'], '--forward: must be a full http(s) URL'],
    [['--port', '70000'], '--port: must be an integer from 0 to 65535'],
    [['--port', 'abc'], '--port: must be an integer'],
    [['--max-events', '0'], '--max-events: must be a positive integer'],
  ])('refuses %j (exit 2)', async (args, message) => {
    const r = await run(['webhooks', 'listen', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('stops at --timeout with an error when --max-events was not reached', async () => {
    const r = await run(['webhooks', 'listen', '--port', '0', '--max-events', '1', '--timeout', '1']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('timed out after 1s with 0 of 1 events');
  });
});

describe('targets off the machine', () => {
  it('a webhook on a public address is created (as the service would) but never delivered to: the delivery fails at once', async () => {
    const stats = async () => ((await (await fetch(`${fx.sandbox.url}/__sandbox/deliveries`)).json()) as { data: { failed: number; delivered: number } }).data;
    // 192.0.2.1 (TEST-NET-1) is public to the create's check and routes nowhere: were it delivered to, the
    // delivery would wait out its 10 s timeout and retries instead of failing at once.
    const wh = await ok(['webhooks', 'create', '--name', 'remote', '--url', 'http://192.0.2.1/hook', '--action', 'create', '--object', 'lead']);
    const before = await stats();
    await createLead('Stays here');
    await settled();
    const after = await stats();
    expect(after.failed - before.failed).toBe(1);
    expect(after.delivered).toBe(before.delivered);
    const h = await hook(wh.id);
    expect(h.last_http_status).toBeNull();
    expect(h.last_delivery_time).not.toBeNull();
  });
});
