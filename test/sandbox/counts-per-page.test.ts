// Persons' and organizations' counts (include_fields) on a list page come from lookups built once per page
// (src/sandbox/engine/page-index.ts). They must say what one record's GET says, and follow deals that move.
import { describe, expect, it } from 'vitest';
import { boot } from './helpers.js';

const PERSON_COUNTS = 'open_deals_count,closed_deals_count,won_deals_count,related_open_deals_count,participant_open_deals_count,followers_count,activities_count';
const ORG_COUNTS = 'open_deals_count,won_deals_count,related_open_deals_count,people_count,followers_count';
const pick = (r: Record<string, unknown>, keys: string) => Object.fromEntries(keys.split(',').map((k) => [k, r[k]]));

describe('counts on a list page', () => {
  it('are what each record\'s GET says, and follow deals that move between persons and organizations', async () => {
    const { call } = await boot({ seed: 'empty' });
    const id = async (path: string, body: unknown) => ((await call('POST', path, { body })).body as { data: { id: number } }).data.id;
    const acme = await id('/api/v2/organizations', { name: 'Acme' });
    const globex = await id('/api/v2/organizations', { name: 'Globex' });
    const ann = await id('/api/v2/persons', { name: 'Ann', org_id: acme });
    const bob = await id('/api/v2/persons', { name: 'Bob', org_id: globex });
    const d1 = await id('/api/v2/deals', { title: 'One', person_id: ann, org_id: acme });
    await id('/api/v2/deals', { title: 'Two', person_id: ann, org_id: acme, status: 'won' });
    await id('/api/v2/deals', { title: 'Three', person_id: bob, org_id: globex });
    expect((await call('POST', `/api/v1/deals/${d1}/participants`, { body: { person_id: bob } })).status).toBe(200);

    const page = async (kind: string, keys: string) => {
      const r = await call('GET', `/api/v2/${kind}?include_fields=${keys}&limit=500`);
      expect(r.status).toBe(200);
      return new Map((r.body.data as Array<Record<string, unknown>>).map((x) => [x.id as number, pick(x, keys)]));
    };
    const one = async (kind: string, keys: string, rid: number) => pick((await call('GET', `/api/v2/${kind}/${rid}?include_fields=${keys}`)).body.data, keys);

    let persons = await page('persons', PERSON_COUNTS);
    expect(persons.get(ann)).toMatchObject({ open_deals_count: 1, won_deals_count: 1, closed_deals_count: 1, related_open_deals_count: 0 });
    expect(persons.get(bob)).toMatchObject({ open_deals_count: 1, participant_open_deals_count: 1 });
    expect((await page('organizations', ORG_COUNTS)).get(acme)).toMatchObject({ open_deals_count: 1, won_deals_count: 1, people_count: 1 });

    // Deal One moves from Ann (Acme) to Bob (Globex); Ann joins Globex.
    expect((await call('PATCH', `/api/v2/deals/${d1}`, { body: { person_id: bob, org_id: globex } })).status).toBe(200);
    expect((await call('PATCH', `/api/v2/persons/${ann}`, { body: { org_id: globex } })).status).toBe(200);
    persons = await page('persons', PERSON_COUNTS);
    expect(persons.get(ann)).toMatchObject({ open_deals_count: 0, won_deals_count: 1, related_open_deals_count: 2 });
    // Bob owns deal One now: as its participant he no longer counts it apart.
    expect(persons.get(bob)).toMatchObject({ open_deals_count: 2, participant_open_deals_count: 0, related_open_deals_count: 0 });
    const orgs = await page('organizations', ORG_COUNTS);
    expect(orgs.get(acme)).toMatchObject({ open_deals_count: 0, won_deals_count: 1, people_count: 0, related_open_deals_count: 0 });
    expect(orgs.get(globex)).toMatchObject({ open_deals_count: 2, won_deals_count: 0, people_count: 2 });
    for (const [pid, counts] of persons) expect(counts).toEqual(await one('persons', PERSON_COUNTS, pid));
    for (const [oid, counts] of orgs) expect(counts).toEqual(await one('organizations', ORG_COUNTS, oid));
  });
});
