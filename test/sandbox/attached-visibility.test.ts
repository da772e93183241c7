// Issue 29.10: what is attached to an item (notes and their comments, activities, files) is seen only
// by who may see that item: a user who gets 403 on a lead gets 403 on its notes, does not find them in
// lists, cannot attach to it, and that user's webhooks get no events for them.
import { afterEach, describe, expect, test } from 'vitest';
import { recorder } from '../webhooks/helpers.js';
import { boot, until } from './helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => { for (const c of closers.splice(0)) await c(); });

/** A sandbox with a lead and a deal of Sam (user 3) visible to their owner only, and Reggie's (user 2) token. */
async function hiddenItems() {
  const b = await boot({ seed: 'demo' });
  const { sb, call } = b;
  const lead = (await call('POST', '/api/v1/leads', { body: { title: 'Sam only', person_id: 1, owner_id: 3, visible_to: '1' } })).body.data;
  const deal = (await call('POST', '/api/v2/deals', { body: { title: 'Sam only deal', owner_id: 3, visible_to: 1 } })).body.data;
  const reggie = sb.issueToken({ userId: 2 }).access_token;
  const sam = sb.issueToken({ userId: 3 }).access_token;
  expect((await call('GET', `/api/v1/leads/${lead.id}`, { token: reggie })).status).toBe(403);
  expect((await call('GET', `/api/v2/deals/${deal.id}`, { token: reggie })).status).toBe(403);
  return { ...b, lead, deal, reggie, sam };
}

const ids = (rows: Array<{ id: number | string }>) => rows.map((r) => r.id);

describe('notes and comments follow the item they are attached to', () => {
  test('a note on a lead the user may not see: 403 on get, update, delete and its comments; left out of every list', async () => {
    const { call, lead, reggie, sam } = await hiddenItems();
    const note = (await call('POST', '/api/v1/notes', { body: { content: 'secret terms', lead_id: lead.id } })).body.data;
    const comment = (await call('POST', `/api/v1/notes/${note.id}/comments`, { body: { content: 'agreed' } })).body.data;
    for (const [method, path, body] of [
      ['GET', `/api/v1/notes/${note.id}`], ['PUT', `/api/v1/notes/${note.id}`, { content: 'mine now' }], ['DELETE', `/api/v1/notes/${note.id}`],
      ['GET', `/api/v1/notes/${note.id}/comments`], ['GET', `/api/v1/notes/${note.id}/comments/${comment.id}`],
      ['POST', `/api/v1/notes/${note.id}/comments`, { content: 'me too' }],
    ] as const) {
      const r = await call(method, path, { token: reggie, ...(body ? { body } : {}) });
      expect([method, path, r.status, r.body.success]).toEqual([method, path, 403, false]);
    }
    expect(ids((await call('GET', `/api/v1/notes?lead_id=${lead.id}`, { token: reggie })).body.data)).toEqual([]);
    expect(ids((await call('GET', '/api/v1/notes?limit=500', { token: reggie })).body.data)).not.toContain(note.id);
    // Nor can the user attach a note to it.
    expect((await call('POST', '/api/v1/notes', { token: reggie, body: { content: 'hello', lead_id: lead.id } })).status).toBe(403);
    // The owner and the admin still see it, unchanged.
    expect((await call('GET', `/api/v1/notes/${note.id}`, { token: sam })).body.data.content).toBe('secret terms');
    expect(ids((await call('GET', `/api/v1/notes?lead_id=${lead.id}`)).body.data)).toEqual([note.id]);
  });

  test('a note on a visible person and a hidden deal is hidden; moving a visible note onto the hidden deal is refused', async () => {
    const { call, deal, reggie } = await hiddenItems();
    const both = (await call('POST', '/api/v1/notes', { body: { content: 'both', person_id: 2, deal_id: deal.id } })).body.data;
    expect((await call('GET', `/api/v1/notes/${both.id}`, { token: reggie })).status).toBe(403);
    expect(ids((await call('GET', '/api/v1/notes?person_id=2', { token: reggie })).body.data)).not.toContain(both.id);
    const mine = (await call('POST', '/api/v1/notes', { token: reggie, body: { content: 'mine', person_id: 2 } })).body.data;
    expect((await call('PUT', `/api/v1/notes/${mine.id}`, { token: reggie, body: { deal_id: deal.id } })).status).toBe(403);
    expect((await call('GET', `/api/v1/notes/${mine.id}`, { token: reggie })).body.data.deal_id).toBeNull();
  });
});

describe('activities and files follow the item they are attached to', () => {
  test('an activity on a hidden lead and a file on a hidden deal: 403 on read, left out of lists, no attaching', async () => {
    const { call, lead, deal, reggie } = await hiddenItems();
    const act = (await call('POST', '/api/v2/activities', { body: { subject: 'Secret call', lead_id: lead.id } })).body.data;
    expect((await call('GET', `/api/v2/activities/${act.id}`, { token: reggie })).status).toBe(403);
    expect((await call('PATCH', `/api/v2/activities/${act.id}`, { token: reggie, body: { subject: 'x' } })).status).toBe(403);
    expect(ids((await call('GET', '/api/v2/activities?limit=500', { token: reggie })).body.data)).not.toContain(act.id);
    expect((await call('POST', '/api/v2/activities', { token: reggie, body: { subject: 'Mine', deal_id: deal.id } })).status).toBe(403);

    const file = (await call('POST', '/api/v1/files/remote', { body: { file_type: 'gdoc', title: 'Secret terms', item_type: 'deal', item_id: deal.id, remote_location: 'googledrive' } })).body.data;
    expect((await call('GET', `/api/v1/files/${file.id}`, { token: reggie })).status).toBe(403);
    expect((await call('GET', `/api/v1/files/${file.id}/download`, { token: reggie })).status).toBe(403);
    expect(ids((await call('GET', '/api/v1/files?limit=100', { token: reggie })).body.data)).not.toContain(file.id);
    expect((await call('GET', `/api/v1/files/${file.id}`)).status).toBe(200);
  });
});

describe('webhook deliveries follow the item too', () => {
  test("a webhook of Reggie gets create.note for a visible lead's note, not for the hidden lead's; Sam's webhook gets both", async () => {
    const { call, control, lead, sb } = await hiddenItems();
    const forReggie = await recorder();
    const forSam = await recorder();
    closers.push(forReggie.close, forSam.close);
    for (const [user, url] of [[2, forReggie.url], [3, forSam.url]] as const) {
      const r = await call('POST', '/api/v1/webhooks', { body: { name: `u${user}`, subscription_url: url, event_action: 'create', event_object: 'note', user_id: user } });
      expect(r.status).toBe(201);
    }
    const visibleLead = sb.state.leads.find((l) => l.visible_to !== '1' && !l.is_archived)!;
    const hidden = (await call('POST', '/api/v1/notes', { body: { content: 'secret', lead_id: lead.id } })).body.data;
    const shown = (await call('POST', '/api/v1/notes', { body: { content: 'open', lead_id: visibleLead.id } })).body.data;
    await until(async () => { const s = (await control('GET', 'deliveries')).body.data; return s.outstanding === 0 && s.delivered === 3 ? s : undefined; }, 10_000);
    const got = (r: typeof forReggie) => r.got.map((g) => (g.body as { meta: { entity_id: string } }).meta.entity_id).sort();
    expect(got(forReggie)).toEqual([String(shown.id)]);
    expect(got(forSam)).toEqual([String(hidden.id), String(shown.id)].sort());
    // permitted_user_ids of the hidden note name who may see it: the admin and the lead's owner.
    const samHidden = forSam.got.find((g) => (g.body as { meta: { entity_id: string } }).meta.entity_id === String(hidden.id))!;
    expect((samHidden.body as { meta: { permitted_user_ids: string[] } }).meta.permitted_user_ids).toEqual(['1', '3']);
  });
});
