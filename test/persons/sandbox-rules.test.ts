import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { tools } from './helpers.js';

// The sandbox enforces the interface on its own: requests the CLI would refuse, sent directly.
let fx: SandboxFixture;
const { api } = tools(() => fx);
const bad = async (path: string, field: string, rule: RegExp, token?: string) => {
  const r = await api(path, token);
  expect(r.status, path).toBe(400);
  expect(r.body).toMatchObject({ success: false, data: null, additional_data: null });
  expect(r.body.error).toMatch(new RegExp(`^${field}: `));
  expect(r.body.error).toMatch(rule);
};
const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
});

describe('sandbox: 400s naming the field and the rule', () => {
  it.each([
    [`/api/v2/persons?ids=${ids(101)}`, 'ids', /at most 100/],
    [`/api/v2/persons?custom_fields=${ids(16)}`, 'custom_fields', /at most 15/],
    ['/api/v2/persons?include_fields=shoe_size', 'include_fields', /shoe_size is not one of/],
    ['/api/v2/persons?updated_since=2025-01-08', 'updated_since', /RFC 3339/],
    ['/api/v2/persons?sort_by=name', 'sort_by', /id, update_time, add_time/],
    ['/api/v2/persons?sort_direction=up', 'sort_direction', /asc, desc/],
    ['/api/v2/persons?limit=501', 'limit', /at most 500/],
    [`/api/v2/persons/1?custom_fields=${ids(16)}`, 'custom_fields', /at most 15/],
    ['/api/v2/persons/search?term=a', 'term', /at least 2/],
    ['/api/v2/persons/search?term=alice&fields=title', 'fields', /custom_fields, email, notes, phone, name/],
    ['/api/v2/persons/search?term=alice&include_fields=person.name', 'include_fields', /person\.picture/],
    ['/api/v2/persons/search?term=alice&limit=501', 'limit', /at most 500/],
    ['/api/v1/persons/1/files?limit=101', 'limit', /at most 100/],
    ['/v1/persons/1/files?limit=101', 'limit', /at most 100/],
    ['/api/v1/persons/1/files?sort=file_size%20DESC', 'sort', /file_size is not sortable/],
    ['/api/v1/persons/1/flow?items=tweet', 'items', /tweet is not one of/],
    ['/api/v1/persons/1/flow?all_changes=2', 'all_changes', /0 or 1/],
    ['/api/v1/persons/1/mailMessages?include_body=yes', 'include_body', /0 or 1/],
    ['/v1/persons/1/activities?done=2', 'done', /0 or 1/],
    ['/v1/persons/1/activities?exclude=1,x', 'exclude', /x is not an activity id/],
    ['/v1/persons/1/deals?status=archived', 'status', /all_not_deleted/],
    ['/v1/persons/1/deals?sort=owner_id.name%20ASC', 'sort', /is not of the form/],
    ['/v1/persons?first_char=ab', 'first_char', /single character/],
    ['/v1/persons?sort=shoe_size%20ASC', 'sort', /shoe_size is not sortable/],
    ['/v1/persons/collection?limit=501', 'limit', /at most 500/],
    ['/v1/persons/collection?since=yesterday', 'since', /date-time/],
    ['/api/v2/persons/abc', 'id', /positive integer/],
  ])('%s', async (path, field, rule) => {
    await bad(path, field, rule);
  });

  it('one character is enough with exact_match', async () => {
    expect((await api('/api/v2/persons/search?term=X&exact_match=true')).status).toBe(200);
  });
});

describe('sandbox: behaviour the interface states', () => {
  it('filter_id wins: ids, owner_id, org_id, deal_id are ignored with it', async () => {
    const withFilter = await api('/api/v2/persons?filter_id=3&owner_id=1&ids=1');
    const onlyFilter = await api('/api/v2/persons?filter_id=3');
    expect(withFilter.status).toBe(200);
    expect(withFilter.body.data).toEqual(onlyFilter.body.data);
    expect(withFilter.body.data.every((p: { owner_id: number }) => p.owner_id === 2)).toBe(true);
    const v1 = await api('/v1/persons?filter_id=3&user_id=1');
    expect(v1.body.data.map((p: { id: number }) => p.id)).toEqual(onlyFilter.body.data.map((p: { id: number }) => p.id));
  });

  it('ids that do not exist or are not visible are left out', async () => {
    const regular = fx.sandbox.issueToken({ userId: 2 }).access_token;
    const r = await api('/api/v2/persons?ids=1,8,999', regular);
    expect(r.body.data.map((p: { id: number }) => p.id)).toEqual([1]);
  });

  it('the collection is 403 for a regular user, with the service body', async () => {
    const regular = fx.sandbox.issueToken({ userId: 2 }).access_token;
    const r = await api('/v1/persons/collection', regular);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ success: false, error: 'You do not have permissions to do this.', data: null });
  });

  it('scopes: changelog and flow need recents:read, mail needs mail scopes, search needs one of its scopes', async () => {
    const contacts = fx.sandbox.issueToken({ scopes: ['contacts:read'] }).access_token;
    for (const path of ['/api/v1/persons/1/changelog', '/api/v1/persons/1/flow', '/api/v1/persons/1/mailMessages']) {
      expect((await api(path, contacts)).status, path).toBe(403);
    }
    expect((await api('/api/v2/persons/1', contacts)).status).toBe(200);
    const recents = fx.sandbox.issueToken({ scopes: ['recents:read'] }).access_token;
    expect((await api('/api/v1/persons/1/changelog', recents)).status).toBe(200);
    expect((await api('/api/v2/persons/1', recents)).status).toBe(403);
  });

  it('404 for a missing or deleted person', async () => {
    for (const path of ['/api/v2/persons/999', '/v1/persons/999', '/api/v2/persons/999/followers']) {
      const r = await api(path);
      expect(r.status, path).toBe(404);
      expect(r.body).toMatchObject({ success: false, error: 'Person not found', data: null });
    }
    fx.sandbox.state.persons.markDeleted(2, { is_deleted: true });
    expect((await api('/api/v2/persons/2')).status).toBe(404);
    expect((await api('/api/v2/persons?ids=2')).body.data).toEqual([]);
  });

  it('the two files forms accept different sort fields', async () => {
    expect((await api('/v1/persons/1/files?sort=file_size%20DESC')).status).toBe(200);
    expect((await api('/api/v1/persons/1/files?sort=update_time%20DESC')).status).toBe(200);
  });

  it('deleted deals older than 30 days are not listed', async () => {
    const r = await api('/v1/persons/1/deals?status=deleted');
    expect(r.body.data.map((d: { title: string }) => d.title)).toEqual(['Acme pilot (cancelled)']);
    const all = fx.sandbox.state.deals.allWithDeleted().filter((d) => d.person_id === 1 && fx.sandbox.state.deals.isDeleted(d.id));
    expect(all).toHaveLength(2);
  });

  it('at most 2000 persons are found per organization', async () => {
    const s = fx.sandbox.state;
    const t = new Date().toISOString();
    for (let i = 0; i < 2005; i++) {
      s.persons.insert({ name: `Bulk Person ${i}`, first_name: 'Bulk', last_name: `Person ${i}`, owner_id: 1, org_id: 3, emails: [], phones: [], add_time: t, update_time: t, is_deleted: false, visible_to: 3, label_ids: [], picture_id: null, custom_fields: {} }, { silent: true });
    }
    let cursor: string | null = null;
    let found = 0;
    do {
      const r = await api(`/api/v2/persons/search?term=bulk&organization_id=3&limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      found += r.body.data.items.length;
      cursor = r.body.additional_data.next_cursor;
    } while (cursor);
    expect(found).toBe(2000);
    const unscoped = await api('/api/v2/persons/search?term=bulk&limit=500');
    expect(unscoped.body.additional_data.next_cursor).not.toBeNull();
  });

  it('charges the stated costs', async () => {
    await fx.clearRequests();
    await api('/api/v2/persons');
    await api('/api/v2/persons/1');
    await api('/api/v1/persons/1/flow');
    await api('/api/v2/persons/1/picture');
    const costs = (await fx.requests()).map((r) => [r.path, r.cost]);
    expect(costs).toEqual([['/api/v2/persons', 10], ['/api/v2/persons/1', 1], ['/api/v1/persons/1/flow', 40], ['/api/v2/persons/1/picture', 1]]);
  });
});
