// Interface, Limits: "Found leads or persons per linked person or organization: 2000" (lead search,
// person search; the vendor's documents say the same of deal search by person, organization and
// status). A search narrowed by such a link finds at most 2000 records, however many match.
import { describe, expect, test } from 'vitest';
import type { SandboxState } from '../../src/sandbox/store/state.js';
import { boot, type Res } from './helpers.js';

type Call = (method: string, path: string) => Promise<Res>;

/** Every item of a search, following the cursor. */
async function found(call: Call, path: string): Promise<Array<{ item: { id: number | string } }>> {
  const out: Array<{ item: { id: number | string } }> = [];
  let cursor: string | null = null;
  do {
    const r = await call('GET', `${path}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.data.items);
    cursor = r.body.additional_data.next_cursor;
  } while (cursor);
  return out;
}

function addLeads(state: SandboxState, n: number, link: { person_id: number | null; organization_id: number | null }): void {
  const t = new Date().toISOString();
  for (let i = 0; i < n; i++) {
    state.leads.insert({
      id: crypto.randomUUID(), title: `Bulkfind lead ${i}`, owner_id: 1, creator_id: 1, label_ids: [], ...link, source_name: 'API', origin: 'API',
      origin_id: null, channel: null, channel_id: null, source_deal_id: null, is_archived: false, archive_reason: null, was_seen: false, value: null,
      expected_close_date: null, next_activity_id: null, add_time: t, update_time: t, visible_to: '3', cc_email: '',
    }, { silent: true });
  }
}

describe('at most 2000 found per linked person or organization', () => {
  test('lead search by person_id finds 2000 of a person\'s 2005 matching leads (v2 and v1); by organization_id too', async () => {
    const { sb, call } = await boot({ seed: 'demo' });
    addLeads(sb.state, 2005, { person_id: 2, organization_id: null });
    addLeads(sb.state, 2003, { person_id: null, organization_id: 4 });
    expect(await found(call, '/api/v2/leads/search?term=bulkfind&person_id=2')).toHaveLength(2000);
    expect(await found(call, '/api/v2/leads/search?term=bulkfind&organization_id=4')).toHaveLength(2000);
    const v1 = await call('GET', '/api/v1/leads/search?term=bulkfind&person_id=2&start=1990&limit=100');
    expect([v1.body.data.items.length, v1.body.additional_data.pagination.more_items_in_collection]).toEqual([10, false]);
    // Not narrowed by a link: no such cap.
    expect(await found(call, '/api/v2/leads/search?term=bulkfind')).toHaveLength(4008);
  });

  test('deal search by person_id stops at 2000 as well; without the link all are found', async () => {
    const { sb, call } = await boot({ seed: 'empty' });
    const t = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const person = sb.state.persons.insert({ name: 'Pat Bulk', first_name: 'Pat', last_name: 'Bulk', owner_id: 1, org_id: null, emails: [], phones: [], add_time: t, update_time: t, is_deleted: false, visible_to: 3, label_ids: [], picture_id: null, custom_fields: {} }, { silent: true });
    const stage = sb.state.stages.all()[0]!;
    for (let i = 0; i < 2002; i++) {
      sb.state.deals.insert({
        title: `Bulkfind deal ${i}`, owner_id: 1, creator_user_id: 1, person_id: person.id, org_id: null, pipeline_id: stage.pipeline_id, stage_id: stage.id,
        value: 0, currency: 'EUR', add_time: t, update_time: t, stage_change_time: null, is_deleted: false, is_archived: false, status: 'open', probability: null,
        lost_reason: null, visible_to: 3, close_time: null, won_time: null, lost_time: null, expected_close_date: null, label_ids: [], origin: 'API', origin_id: null,
        channel: null, channel_id: null, source_lead_id: null, custom_fields: {},
      } as never, { silent: true });
    }
    expect(await found(call, `/api/v2/deals/search?term=bulkfind&person_id=${person.id}`)).toHaveLength(2000);
    expect(await found(call, '/api/v2/deals/search?term=bulkfind')).toHaveLength(2002);
  });
});
