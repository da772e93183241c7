// Every search of the sandbox checks its term the one way the service does (interface, Limits: at least
// 2 characters, 1 with exact_match; surrounding spaces do not count) and says so in the same words, and
// ranks with the one scorer: the leads, persons and projects searches included.
import { describe, expect, test } from 'vitest';
import { boot } from './helpers.js';

const SEARCHES = [
  '/api/v2/leads/search', '/api/v1/leads/search', '/api/v2/persons/search', '/api/v2/projects/search',
  '/api/v2/deals/search', '/api/v2/organizations/search', '/api/v2/products/search', '/api/v2/itemSearch',
];

describe('search terms', () => {
  test('a short term is refused with the same message by every search', async () => {
    const { call } = await boot();
    for (const path of SEARCHES) {
      const short = await call('GET', `${path}?term=${encodeURIComponent(' a ')}`);
      expect([path, short.status, short.body.error]).toEqual([path, 400, 'term: must be at least 2 characters (1 with exact_match)']);
      const empty = await call('GET', `${path}?term=${encodeURIComponent(' ')}&exact_match=true`);
      expect([path, empty.status, empty.body.error]).toEqual([path, 400, 'term: must be at least 1 character']);
      const missing = await call('GET', path);
      expect([path, missing.status, missing.body.error]).toEqual([path, 400, 'term: is required']);
      const field = await call('GET', `${path}?term=ab&fields=nope`);
      expect([path, field.status]).toEqual([path, 400]);
      expect(field.body.error).toMatch(/^fields: must be a comma-separated list of /);
    }
  });

  test('leads, persons and projects find by the trimmed term and rank a title/name match above a note match', async () => {
    const { call } = await boot();
    const person = (await call('POST', '/api/v2/persons', { body: { name: 'Zebulon Quartz' } })).body.data;
    const other = (await call('POST', '/api/v2/persons', { body: { name: 'Someone Else' } })).body.data;
    expect((await call('POST', '/api/v1/notes', { body: { content: '<p>met zebulon quartz</p>', person_id: other.id } })).body.success).toBe(true);
    const r = await call('GET', `/api/v2/persons/search?term=${encodeURIComponent('  zebulon quartz ')}`);
    expect(r.status).toBe(200);
    expect(r.body.data.items.map((i: { item: { id: number } }) => i.item.id)).toEqual([person.id, other.id]);
    expect(r.body.data.items[1].item.notes).toEqual(['met zebulon quartz']);

    const lead = (await call('POST', '/api/v1/leads', { body: { title: 'Quartzite deal', person_id: person.id } })).body.data;
    const leads = await call('GET', `/api/v2/leads/search?term=${encodeURIComponent(' quartzite ')}`);
    expect(leads.body.data.items.map((i: { item: { id: string } }) => i.item.id)).toEqual([lead.id]);

    const project = (await call('POST', '/api/v1/projects', { body: { title: 'Quartzite rollout', board_id: 1, phase_id: 1 } })).body.data;
    const projects = await call('GET', `/api/v2/projects/search?term=${encodeURIComponent(' quartzite ')}`);
    expect(projects.body.data.items.map((i: { item: { id: number } }) => i.item.id)).toEqual([project.id]);
  });
});
