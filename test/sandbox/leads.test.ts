// Lead rules: create/update/delete validation, lists, filters, sorting, visibility, search.
import { describe, expect, test } from 'vitest';
import { boot } from './helpers.js';
import { CHANNELS, DEAL_FIELD_KEYS } from '../../src/sandbox/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('create', () => {
  test('201 with defaults: owner = caller, source/origin API, was_seen false, UUID id', async () => {
    const { call } = await boot();
    const r = await call('POST', '/api/v1/leads', { body: { title: 'New lead', organization_id: 3, visible_to: 7, value: { amount: 99.5, currency: 'USD' } } });
    expect(r.status).toBe(201);
    expect(r.body.success).toBe(true);
    const l = r.body.data;
    expect(l.id).toMatch(UUID);
    expect(l).toMatchObject({ title: 'New lead', owner_id: 1, creator_id: 1, organization_id: 3, person_id: null, source_name: 'API', origin: 'API',
      was_seen: false, is_archived: false, visible_to: '7', value: { amount: 99.5, currency: 'USD' }, channel: null, channel_id: null, origin_id: null, label_ids: [] });
    const got = await call('GET', `/api/v1/leads/${l.id}`);
    expect(got.body.data).toEqual(l);
  });

  test('validation rules name the field and the rule', async () => {
    const { call } = await boot();
    const labels = (await call('GET', '/api/v1/leadLabels')).body.data;
    const cases: [unknown, string][] = [
      [{ person_id: 1 }, 'title: is required'],
      [{ title: '', person_id: 1 }, 'title: must not be empty'],
      [{ title: 'x' }, 'person_id: a lead needs person_id or organization_id'],
      [{ title: 'x', person_id: 9999 }, 'person_id: person 9999 does not exist'],
      [{ title: 'x', organization_id: 9999 }, 'organization_id: organization 9999 does not exist'],
      [{ title: 'x', person_id: 1, value: { amount: 5 } }, 'value.currency: is required'],
      [{ title: 'x', person_id: 1, value: { currency: 'EUR' } }, 'value.amount: is required'],
      [{ title: 'x', person_id: 1, value: { amount: 5, currency: 'XXX' } }, 'value.currency: XXX is not an active currency'],
      [{ title: 'x', person_id: 1, visible_to: '2' }, 'visible_to: must be one of 1, 3, 5, 7'],
      [{ title: 'x', person_id: 1, channel: 999 }, 'channel: must be one of the configured marketing channels'],
      [{ title: 'x', person_id: 1, label_ids: ['00000000-0000-4000-8000-000000000000'] }, 'label_ids: lead label 00000000-0000-4000-8000-000000000000 does not exist'],
      [{ title: 'x', person_id: 1, label_ids: ['nope'] }, 'label_ids: "nope" is not a UUID'],
      [{ title: 'x', person_id: 1, owner_id: 77 }, 'owner_id: user 77 does not exist'],
      [{ title: 'x', person_id: 1, expected_close_date: '2025-02-30' }, 'expected_close_date: must be a date'],
      [{ title: 'x', person_id: 1, is_archived: true }, 'is_archived: is not a known field'],
      [{ title: 'x', person_id: 1, colour: 'red' }, 'colour: is not a known field'],
      [{ title: 'x', person_id: 1, [DEAL_FIELD_KEYS.leadScore]: 'high' }, `${DEAL_FIELD_KEYS.leadScore}: must be a number`],
      [{ title: 'x', person_id: 1, [DEAL_FIELD_KEYS.segment]: 5 }, `${DEAL_FIELD_KEYS.segment}: must be one of the option ids`],
    ];
    for (const [body, msg] of cases) {
      const r = await call('POST', '/api/v1/leads', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error, JSON.stringify(body)).toContain(msg);
      expect(r.body).toMatchObject({ success: false, data: null, additional_data: null });
      expect(typeof r.body.error_info).toBe('string');
    }
    // Valid channel, labels, numeric visible_to and custom fields pass.
    const okr = await call('POST', '/api/v1/leads', { body: { title: 'ok', person_id: 1, channel: CHANNELS[1]!.id, label_ids: [labels[0].id], visible_to: 5,
      [DEAL_FIELD_KEYS.leadScore]: 12.5, [DEAL_FIELD_KEYS.segment]: 103, [DEAL_FIELD_KEYS.budget]: 1000, [`${DEAL_FIELD_KEYS.budget}_currency`]: 'EUR' } });
    expect(okr.status).toBe(201);
    expect(okr.body.data).toMatchObject({ channel: CHANNELS[1]!.id, visible_to: '5', label_ids: [labels[0].id], [DEAL_FIELD_KEYS.leadScore]: 12.5, [DEAL_FIELD_KEYS.segment]: 103 });
    // A failed create leaves nothing behind.
    const count = (await call('GET', '/api/v1/leads')).body.data.length;
    expect(count).toBe(5);
  });

  test('create emits an event with the user id', async () => {
    const { sb, call } = await boot();
    const seen: any[] = [];
    sb.state.events.on((e) => seen.push(e));
    const r = await call('POST', '/api/v1/leads', { body: { title: 'evt', person_id: 2 } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ action: 'create', object: 'lead', id: r.body.data.id, userId: 1, previous: null });
    expect(seen[0].data.title).toBe('evt');
  });
});

describe('update', () => {
  async function newLead(call: any, extra: Record<string, unknown> = {}) {
    return (await call('POST', '/api/v1/leads', { body: { title: 'Patch me', person_id: 1, organization_id: 1, value: { amount: 10, currency: 'EUR' }, ...extra } })).body.data;
  }

  test('only sent fields change; null unsets value; update_time moves', async () => {
    const { call } = await boot();
    const l = await newLead(call, { expected_close_date: '2026-01-01' });
    await new Promise((r) => setTimeout(r, 5));
    const r = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { title: 'Patched', value: null } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ title: 'Patched', value: null, person_id: 1, organization_id: 1, expected_close_date: '2026-01-01', owner_id: 1 });
    expect(r.body.data.update_time > l.update_time).toBe(true);
    expect(r.body.data.add_time).toBe(l.add_time);
  });

  test('a lead must stay linked to a person or organization', async () => {
    const { call } = await boot();
    const l = await newLead(call);
    expect((await call('PATCH', `/api/v1/leads/${l.id}`, { body: { person_id: null } })).status).toBe(200);
    const r = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { organization_id: null } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('organization_id: a lead must stay linked');
    const both = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { organization_id: null, person_id: 3 } });
    expect(both.status).toBe(200);
    expect(both.body.data).toMatchObject({ organization_id: null, person_id: 3 });
  });

  test('archive_reason rules and is_archived', async () => {
    const { call } = await boot();
    const l = await newLead(call);
    const early = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { archive_reason: 'No budget' } });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/^archive_reason: /);
    const arch = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { is_archived: true, archive_reason: 'No budget' } });
    expect(arch.body.data).toMatchObject({ is_archived: true, archive_reason: 'No budget' });
    // Already archived: since 2025-07-15 an archived lead is not editable, its reason included.
    const re = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { archive_reason: 'Went silent' } });
    expect([re.status, re.body.error]).toEqual([400, `id: lead ${l.id} is archived and cannot be changed; un-archive it first by sending is_archived false alone`]);
    const listed = (await call('GET', '/api/v1/leads/archived')).body.data.map((x: any) => x.id);
    expect(listed).toContain(l.id);
    expect((await call('GET', '/api/v1/leads')).body.data.map((x: any) => x.id)).not.toContain(l.id);
    expect((await call('PATCH', `/api/v1/leads/${l.id}`, { body: { is_archived: false, archive_reason: 'x' } })).status).toBe(400);
    const un = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { is_archived: false } });
    expect(un.body.data).toMatchObject({ is_archived: false, archive_reason: null });
  });

  test('custom field null removes the key; unknown lead is 404 with the lead body', async () => {
    const { call } = await boot();
    const l = await newLead(call, { [DEAL_FIELD_KEYS.leadScore]: 5 });
    const r = await call('PATCH', `/api/v1/leads/${l.id}`, { body: { [DEAL_FIELD_KEYS.leadScore]: null } });
    expect(DEAL_FIELD_KEYS.leadScore in r.body.data).toBe(false);
    const nf = await call('PATCH', '/api/v1/leads/00000000-0000-4000-8000-000000000000', { body: { title: 'x' } });
    expect(nf.status).toBe(404);
    expect(nf.body).toEqual({ success: false, error: 'requested lead not found', error_info: 'Object was not found.', data: null, additional_data: null });
  });
});

describe('delete, lists, visibility', () => {
  test('delete marks deleted: {id}; then 404; record kept in state', async () => {
    const { call, control } = await boot();
    const l = (await call('POST', '/api/v1/leads', { body: { title: 'bye', person_id: 1 } })).body.data;
    const d = await call('DELETE', `/api/v1/leads/${l.id}`);
    expect(d.body).toEqual({ success: true, data: { id: l.id }, additional_data: null });
    expect((await call('GET', `/api/v1/leads/${l.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/leads/${l.id}`)).status).toBe(404);
    const dump = (await control('GET', 'state/leads')).body;
    expect(dump.deleted.map((x: any) => x.id)).toContain(l.id);
    expect(dump.data.map((x: any) => x.id)).not.toContain(l.id);
  });

  test('list filters, updated_since, filter_id and multi-key sort', async () => {
    const { call } = await boot();
    const all = (await call('GET', '/api/v1/leads')).body.data;
    expect(all.every((l: any) => !l.is_archived)).toBe(true);
    const adds = all.map((l: any) => l.add_time);
    expect(adds).toEqual([...adds].sort()); // oldest first
    const own2 = (await call('GET', '/api/v1/leads?owner_id=2')).body.data;
    expect(own2.length).toBeGreaterThan(0);
    expect(own2.every((l: any) => l.owner_id === 2)).toBe(true);
    expect((await call('GET', '/api/v1/leads?person_id=1')).body.data.every((l: any) => l.person_id === 1)).toBe(true);
    expect((await call('GET', '/api/v1/leads?organization_id=2')).body.data.every((l: any) => l.organization_id === 2)).toBe(true);
    // filter_id wins over owner_id (filter 1 = owner Ada).
    const f = (await call('GET', '/api/v1/leads?filter_id=1&owner_id=2')).body.data;
    expect(f.length).toBeGreaterThan(0);
    expect(f.every((l: any) => l.owner_id === 1)).toBe(true);
    expect((await call('GET', '/api/v1/leads?filter_id=2')).status).toBe(400); // a deals filter
    const fresh = (await call('POST', '/api/v1/leads', { body: { title: 'Fresh', person_id: 1 } })).body.data;
    const since = (await call('GET', `/api/v1/leads?updated_since=${encodeURIComponent(fresh.update_time)}`)).body.data;
    expect(since.map((l: any) => l.id)).toEqual([fresh.id]);
    expect((await call('GET', '/api/v1/leads?updated_since=yesterday')).status).toBe(400);
    const sorted = (await call('GET', `/api/v1/leads?sort=${encodeURIComponent('owner_id DESC, title ASC')}`)).body.data;
    const keys = sorted.map((l: any) => [l.owner_id, l.title]);
    const expected = [...keys].sort((a: any, b: any) => b[0] - a[0] || a[1].localeCompare(b[1]));
    expect(keys).toEqual(expected);
    const bad = await call('GET', '/api/v1/leads?sort=password%20ASC');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('sort: field password is not sortable');
    expect((await call('GET', '/api/v1/leads/archived?sort=value%20ASC')).status).toBe(400);
    expect((await call('GET', '/api/v1/leads?limit=501')).status).toBe(400);
  });

  test('regular user: owner-only leads of others are hidden and forbidden', async () => {
    const { sb, call } = await boot();
    const reggie = sb.issueToken({ userId: 2 }).access_token;
    const sam = sb.issueToken({ userId: 3 }).access_token;
    const mine = (await call('POST', '/api/v1/leads', { token: reggie, body: { title: 'Private', person_id: 1, visible_to: 1 } })).body.data;
    const samList = (await call('GET', '/api/v1/leads', { token: sam })).body.data.map((l: any) => l.id);
    expect(samList).not.toContain(mine.id);
    expect((await call('GET', `/api/v1/leads/${mine.id}`, { token: sam })).status).toBe(403);
    expect((await call('GET', `/api/v1/leads/${mine.id}`)).status).toBe(200); // admin sees all
    const users = (await call('GET', `/api/v1/leads/${mine.id}/permittedUsers`)).body.data;
    expect(users.sort()).toEqual([1, 2]);
    const open = (await call('POST', '/api/v1/leads', { token: reggie, body: { title: 'Open', person_id: 1, visible_to: 3 } })).body.data;
    expect((await call('GET', `/api/v1/leads/${open.id}/permittedUsers`)).body.data.sort()).toEqual([1, 2, 3]);
  });
});

describe('search (v2)', () => {
  test('term rules, fields, exact match, cursor, result shape', async () => {
    const { call } = await boot();
    expect((await call('GET', '/api/v2/leads/search')).body.error).toBe('term: is required');
    expect((await call('GET', '/api/v2/leads/search?term=a')).status).toBe(400);
    expect((await call('GET', '/api/v2/leads/search?term=a&exact_match=true')).status).toBe(200);
    expect((await call('GET', '/api/v2/leads/search?term=ac&limit=101')).body.error).toBe('limit: must be at most 100');
    expect((await call('GET', '/api/v2/leads/search?term=ac&fields=email')).status).toBe(400);

    const r = await call('GET', '/api/v2/leads/search?term=acme');
    expect(r.status).toBe(200);
    const { items } = r.body.data;
    expect(items.length).toBeGreaterThan(0);
    const hit = items[0];
    expect(typeof hit.result_score).toBe('number');
    expect(hit.item).toMatchObject({ type: 'lead', title: expect.stringMatching(/acme/i), owner: { id: expect.any(Number) }, is_archived: false });
    expect(hit.item.person).toMatchObject({ id: 1, name: expect.any(String) });
    expect(r.body.additional_data).toEqual({ next_cursor: null });

    // Notes are searched: a demo note on the Acme lead mentions SSO.
    const notes = (await call('GET', '/api/v2/leads/search?term=SSO&fields=notes')).body.data.items;
    expect(notes).toHaveLength(1);
    expect(notes[0].item.notes[0]).toContain('SSO');
    expect((await call('GET', '/api/v2/leads/search?term=SSO&fields=title')).body.data.items).toHaveLength(0);

    // exact_match is case-insensitive equality on the whole value.
    const title = hit.item.title as string;
    const ex = (await call('GET', `/api/v2/leads/search?exact_match=true&term=${encodeURIComponent(title.toUpperCase())}`)).body.data.items;
    expect(ex.map((i: any) => i.item.id)).toEqual([hit.item.id]);
    expect((await call('GET', '/api/v2/leads/search?exact_match=true&term=acme')).body.data.items).toHaveLength(0);

    // Cursor paging over several hits.
    for (let i = 0; i < 3; i++) await call('POST', '/api/v1/leads', { body: { title: `Zeta batch ${i}`, person_id: 2 } });
    const p1 = (await call('GET', '/api/v2/leads/search?term=zeta&limit=2')).body;
    expect(p1.data.items).toHaveLength(2);
    expect(typeof p1.additional_data.next_cursor).toBe('string');
    const p2 = (await call('GET', `/api/v2/leads/search?term=zeta&limit=2&cursor=${p1.additional_data.next_cursor}`)).body;
    expect(p2.data.items).toHaveLength(1);
    expect(p2.additional_data.next_cursor).toBeNull();
    const ids = [...p1.data.items, ...p2.data.items].map((i: any) => i.item.id);
    expect(new Set(ids).size).toBe(3);
    expect((await call('GET', '/api/v2/leads/search?term=zeta&cursor=%%%')).status).toBe(400);
    // person filter
    expect((await call('GET', '/api/v2/leads/search?term=zeta&person_id=1')).body.data.items).toHaveLength(0);
  });
});
