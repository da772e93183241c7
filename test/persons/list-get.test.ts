import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PERSON_FIELD_KEYS } from '../../src/sandbox/handlers/persons/seed.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { setCompany, tools } from './helpers.js';

let fx: SandboxFixture;
const { run, json, tsv, refused, lastRequest } = tools(() => fx);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('persons list (v2)', () => {
  it('sends the filters as the service wants them and prints the persons it returns', async () => {
    const out = await tsv(['persons', 'list', '--owner-id', '1', '--sort-by', 'update_time', '--sort-direction', 'desc', '--fields', 'id,name']);
    const persons = (await fx.collection<{ id: number; name: string; owner_id: number; update_time: string }>('persons'))
      .filter((p) => p.owner_id === 1)
      .sort((a, b) => b.update_time.localeCompare(a.update_time));
    expect(out).toBe(persons.map((p) => `${p.id}\t${p.name}\n`).join(''));
    const req = await lastRequest('/api/v2/persons');
    expect(req.query).toEqual({ owner_id: '1', sort_by: 'update_time', sort_direction: 'desc', limit: '100' });
  });

  it('pages with the cursor: --limit 3 asks for 3, --all follows next_cursor', async () => {
    expect((await json(['persons', 'list', '--limit', '3'])).map((p: { id: number }) => p.id)).toEqual([1, 2, 3]);
    await fx.clearRequests();
    const all = await json(['persons', 'list', '--all']);
    expect(all).toHaveLength((await fx.collection('persons')).length);
    const page = await run(['persons', 'list', '--limit', '4', '--cursor', 'eyJmaWVsZCI6InJhbmsiLCJmaWVsZFZhbHVlIjo0LCJzb3J0RGlyZWN0aW9uIjoiYXNjIiwiaWQiOjV9', '--json']);
    expect(JSON.parse(page.stdout).map((p: { id: number }) => p.id)).toEqual([5, 6, 7, 8]);
  });

  it('ids, include_fields, custom_fields, option labels and labels', async () => {
    const [alice] = await json(['persons', 'list', '--ids', '1,999', '--include-fields', 'open_deals_count,files_count,followers_count',
      '--custom-fields', PERSON_FIELD_KEYS.language, '--include-option-labels', '--include-labels']);
    expect(alice).toMatchObject({
      id: 1, open_deals_count: 2, files_count: 3, followers_count: 2,
      custom_fields: { [PERSON_FIELD_KEYS.language]: { id: 201, label: 'English' } },
      labels: [{ id: 1, label: 'Customer' }, { id: 4, label: 'VIP' }],
    });
    expect(Object.keys(alice.custom_fields)).toEqual([PERSON_FIELD_KEYS.language]);
    const req = await lastRequest('/api/v2/persons');
    expect(req.query).toMatchObject({ ids: '1,999', include_fields: 'open_deals_count,files_count,followers_count', include_option_labels: 'true', include_labels: 'true' });
  });

  it('updated_since is inclusive and updated_until exclusive', async () => {
    const ids = await json(['persons', 'list', '--updated-since', '2025-01-08T09:00:00Z', '--updated-until', '2025-01-10T09:00:00Z']);
    expect(ids.map((p: { id: number }) => p.id)).toEqual([2, 3]);
  });

  it.each([
    [['--ids', Array.from({ length: 101 }, (_, i) => i + 1).join(',')], '--ids: must have at most 100 items'],
    [['--custom-fields', Array.from({ length: 16 }, (_, i) => `k${i}`).join(',')], '--custom-fields: must have at most 15 items'],
    [['--updated-since', '2025-01-08'], '--updated-since: must be an RFC 3339 date-time'],
    [['--updated-until', '2025-01-08 10:00:00'], '--updated-until: must be an RFC 3339 date-time'],
    [['--sort-by', 'name'], /--sort-by.*id, update_time, add_time/],
    [['--include-fields', 'open_deals_count,shoe_size'], /--include-fields.*next_activity_id/],
    [['--filter-id', '3', '--owner-id', '1'], '--owner-id: is ignored by the service when --filter-id is given'],
    [['--filter-id', '3', '--ids', '1,2'], '--ids: is ignored by the service when --filter-id is given'],
    [['--user-id', '2'], '--user-id: only with --v1'],
    [['--owner-id', 'x'], '--owner-id: must be an integer'],
  ])('refuses %j before sending', async (args, message) => {
    await refused(['persons', 'list', ...args], message);
  });

  it('a saved people filter replaces the other filters', async () => {
    const ids = (await json(['persons', 'list', '--filter-id', '3'])).map((p: { owner_id: number }) => p.owner_id);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([2]));
  });
});

describe('contact sync and marketing fields', () => {
  it('contact-sync fields appear only while contact sync is on', async () => {
    const on = await json(['persons', 'get', '1']);
    expect(on).toMatchObject({ job_title: 'Head of Operations', birthday: '1984-03-12', ims: [{ value: 'alice.andersson' }], postal_address: { locality: 'Tallinn' }, notes: 'Met at the Tallinn logistics fair.' });
    setCompany(fx, { contact_sync_enabled: false });
    const off = await json(['persons', 'get', '1']);
    for (const k of ['ims', 'postal_address', 'notes', 'birthday', 'job_title']) expect(off).not.toHaveProperty(k);
  });

  it('marketing_status and doi_status only with the marketing app, in v2 include_fields and the v1 record', async () => {
    const args = ['persons', 'get', '1', '--include-fields', 'marketing_status,doi_status,smart_bcc_email'];
    const off = await json(args);
    expect(off).not.toHaveProperty('marketing_status');
    expect(off).not.toHaveProperty('doi_status');
    expect(off.smart_bcc_email).toMatch(/\+person1@/);
    expect(await json(['persons', 'get', '1', '--v1'])).not.toHaveProperty('marketing_status');
    setCompany(fx, { marketing_app_enabled: true });
    expect(await json(args)).toMatchObject({ marketing_status: 'subscribed', doi_status: 'confirmed' });
    expect(await json(['persons', 'get', '1', '--v1'])).toMatchObject({ marketing_status: 'subscribed' });
  });
});

describe('persons get', () => {
  it('v2 by default, v1 with --v1; each reaches its own path', async () => {
    expect(await tsv(['persons', 'get', '2', '--fields', 'id,name,org_id'])).toBe('2\tBob Berzins\t2\n');
    expect(await tsv(['persons', 'get', '2', '--v1', '--fields', 'id,name,org_name,owner_name,open_deals_count'])).toBe('2\tBob Berzins\tGlobex Industries\tReggie Regular\t1\n');
    expect((await fx.requests()).map((r) => r.path)).toEqual(['/api/v2/persons/2', '/v1/persons/2']);
  });

  it('refuses v2-only flags with --v1, and bad ids, before sending', async () => {
    await refused(['persons', 'get', '2', '--v1', '--include-labels'], '--include-labels: not available with --v1');
    await refused(['persons', 'get', 'abc'], '<id>: must be a positive integer id');
    await refused(['persons', 'get', '2', '--fields', 'shoe_size', '--json'], '--fields: unknown field shoe_size');
    // In a table a name that is no record field may be a custom field's: the one read is the field metadata.
    await fx.clearRequests();
    const r = await run(['persons', 'get', '2', '--fields', 'shoe_size']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fields: unknown field shoe_size');
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/personFields']);
  });

  it('a missing person exits 5 with the service message', async () => {
    const r = await run(['persons', 'get', '999']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Person not found');
    const v1 = await run(['persons', 'get', '999', '--v1']);
    expect(v1.code).toBe(5);
  });
});

describe('persons list --v1', () => {
  it('first_char, user_id and sort reach /v1/persons and shape the answer', async () => {
    expect(await tsv(['persons', 'list', '--v1', '--user-id', '1', '--sort', 'name DESC', '--fields', 'id,name'])).toBe('9\tInes Ilves\n6\tFrank Fischer\n13\tCarla Korhonnen\n3\tCarla Korhonen\n1\tAlice Andersson\n11\tAlice Anderson\n'); // 11, 13: the demo's duplicates (seed/dirt.ts)
    expect((await lastRequest('/v1/persons')).query).toEqual({ user_id: '1', sort: 'name DESC', limit: '100' });
    expect(await tsv(['persons', 'list', '--v1', '--first-char', 'G', '--fields', 'name'])).toBe('Grace Grant\n');
  });

  it.each([
    [['--v1', '--first-char', 'ab'], '--first-char: must be exactly one character'],
    [['--v1', '--sort', 'owner_id.name ASC'], '--sort: must be "field ASC|DESC" pairs'],
    [['--v1', '--filter-id', '3', '--user-id', '1'], '--user-id: is ignored by the service when --filter-id is given'],
    [['--v1', '--cursor', 'abc'], '--cursor: not available with --v1'],
  ])('refuses %j before sending', async (args, message) => {
    await refused(['persons', 'list', ...args], message);
  });

  it('pages by offset with --start', async () => {
    expect(await tsv(['persons', 'list', '--v1', '--start', '8', '--fields', 'id'])).toBe('9\n10\n11\n12\n13\n14\n');
    expect((await lastRequest('/v1/persons')).query).toEqual({ start: '8', limit: '100' });
  });
});

describe('persons search', () => {
  it('finds by name, email, phone and notes; sends the beta query', async () => {
    expect(await tsv(['persons', 'search', '--term', 'berz', '--fields', 'item.id,item.name'])).toBe('2\tBob Berzins\n');
    expect(await tsv(['persons', 'search', '--term', 'prefers email', '--search-fields', 'notes', '--fields', 'item.id,item.notes'])).toBe('2\tPrefers email over phone.\n');
    const req = await lastRequest('/api/v2/persons/search');
    expect(req.query).toEqual({ term: 'prefers email', fields: 'notes', limit: '100' });
    expect(await tsv(['persons', 'search', '--term', '+372 5550 1037', '--search-fields', 'phone', '--exact-match', '--fields', 'item.id'])).toBe('2\n12\n'); // 12: Bob's duplicate, the same number without spaces
    const pic = await json(['persons', 'search', '--term', 'alice', '--include-fields', 'person.picture']);
    expect(pic[0].item.picture.pictures['128']).toMatch(/_128x128\.jpg$/);
  });

  it.each([
    [['--term', 'a'], '--term: must have at least 2 characters (1 with --exact-match)'],
    [['--term', 'ab', '--search-fields', 'title'], /--search-fields.*custom_fields, email, notes, phone, name/],
    [['--term', 'ab', '--include-fields', 'person.name'], /--include-fields.*person\.picture/],
    [[], '--term: is required'],
  ])('refuses %j before sending', async (args, message) => {
    await refused(['persons', 'search', ...args], message);
  });

  it('one character is enough with --exact-match', async () => {
    const r = await run(['persons', 'search', '--term', 'X', '--exact-match', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});

describe('persons collection (beta, global admins only)', () => {
  it('streams every person by cursor with since/owner filters', async () => {
    expect(await tsv(['persons', 'collection', '--owner-id', '3', '--since', '2025-01-09 00:00:00', '--fields', 'id,name'])).toBe('4\tDan Dahl\n8\tHugo Hansen\n14\tDana Doyle\n');
    expect((await lastRequest('/v1/persons/collection')).query).toEqual({ owner_id: '3', since: '2025-01-09 00:00:00', limit: '100' });
    const all = await json(['persons', 'collection', '--limit', '600']);
    expect(all).toHaveLength(14);
  });

  it('a regular user gets 403 and the CLI explains why', async () => {
    const token = fx.sandbox.issueToken({ userId: 2 }).access_token;
    const r = await run(['persons', 'collection'], { CRMCTL_ACCESS_TOKEN: token });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('Permission denied (403)');
    expect(r.stderr).toContain('global admins only');
    expect(r.stderr).toContain('crmctl persons list --all');
  });

  it('refuses a bad date-time before sending', async () => {
    await refused(['persons', 'collection', '--since', 'yesterday'], '--since: must be an ISO 8601 date-time');
  });
});
