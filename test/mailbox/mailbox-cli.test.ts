// crmctl mailbox: threads by folder, messages, form-encoded updates with the archive rule, delete.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { seedUuid } from '../../src/sandbox/seed/base.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { cliFor, deletedOf, lastRequest, sent } from '../notes/helpers.js';

let fx: SandboxFixture;
let cli: ReturnType<typeof cliFor>;
type Thread = { id: number; folders: string[]; archived_flag: number; read_flag: number; deal_id: number | null; lead_id: string | null };
const thread = async (id: number) => (await fx.collection<Thread>('mailThreads')).find((t) => t.id === id)!;

beforeAll(async () => {
  fx = await startFixture();
  cli = cliFor(fx);
});
afterAll(() => fx.close());
beforeEach(async () => {
  await fx.reset();
  await fx.clearRequests();
});

describe('threads list', () => {
  test('inbox by default, most recent message first, only my own threads', async () => {
    const r = await cli(['mailbox', 'threads', 'list', '--output', 'tsv', '--fields', 'id,subject,last_message_timestamp']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '1\tQuote for the second site\t2025-01-19T09:15:00.000Z\n' +
      '2\tFleet tracking pilot: next steps\t2025-01-16T07:15:00.000Z\n' +
      '3\tSupport contract invoice\t2025-01-10T10:15:00.000Z\n',
    );
    expect(await lastRequest(fx)).toMatchObject({ method: 'GET', path: '/api/v1/mailbox/mailThreads', query: { folder: 'inbox', limit: '100' } });
  });

  test.each([
    ['sent', '2\n4\n'],
    ['drafts', '5\n'],
    ['archive', '6\n'],
  ])('--folder %s', async (folder, ids) => {
    const r = await cli(['mailbox', 'threads', 'list', '--folder', folder, '--output', 'tsv', '--fields', 'id']);
    expect(r.stdout).toBe(ids);
    expect((await lastRequest(fx)).query).toMatchObject({ folder });
  });

  test('paging with --limit and --start', async () => {
    const r = await cli(['mailbox', 'threads', 'list', '--limit', '1', '--start', '1', '--output', 'tsv', '--fields', 'id']);
    expect(r.stdout).toBe('2\n');
    expect((await lastRequest(fx)).query).toEqual({ folder: 'inbox', start: '1', limit: '1' });
  });

  test('an unknown folder is refused before sending', async () => {
    const r = await cli(['mailbox', 'threads', 'list', '--folder', 'spam']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("argument 'spam' is invalid. Allowed choices are inbox, drafts, sent, archive");
    expect(await fx.requests()).toEqual([]);
  });
});

describe('threads get and messages', () => {
  test('get shows the thread; a thread of another user is not found (exit 5)', async () => {
    const r = await cli(['mailbox', 'threads', 'get', '2', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 2, subject: 'Fleet tracking pilot: next steps', folders: ['inbox', 'sent'], deal_id: 4, deal_status: 'open', shared_flag: 1, message_count: 2 });
    const other = await cli(['mailbox', 'threads', 'get', '7']);
    expect(other.code).toBe(5);
    expect(other.stderr).toContain('Mail thread not found');
  });

  test('messages of a thread, oldest first, without bodies', async () => {
    const r = await cli(['mailbox', 'threads', 'messages', '1', '--json']);
    const msgs = JSON.parse(r.stdout);
    expect(msgs.map((m: { id: number; subject: string }) => [m.id, m.subject])).toEqual([[1, 'Quote for the second site'], [2, 'Re: Quote for the second site'], [3, 'Re: Quote for the second site']]);
    expect(msgs.every((m: object) => !('body' in m))).toBe(true);
    expect(msgs[0].from[0]).toMatchObject({ email_address: 'alice.andersson@example.org', linked_person_id: 1 });
  });

  test('messages get: the body only with --body', async () => {
    let r = await cli(['mailbox', 'messages', 'get', '3', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).not.toHaveProperty('body');
    expect((await lastRequest(fx)).query).toEqual({});
    r = await cli(['mailbox', 'messages', 'get', '3', '--body', '--output', 'tsv', '--fields', 'id,body']);
    expect(r.stdout).toBe('3\t<div>Yes, same SSO, and EU data residency please.</div><div>--<br>Alice Andersson</div>\n');
    expect(await lastRequest(fx)).toMatchObject({ path: '/api/v1/mailbox/mailMessages/3', query: { include_body: '1' } });
  });
});

describe('threads update', () => {
  test('sends a form-encoded body and changes only the given fields', async () => {
    const r = await cli(['mailbox', 'threads', 'update', '3', '--lead-id', seedUuid('lead:2'), '--read', '0', '--shared', '1', '--json']);
    expect(r.code).toBe(0);
    // The preflight reads the lead; users/me (the write is recorded as a run of this account); then the PUT. Form values arrive as strings.
    expect(await sent(fx)).toEqual([`GET /api/v1/leads/${seedUuid('lead:2')}`, 'GET /api/v1/users/me', 'PUT /api/v1/mailbox/mailThreads/3']);
    expect((await lastRequest(fx)).body).toEqual({ lead_id: seedUuid('lead:2'), read_flag: '0', shared_flag: '1' });
    expect(await thread(3)).toMatchObject({ lead_id: seedUuid('lead:2'), read_flag: 0, shared_flag: 1, deal_id: 3, folders: ['inbox'] });
  });

  test('archiving an inbox thread moves it to the archive folder', async () => {
    const r = await cli(['mailbox', 'threads', 'update', '1', '--archived', '1', '--output', 'tsv', '--fields', 'id,folders,archived_flag']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\tarchive\t1\n');
    expect(await thread(1)).toMatchObject({ archived_flag: 1, folders: ['archive'] });
    const inbox = await cli(['mailbox', 'threads', 'list', '--output', 'tsv', '--fields', 'id']);
    expect(inbox.stdout).toBe('2\n3\n');
    const archive = await cli(['mailbox', 'threads', 'list', '--folder', 'archive', '--output', 'tsv', '--fields', 'id']);
    expect(archive.stdout).toBe('1\n6\n');
  });

  test('only inbox threads can be archived: the thread is read first, the PUT never sent', async () => {
    const r = await cli(['mailbox', 'threads', 'update', '4', '--archived', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--archived: only inbox threads can be archived; thread 4 is in sent');
    expect(await sent(fx)).toEqual(['GET /api/v1/mailbox/mailThreads/4']);
    expect(await thread(4)).toMatchObject({ archived_flag: 0, folders: ['sent'] });
  });

  test('--unset deal_id unlinks the deal (sent as an empty form value)', async () => {
    const r = await cli(['mailbox', 'threads', 'update', '2', '--unset', 'deal_id']);
    expect(r.code).toBe(0);
    expect((await lastRequest(fx)).body).toEqual({ deal_id: '' });
    expect((await thread(2)).deal_id).toBeNull();
  });

  test('a missing deal is the service\'s 400 (exit 2); a missing lead is caught before the PUT', async () => {
    let r = await cli(['mailbox', 'threads', 'update', '2', '--deal-id', '999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('deal_id: deal 999 does not exist');
    await fx.clearRequests();
    const ghost = '00000000-0000-4000-8000-000000000000';
    r = await cli(['mailbox', 'threads', 'update', '2', '--lead-id', ghost]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--lead-id: no such lead: ${ghost}`);
    expect(await sent(fx)).toEqual([`GET /api/v1/leads/${ghost}`]);
    expect((await thread(2)).deal_id).toBe(4);
  });

  test.each([
    [['--read', '2'], "option '--read <value>' argument '2' is invalid"],
    [['--lead-id', 'nope'], '--lead-id: must be a UUID'],
    [['--deal-id', '-3'], '--deal-id: must be at least 1'],
    [[], 'nothing to update'],
  ])('rejects %j before sending', async (flags, message) => {
    const r = await cli(['mailbox', 'threads', 'update', '1', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });

  test('a token with only mail:read is refused by the service (exit 4)', async () => {
    const reader = fx.sandbox.issueToken({ scopes: ['mail:read'] }).access_token;
    const r = await cli(['mailbox', 'threads', 'update', '1', '--read', '1'], { env: { CRMCTL_ACCESS_TOKEN: reader } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('mail:full');
    expect((await thread(1)).read_flag).toBe(0);
  });
});

describe('threads delete', () => {
  test('needs --yes off a terminal; then the thread and its messages are marked deleted', async () => {
    let r = await cli(['mailbox', 'threads', 'delete', '1']);
    expect(r.code).toBe(2);
    expect(await fx.requests()).toEqual([]);
    r = await cli(['mailbox', 'threads', 'delete', '1', '--yes', '--output', 'tsv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1\n');
    expect((await deletedOf(fx, 'mailThreads')).map((t) => [t.id, t.deleted_flag])).toEqual([[1, 1]]);
    expect((await deletedOf(fx, 'mailMessages')).map((m) => m.id)).toEqual([1, 2, 3]);
    expect((await cli(['mailbox', 'threads', 'get', '1'])).code).toBe(5);
    expect((await cli(['mailbox', 'messages', 'get', '1'])).code).toBe(5);
  });
});
