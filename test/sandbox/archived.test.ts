// Issue 29.14 (sandbox side): since 2025-07-15 archived deals and leads are absent from the plain lists
// (deals v2, deals summary and timeline, linked-deal lists, v1 leads) and are not editable; the archived
// endpoints serve them, and un-archiving (is_archived false, alone) is the one change left.
import { describe, expect, test } from 'vitest';
import { boot } from './helpers.js';

const REFUSED = (noun: string, id: string | number) => ({
  success: false, error: `id: ${noun} ${id} is archived and cannot be changed; un-archive it first by sending is_archived false alone`,
});

describe('archived deals', () => {
  test('the demo seed has one; it is served by the archived list only: not by the v2 list, summary, timeline or a person\'s deals', async () => {
    const { sb, call } = await boot({ seed: 'demo' });
    const archived = sb.state.deals.filter((d) => d.is_archived);
    expect(archived.map((d) => d.title)).toEqual(['Wayne kiosk trial']);
    const deal = archived[0]!;
    const ids = async (path: string) => ((await call('GET', path)).body.data as Array<{ id: number }>).map((d) => d.id);
    expect(await ids('/api/v2/deals?limit=500')).not.toContain(deal.id);
    expect(await ids(`/api/v2/deals?limit=500&person_id=${deal.person_id}`)).not.toContain(deal.id);
    expect(await ids(`/api/v2/deals?limit=500&ids=${deal.id}`)).toEqual([]);
    expect(await ids('/api/v2/deals/archived?limit=500')).toEqual([deal.id]);
    expect(await ids(`/v1/persons/${deal.person_id}/deals`)).not.toContain(deal.id);
    const live = sb.state.deals.filter((d) => !d.is_archived);
    expect((await call('GET', '/api/v1/deals/summary')).body.data.total_count).toBe(live.length);
    const timeline = (await call('GET', '/api/v1/deals/timeline?start_date=2025-01-01&interval=quarter&amount=4&field_key=add_time')).body.data as Array<{ deals: Array<{ id: number }> }>;
    expect(timeline.flatMap((p) => p.deals.map((d) => d.id))).not.toContain(deal.id);
    expect(timeline.reduce((n, p) => n + p.deals.length, 0)).toBeGreaterThan(0);
    // The record itself is still there to read.
    expect((await call('GET', `/api/v2/deals/${deal.id}`)).body.data).toMatchObject({ id: deal.id, is_archived: true });
  });

  test('an archived deal is not editable (400); is_archived false alone un-archives it, and then it is editable and listed again', async () => {
    const { sb, call } = await boot({ seed: 'demo' });
    const deal = sb.state.deals.find((d) => d.is_archived)!;
    for (const body of [{ title: 'Renamed' }, { is_archived: false, title: 'Renamed' }, { is_archived: true }, { status: 'open' }]) {
      const r = await call('PATCH', `/api/v2/deals/${deal.id}`, { body });
      expect([JSON.stringify(body), r.status, r.body]).toEqual([JSON.stringify(body), 400, expect.objectContaining(REFUSED('deal', deal.id))]);
    }
    expect(sb.state.deals.get(deal.id)).toMatchObject({ title: 'Wayne kiosk trial', is_archived: true });
    const back = await call('PATCH', `/api/v2/deals/${deal.id}`, { body: { is_archived: false } });
    expect([back.status, back.body.data.is_archived, back.body.data.archive_time]).toEqual([200, false, null]);
    expect((await call('PATCH', `/api/v2/deals/${deal.id}`, { body: { title: 'Renamed' } })).body.data.title).toBe('Renamed');
    expect(((await call('GET', '/api/v2/deals?limit=500')).body.data as Array<{ id: number }>).map((d) => d.id)).toContain(deal.id);
  });

  test('a deal archived through PATCH leaves a product\'s deal list', async () => {
    const { call } = await boot({ seed: 'demo' });
    const deal = (await call('POST', '/api/v2/deals', { body: { title: 'Archive me' } })).body.data;
    expect((await call('POST', `/api/v2/deals/${deal.id}/products`, { body: { product_id: 1, item_price: 10, quantity: 1 } })).status).toBe(201);
    const productDeals = async () => ((await call('GET', '/api/v1/products/1/deals')).body.data as Array<{ id: number }>).map((d) => d.id);
    expect(await productDeals()).toContain(deal.id);
    expect((await call('PATCH', `/api/v2/deals/${deal.id}`, { body: { is_archived: true } })).body.data.is_archived).toBe(true);
    expect(await productDeals()).not.toContain(deal.id);
  });
});

describe('archived leads', () => {
  test('not in GET /v1/leads; not editable (400), archive_reason included; is_archived false alone un-archives and clears the reason', async () => {
    const { sb, call } = await boot({ seed: 'demo' });
    const lead = sb.state.leads.find((l) => l.is_archived)!;
    expect(((await call('GET', '/api/v1/leads?limit=500')).body.data as Array<{ id: string }>).map((l) => l.id)).not.toContain(lead.id);
    expect(((await call('GET', '/api/v1/leads/archived?limit=500')).body.data as Array<{ id: string }>).map((l) => l.id)).toContain(lead.id);
    for (const body of [{ title: 'Renamed' }, { archive_reason: 'Other reason' }, { is_archived: true }, { is_archived: false, title: 'Renamed' }]) {
      const r = await call('PATCH', `/api/v1/leads/${lead.id}`, { body });
      expect([JSON.stringify(body), r.status, r.body]).toEqual([JSON.stringify(body), 400, expect.objectContaining(REFUSED('lead', lead.id))]);
    }
    const back = await call('PATCH', `/api/v1/leads/${lead.id}`, { body: { is_archived: false } });
    expect([back.status, back.body.data.is_archived, back.body.data.archive_reason]).toEqual([200, false, null]);
    expect((await call('PATCH', `/api/v1/leads/${lead.id}`, { body: { title: 'Renamed' } })).body.data.title).toBe('Renamed');
  });
});
