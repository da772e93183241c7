// The sandbox enforces the mailbox rules itself (requests sent directly, as the CLI would not send them).
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { seedUuid } from '../../src/sandbox/seed/base.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api } from '../notes/helpers.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.close());
beforeEach(() => fx.reset());

const threadOf = async (id: number) => (await fx.collection<{ id: number; read_flag: number; folders: string[]; archived_flag: number }>('mailThreads')).find((t) => t.id === id)!;

test('a JSON body on the thread update is refused (form-encoded only), nothing changes', async () => {
  const r = await api(fx, 'PUT', '/api/v1/mailbox/mailThreads/1', { json: { read_flag: 1 } });
  expect(r.status).toBe(415);
  expect(r.body).toMatchObject({ success: false, error: 'Unsupported Media Type', error_info: 'Send the body as application/x-www-form-urlencoded.' });
  expect((await threadOf(1)).read_flag).toBe(0);
  const ok = await api(fx, 'PUT', '/api/v1/mailbox/mailThreads/1', { form: { read_flag: '1' } });
  expect(ok.status).toBe(200);
  expect(ok.body.data.read_flag).toBe(1);
});

test.each([
  [{ archived_flag: '1' }, 4, 'archived_flag: only threads of the inbox folder can be archived (thread 4 is in sent)'],
  [{ archived_flag: '1' }, 5, 'archived_flag: only threads of the inbox folder can be archived (thread 5 is in drafts)'],
  [{ deal_id: '999' }, 1, 'deal_id: deal 999 does not exist'],
  [{ deal_id: 'abc' }, 1, 'deal_id: must be a positive integer'],
  [{ lead_id: 'nope' }, 1, 'lead_id: must be a UUID'],
  [{ lead_id: '00000000-0000-4000-8000-000000000000' }, 1, 'lead_id: lead 00000000-0000-4000-8000-000000000000 does not exist'],
  [{ read_flag: '2' }, 1, 'read_flag: must be 0 or 1'],
  [{ shared_flag: 'yes' }, 1, 'shared_flag: must be 0 or 1'],
  [{ subject: 'x' }, 1, 'subject: is not a known field of this operation'],
  [{}, 1, 'body: give at least one of deal_id, lead_id, shared_flag, read_flag, archived_flag'],
])('PUT form %j on thread %i → 400', async (form, id, message) => {
  const before = await threadOf(id);
  const r = await api(fx, 'PUT', `/api/v1/mailbox/mailThreads/${id}`, { form });
  expect(r.status).toBe(400);
  expect(r.body).toMatchObject({ success: false, error: message, data: null, additional_data: null });
  expect(await threadOf(id)).toEqual(before);
});

test('archive and un-archive move the thread between inbox and archive; archiving again is a no-op', async () => {
  let r = await api(fx, 'PUT', '/api/v1/mailbox/mailThreads/3', { form: { archived_flag: '1' } });
  expect(r.body.data).toMatchObject({ archived_flag: 1, folders: ['archive'], version: 2 });
  r = await api(fx, 'PUT', '/api/v1/mailbox/mailThreads/3', { form: { archived_flag: '1' } });
  expect(r.status).toBe(200);
  expect(r.body.data.version).toBe(2);
  r = await api(fx, 'PUT', '/api/v1/mailbox/mailThreads/3', { form: { archived_flag: '0' } });
  expect(r.body.data).toMatchObject({ archived_flag: 0, folders: ['inbox'] });
});

test('linking a deal records its status; a lead link is a UUID of a live lead', async () => {
  const r = await api(fx, 'PUT', '/api/v1/mailbox/mailThreads/1', { form: { deal_id: '6', lead_id: seedUuid('lead:1') } });
  expect(r.body.data).toMatchObject({ deal_id: 6, deal_status: 'lost', lead_id: seedUuid('lead:1') });
});

test('list: folder must be known, absent means inbox, offset pagination block', async () => {
  let r = await api(fx, 'GET', '/api/v1/mailbox/mailThreads?folder=spam');
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('folder: must be one of inbox, drafts, sent, archive');
  r = await api(fx, 'GET', '/api/v1/mailbox/mailThreads?limit=2');
  expect(r.body.data.map((t: { id: number }) => t.id)).toEqual([1, 2]);
  expect(r.body.additional_data).toEqual({ pagination: { start: 0, limit: 2, more_items_in_collection: true, next_start: 2 } });
});

test('a mailbox is personal: Reggie sees his thread, Ada does not', async () => {
  const reggie = fx.sandbox.issueToken({ userId: 2 }).access_token;
  const mine = await api(fx, 'GET', '/api/v1/mailbox/mailThreads?folder=inbox', { token: reggie });
  expect(mine.body.data.map((t: { subject: string }) => t.subject)).toEqual(['Analytics add-on pricing']);
  expect((await api(fx, 'GET', '/api/v1/mailbox/mailThreads/1', { token: reggie })).status).toBe(404);
  const r = await api(fx, 'DELETE', '/api/v1/mailbox/mailThreads/7');
  expect(r.status).toBe(404);
  expect(r.body).toEqual({ success: false, error: 'Mail thread not found', error_info: 'Object was not found.', data: null, additional_data: null });
});

test('message: include_body 0|1 decides the body; the mail service envelope', async () => {
  let r = await api(fx, 'GET', '/api/v1/mailbox/mailMessages/2');
  expect(r.body).toMatchObject({ success: true, statusCode: 2000, statusText: 'Success', service: 'email-api' });
  expect(r.body.data).not.toHaveProperty('body');
  expect(r.body.data).toMatchObject({ id: 2, mail_thread_id: 1, sent_flag: 1, has_body_flag: 1 });
  r = await api(fx, 'GET', '/api/v1/mailbox/mailMessages/2?include_body=1');
  expect(r.body.data.body).toContain('same SSO setup');
  r = await api(fx, 'GET', '/api/v1/mailbox/mailMessages/2?include_body=2');
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('include_body: must be one of 0, 1');
  r = await api(fx, 'GET', '/api/v1/mailbox/mailMessages/x');
  expect(r.body.error).toBe('id: must be an integer');
});

test('delete answers the mail envelope with the id; the thread disappears from its folders', async () => {
  const r = await api(fx, 'DELETE', '/api/v1/mailbox/mailThreads/2');
  expect(r.body).toEqual({ success: true, statusCode: 2000, statusText: 'Success', service: 'email-api', data: { id: 2 } });
  const inbox = await api(fx, 'GET', '/api/v1/mailbox/mailThreads?folder=inbox');
  const sentBox = await api(fx, 'GET', '/api/v1/mailbox/mailThreads?folder=sent');
  expect(inbox.body.data.map((t: { id: number }) => t.id)).toEqual([1, 3]);
  expect(sentBox.body.data.map((t: { id: number }) => t.id)).toEqual([4]);
  expect((await api(fx, 'GET', '/api/v1/mailbox/mailThreads/2/mailMessages')).status).toBe(404);
});

test('scopes: writes need mail:full, reads accept mail:read', async () => {
  const reader = fx.sandbox.issueToken({ scopes: ['mail:read'] }).access_token;
  expect((await api(fx, 'GET', '/api/v1/mailbox/mailThreads', { token: reader })).status).toBe(200);
  const r = await api(fx, 'DELETE', '/api/v1/mailbox/mailThreads/1', { token: reader });
  expect(r.status).toBe(403);
  const none = fx.sandbox.issueToken({ scopes: ['deals:read'] }).access_token;
  expect((await api(fx, 'GET', '/api/v1/mailbox/mailMessages/1', { token: none })).status).toBe(403);
});
