import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PERSON_FIELD_KEYS } from '../../src/sandbox/handlers/persons/seed.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { tools } from './helpers.js';

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

describe('persons files', () => {
  it('the /api/v1 form sorts on id and update_time; --v1 reaches /v1 and sorts on more fields', async () => {
    expect(await tsv(['persons', 'files', '1', '--sort', 'update_time DESC', '--fields', 'name'])).toBe('Meeting notes.docx\nSecond site floor plan.png\nAcme licence agreement.pdf\n');
    expect(await tsv(['persons', 'files', '1', '--v1', '--sort', 'file_size DESC', '--fields', 'file_size'])).toBe('1203554\n482113\n20480\n');
    const paths = (await fx.requests()).map((r) => [r.path, r.query]);
    expect(paths).toEqual([['/api/v1/persons/1/files', { sort: 'update_time DESC', limit: '100' }], ['/v1/persons/1/files', { sort: 'file_size DESC', limit: '100' }]]);
  });

  it('refuses a sort field of the other form, and asks for pages of at most 100', async () => {
    await refused(['persons', 'files', '1', '--sort', 'file_size DESC'], /--sort: must be "field ASC\|DESC" pairs.*fields: id, update_time/);
    await fx.clearRequests();
    const r = await run(['persons', 'files', '1', '--limit', '150', '--json']);
    expect(r.code).toBe(0);
    expect((await fx.requests()).every((q) => Number(q.query.limit) <= 100)).toBe(true);
  });
});

describe('persons flow', () => {
  it('lists updates newest first; custom field changes only with --all-changes 1', async () => {
    const without = await json(['persons', 'flow', '1', '--items', 'personChange']);
    expect(without.map((x: { data: { field_key: string } }) => x.data.field_key)).toEqual(['email', 'name']);
    const withAll = await json(['persons', 'flow', '1', '--items', 'personChange', '--all-changes', '1']);
    expect(withAll.map((x: { data: { field_key: string } }) => x.data.field_key)).toEqual([PERSON_FIELD_KEYS.linkedin, 'email', 'name']);
    expect((await lastRequest('/api/v1/persons/1/flow')).query).toEqual({ items: 'personChange', all_changes: '1', limit: '100' });
    const kinds = new Set((await json(['persons', 'flow', '1'])).map((x: { object: string }) => x.object));
    // Person 1 has no notes of its own (the demo notes are on a lead, a deal and person 2).
    expect(kinds).toEqual(new Set(['deal', 'file', 'plannedActivity', 'personChange', 'personFollower', 'mailMessage', 'mailMessageWithAttachment']));
  });

  it('refuses unknown item kinds and all_changes other than 0/1', async () => {
    await refused(['persons', 'flow', '1', '--items', 'note,tweet'], /--items: each value must be one of call, activity/);
    await refused(['persons', 'flow', '1', '--all-changes', '2'], /--all-changes.*0, 1/);
  });
});

describe('followers', () => {
  it('v2 followers, v1 followers with --v1, and the followers changelog', async () => {
    expect(await tsv(['persons', 'followers', 'list', '4'])).toBe('3\t2025-01-10T09:00:00Z\n1\t2025-01-12T09:00:00Z\n');
    expect(await tsv(['persons', 'followers', 'list', '4', '--v1', '--fields', 'user_id,person_id,add_time'])).toBe('3\t4\t2025-01-10 09:00:00\n1\t4\t2025-01-12 09:00:00\n');
    expect(await tsv(['persons', 'followers', 'changelog', '1'])).toBe(
      '2025-01-11T09:00:00Z\tremoved\t3\t3\n2025-01-09T09:00:00Z\tadded\t2\t1\n2025-01-08T09:00:00Z\tadded\t3\t1\n2025-01-07T09:00:00Z\tadded\t1\t1\n',
    );
    expect((await fx.requests()).map((r) => r.path)).toEqual(['/api/v2/persons/4/followers', '/v1/persons/4/followers', '/api/v2/persons/1/followers/changelog']);
  });

  it('--limit is refused with --v1 (the v1 followers list is not paged)', async () => {
    await refused(['persons', 'followers', 'list', '4', '--v1', '--limit', '1'], '--limit: not available with --v1');
  });

  it('cursor pages of the changelog join up', async () => {
    const first = await run(['persons', 'followers', 'changelog', '1', '--limit', '2', '--output', 'tsv']);
    expect(first.stdout.trim().split('\n')).toHaveLength(2);
    const all = await json(['persons', 'followers', 'changelog', '1', '--all']);
    expect(all).toHaveLength(4);
  });
});

describe('changelog, mail, permitted users, picture', () => {
  it('changelog is newest first', async () => {
    expect(await tsv(['persons', 'changelog', '1', '--fields', 'time,field_key,new_value'])).toBe(
      `2025-01-12 14:00:00\t${PERSON_FIELD_KEYS.linkedin}\tlinkedin.com/in/alice-andersson\n2025-01-10 14:00:00\temail\talice.andersson@example.org\n2025-01-08 14:00:00\tname\tAlice Andersson\n`,
    );
  });

  it('mail messages carry the body only with --include-body 1', async () => {
    const plain = await json(['persons', 'mail-messages', '1']);
    expect(plain.map((m: { data: { subject: string } }) => m.data.subject)).toEqual(['Re: Quote for the second site', 'Re: Quote for the second site', 'Quote for the second site']);
    expect(plain[0].data).not.toHaveProperty('body');
    const full = await json(['persons', 'mail-messages', '1', '--include-body', '1']);
    expect(full[2].data.body).toContain('could you send a quote');
    await refused(['persons', 'mail-messages', '1', '--include-body', 'yes'], /--include-body.*0, 1/);
  });

  it('permitted users follow the person\'s visibility', async () => {
    expect(await tsv(['persons', 'permitted-users', '1'])).toBe('1\n2\n3\n');
    // Person 8 is visible to its owner (Sam, 3) only, and to the admin.
    expect(await tsv(['persons', 'permitted-users', '8'])).toBe('1\n3\n');
  });

  it('picture gives the 128 and 512 URLs; a person without one is 404', async () => {
    const pic = await json(['persons', 'picture', 'get', '3']);
    expect(pic).toMatchObject({ item_type: 'person', item_id: 3, active_flag: true });
    expect(pic.pictures['128']).toMatch(/_128x128\.jpg$/);
    expect(pic.pictures['512']).toMatch(/_512x512\.jpg$/);
    const none = await run(['persons', 'picture', 'get', '2']);
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('Person picture not found');
  });
});

describe('products, activities, deals', () => {
  it('products: one row per deal product, from the service\'s deal-keyed entries', async () => {
    // Deal products are shared with the installments area; expect whatever the sandbox holds for person 2's deals.
    const deals = (await fx.collection<{ id: number; title: string; status: string; person_id: number }>('deals')).filter((d) => d.person_id === 2);
    const links = await fx.collection<{ deal_id: number; product_id: number }>('dealProducts');
    const catalog = await fx.collection<{ id: number; name: string; code: string }>('products');
    const expected = deals.flatMap((d) => links.filter((l) => l.deal_id === d.id).map((l) => {
      const prod = catalog.find((c) => c.id === l.product_id)!;
      return `${d.id}\t${d.title}\t${d.status}\t${prod.id}\t${prod.name}\t${prod.code}\n`;
    }));
    expect(expected.some((line) => line.includes('Globex hardware refresh\twon'))).toBe(true);
    expect(await tsv(['persons', 'products', '2'])).toBe(expected.join(''));
    const raw = await (await fetch(`${fx.sandbox.url}/api/v1/persons/2/products`, { headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}` } })).json();
    expect(Object.keys(raw.data[0])).toEqual([String(deals[0]!.id)]);
  });

  it('activities: done filter and exclude list', async () => {
    expect(await tsv(['persons', 'activities', '4', '--fields', 'id,subject,done'])).toBe('2\tDemo for Umbrella ops team\tfalse\n');
    expect(await tsv(['persons', 'activities', '4', '--done', '1', '--fields', 'id'])).toBe('');
    expect(await tsv(['persons', 'activities', '4', '--exclude', '2', '--fields', 'id'])).toBe('');
    expect((await lastRequest('/v1/persons/4/activities')).query).toEqual({ exclude: '2', limit: '100' });
    await refused(['persons', 'activities', '4', '--exclude', '2,x'], '--exclude: must be a comma-separated list of integers');
  });

  it('deals: all_not_deleted by default, status filter, deleted only up to 30 days back, sort', async () => {
    expect(await tsv(['persons', 'deals', '1', '--fields', 'title,status'])).toBe('Acme annual licence\topen\nAcme add-on seats\topen\n');
    expect(await tsv(['persons', 'deals', '1', '--status', 'deleted', '--fields', 'title,status'])).toBe('Acme pilot (cancelled)\tdeleted\n');
    expect(await tsv(['persons', 'deals', '1', '--sort', 'value ASC', '--fields', 'value'])).toBe('9600\n24000\n');
    expect(await tsv(['persons', 'deals', '3', '--status', 'won', '--fields', 'title'])).toBe('Initech support contract\n');
    expect((await lastRequest('/v1/persons/3/deals')).query).toEqual({ status: 'won', limit: '100' });
    await refused(['persons', 'deals', '1', '--status', 'archived'], /--status.*open, won, lost, deleted, all_not_deleted/);
  });
});
