// The sandbox enforces the notes rules itself, with the service's 400/403/404 bodies:
// requests the CLI would refuse are sent here directly.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { sanitizeHtml } from '../../src/sandbox/handlers/notes/sanitize.js';
import { seedUuid } from '../../src/sandbox/seed/base.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, deletedOf } from './helpers.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.close());
beforeEach(() => fx.reset());

const ERROR_SHAPE = { success: false, data: null, additional_data: null };

describe('create and update rules', () => {
  test.each([
    [{ deal_id: 1 }, 'content: is required'],
    [{ deal_id: 1, content: '  ' }, 'content: must not be empty'],
    [{ deal_id: 1, content: 'a'.repeat(100_001) }, 'content: must be at most 100000 characters'],
    [{ content: 'x' }, 'lead_id|deal_id|person_id|org_id|project_id|task_id: at least one is required'],
    [{ content: 'x', lead_id: 'nope' }, 'lead_id: must be a UUID'],
    [{ content: 'x', lead_id: '00000000-0000-4000-8000-000000000000' }, 'lead_id: lead 00000000-0000-4000-8000-000000000000 does not exist'],
    [{ content: 'x', deal_id: 999 }, 'deal_id: deal 999 does not exist'],
    [{ content: 'x', person_id: 999 }, 'person_id: person 999 does not exist'],
    [{ content: 'x', org_id: 999 }, 'org_id: organization 999 does not exist'],
    [{ content: 'x', project_id: 9999 }, 'project_id: project 9999 does not exist'],
    [{ content: 'x', task_id: 9999 }, 'task_id: task 9999 does not exist'],
    [{ content: 'x', deal_id: 'one' }, 'deal_id: must be an integer'],
    [{ content: 'x', deal_id: 1, user_id: 77 }, 'user_id: user 77 does not exist'],
    [{ content: 'x', deal_id: 1, add_time: '2025-13-01 10:00:00' }, 'add_time: must be a UTC date-time in YYYY-MM-DD HH:MM:SS format'],
    [{ content: 'x', deal_id: 1, add_time: '2025-01-01T10:00:00Z' }, 'add_time: must be a UTC date-time'],
    [{ content: 'x', deal_id: 1, pinned_to_deal_flag: 2 }, 'pinned_to_deal_flag: must be 0 or 1'],
    [{ content: 'x', deal_id: 1, pinned_to_deal_flag: true }, 'pinned_to_deal_flag: must be 0 or 1'],
    [{ content: 'x', person_id: 1, pinned_to_deal_flag: 1 }, 'pinned_to_deal_flag: needs deal_id'],
    [{ content: 'x', deal_id: 1, title: 'no such field' }, 'title: is not a known field'],
  ])('POST %j → 400', async (body, message) => {
    const before = (await fx.collection('notes')).length;
    const r = await api(fx, 'POST', '/api/v1/notes', { json: body });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject(ERROR_SHAPE);
    expect(r.body.error).toContain(message);
    expect(await fx.collection('notes')).toHaveLength(before);
  });

  test('201 is not used: create answers 200 with the note record; future add_time is kept', async () => {
    const r = await api(fx, 'POST', '/api/v1/notes', { json: { content: '<p>Later</p>', lead_id: seedUuid('lead:1'), pinned_to_lead_flag: 1, add_time: '2031-12-31 23:59:59', user_id: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ content: '<p>Later</p>', lead_id: seedUuid('lead:1'), pinned_to_lead_flag: 1, add_time: '2031-12-31 23:59:59', user_id: 2,
      user: { name: 'Reggie Regular', is_you: false }, active_flag: true, deal: null });
  });

  test('only an admin sets or changes the author (403 otherwise)', async () => {
    const reggie = fx.sandbox.issueToken({ userId: 2 }).access_token;
    let r = await api(fx, 'POST', '/api/v1/notes', { json: { content: 'x', deal_id: 1, user_id: 3 }, token: reggie });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain('user_id: only an admin can change the author of a note');
    r = await api(fx, 'PUT', '/api/v1/notes/3', { json: { user_id: 2 }, token: reggie });
    expect(r.status).toBe(403);
    // Naming the current author is no change.
    r = await api(fx, 'PUT', '/api/v1/notes/4', { json: { user_id: 2, content: 'Email only.' }, token: reggie });
    expect(r.status).toBe(200);
    r = await api(fx, 'PUT', '/api/v1/notes/3', { json: { user_id: 3 } });
    expect(r.status).toBe(200);
    expect(r.body.data.user).toMatchObject({ name: 'Sam Seller' });
  });

  test('update checks pins against the note as it would be after the write', async () => {
    let r = await api(fx, 'PUT', '/api/v1/notes/4', { json: { pinned_to_deal_flag: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('pinned_to_deal_flag: needs deal_id: a note can only be pinned to an item it is attached to');
    r = await api(fx, 'PUT', '/api/v1/notes/4', { json: { pinned_to_person_flag: 1 } });
    expect(r.status).toBe(200);
    expect(r.body.data.pinned_to_person_flag).toBe(1);
    r = await api(fx, 'PUT', '/api/v1/notes/4', { json: { deal_id: null } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('deal_id: must not be null');
  });

  test('404 for a missing note, 400 for a non-integer id', async () => {
    let r = await api(fx, 'GET', '/api/v1/notes/999');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ success: false, error: 'Note not found', error_info: 'Object was not found.', data: null, additional_data: null });
    r = await api(fx, 'PUT', '/api/v1/notes/abc', { json: { content: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('id: must be an integer');
  });

  test('delete answers data: true and marks the note and its comments deleted', async () => {
    const r = await api(fx, 'DELETE', '/api/v1/notes/1');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, data: true });
    expect((await api(fx, 'GET', '/api/v1/notes/1')).status).toBe(404);
    expect((await api(fx, 'GET', '/api/v1/notes/1/comments')).status).toBe(404);
    expect((await deletedOf(fx, 'notes'))[0]).toMatchObject({ id: 1, active_flag: false });
    expect((await deletedOf(fx, 'noteComments')).every((c) => c.active_flag === false && c.object_id === '1')).toBe(true);
  });
});

describe('list rules', () => {
  test.each([
    ['sort=title%20ASC', 'sort: field title is not sortable'],
    ['updated_since=2025-01-01', 'updated_since: must be an RFC 3339 date-time, e.g. 2025-01-01T10:20:00Z'],
    ['start_date=2025-02-30', 'start_date: must be a date in YYYY-MM-DD format'],
    ['end_date=tomorrow', 'end_date: must be a date in YYYY-MM-DD format'],
    ['pinned_to_task_flag=2', 'pinned_to_task_flag: must be one of 0, 1'],
    ['lead_id=7', 'lead_id: must be a UUID'],
    ['deal_id=x', 'deal_id: must be an integer'],
    ['limit=501', 'limit: must be at most 500'],
  ])('GET ?%s → 400', async (qs, message) => {
    const r = await api(fx, 'GET', `/api/v1/notes?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(message);
  });

  test('offset pages carry the pagination block', async () => {
    const r = await api(fx, 'GET', '/api/v1/notes?start=0&limit=2&sort=id%20ASC');
    expect(r.body.data.map((n: { id: number }) => n.id)).toEqual([1, 2]);
    expect(r.body.additional_data).toEqual({ pagination: { start: 0, limit: 2, more_items_in_collection: true, next_start: 2 } });
  });

  test('every filter of the interface narrows the list', async () => {
    const ids = async (qs: string) => (await api(fx, 'GET', `/api/v1/notes?${qs}`)).body.data.map((n: { id: number }) => n.id);
    expect(await ids(`lead_id=${seedUuid('lead:0')}`)).toEqual([1, 2]);
    expect(await ids('person_id=4')).toEqual([6]);
    expect(await ids('org_id=1')).toEqual([5]);
    expect(await ids('user_id=3')).toEqual([6]);
    expect(await ids('pinned_to_deal_flag=1')).toEqual([6]);
    expect(await ids('start_date=2025-03-01')).toContain(7);
    expect(await ids('end_date=2025-01-11')).toEqual([4, 5]);
    expect(await ids('updated_since=2025-03-07T09:30:00Z')).toEqual([7]);
    expect(await ids('updated_since=2025-03-07T09:30:01Z')).toEqual([]);
    expect(await ids('deal_id=1&sort=add_time%20DESC')).toEqual([7, 3]);
  });
});

describe('comments', () => {
  test('rules: content required, commentId a UUID, the comment must belong to the note', async () => {
    let r = await api(fx, 'POST', '/api/v1/notes/3/comments', { json: {} });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('content: is required');
    r = await api(fx, 'POST', '/api/v1/notes/999/comments', { json: { content: 'x' } });
    expect(r.status).toBe(404);
    r = await api(fx, 'GET', '/api/v1/notes/3/comments/123');
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('commentId: must be a UUID');
    r = await api(fx, 'PUT', `/api/v1/notes/3/comments/${seedUuid('note-comment:a')}`, { json: { content: 'moved?' } });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('Comment not found');
    r = await api(fx, 'PUT', `/api/v1/notes/1/comments/${seedUuid('note-comment:a')}`, { json: {} });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('content: is required');
  });

  test('add answers the comment record; delete answers data: true', async () => {
    const r = await api(fx, 'POST', '/api/v1/notes/3/comments', { json: { content: '<b onmouseover="x()">ok</b>' } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ content: '<b>ok</b>', object_id: '3', object_type: 'note', user_id: 1, updater_id: 1, active_flag: true, company_id: 1 });
    expect(r.body.data.uuid).toBe(r.body.data.id);
    const d = await api(fx, 'DELETE', `/api/v1/notes/3/comments/${r.body.data.id}`);
    expect(d.body).toMatchObject({ success: true, data: true });
    expect((await api(fx, 'GET', `/api/v1/notes/3/comments/${r.body.data.id}`)).status).toBe(404);
  });
});

describe('HTML sanitizing (what the sandbox keeps)', () => {
  test.each([
    ['<p>Hi<script>alert(1)</script></p>', '<p>Hi</p>'],
    ['<style>p{color:red}</style><p>x</p>', '<p>x</p>'],
    ['<iframe src="https://evil.example"></iframe><object data="x"></object><embed src="y">ok', 'ok'],
    ['<p onclick="steal()" style="color:red" class="c">x</p>', '<p>x</p>'],
    ['<a href="javascript:alert(1)" onclick="y()">l</a>', '<a>l</a>'],
    ['<a href=" jAvA\tscript:alert(1)">l</a>', '<a>l</a>'],
    ['<a href="https://example.com" target="_blank" title="t">l</a>', '<a href="https://example.com" target="_blank" title="t">l</a>'],
    ['<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ul><li>1</li></ul><ol><li>2</li></ol><br><blockquote>q</blockquote>', '<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ul><li>1</li></ul><ol><li>2</li></ol><br><blockquote>q</blockquote>'],
    ['<form action="x"><img src="y" onerror="z()">text</form>', 'text'],
    ['<!-- hidden -->visible<script>never closed', 'visible'],
  ])('%s', (input, output) => {
    expect(sanitizeHtml(input)).toBe(output);
  });

  test('the service stores the sanitized form on create and update', async () => {
    const r = await api(fx, 'PUT', '/api/v1/notes/3', { json: { content: '<p>Signed<script>x()</script></p>' } });
    expect(r.body.data.content).toBe('<p>Signed</p>');
    expect((await fx.collection<{ id: number; content: string }>('notes')).find((n) => n.id === 3)!.content).toBe('<p>Signed</p>');
  });
});

test('scopes: reads take deal or contact scopes, writes need a :full one', async () => {
  const contactsReader = fx.sandbox.issueToken({ scopes: ['contacts:read'] }).access_token;
  expect((await api(fx, 'GET', '/api/v1/notes/3', { token: contactsReader })).status).toBe(200);
  const r = await api(fx, 'POST', '/api/v1/notes', { json: { content: 'x', deal_id: 1 }, token: contactsReader });
  expect(r.status).toBe(403);
  const dealsWriter = fx.sandbox.issueToken({ scopes: ['deals:full'] }).access_token;
  expect((await api(fx, 'POST', '/api/v1/notes/3/comments', { json: { content: 'x' }, token: dealsWriter })).status).toBe(200);
  const mailOnly = fx.sandbox.issueToken({ scopes: ['mail:full'] }).access_token;
  expect((await api(fx, 'GET', '/api/v1/notes', { token: mailOnly })).status).toBe(403);
});
