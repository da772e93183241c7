// Lead labels CRUD and the asynchronous lead-to-deal conversion.
import { describe, expect, test } from 'vitest';
import { boot, until } from './helpers.js';

describe('lead labels', () => {
  test('list has the default labels, unpaginated', async () => {
    const { call } = await boot({ seed: 'empty' });
    const r = await call('GET', '/api/v1/leadLabels');
    expect(r.body.data.map((l: any) => [l.name.toLowerCase(), l.color])).toEqual([['hot', 'red'], ['cold', 'blue'], ['warm', 'yellow']]);
    expect(r.body.additional_data).toBeNull();
  });

  test('create / patch only sent fields / delete, with validation', async () => {
    const { call } = await boot();
    expect((await call('POST', '/api/v1/leadLabels', { body: { color: 'red' } })).body.error).toBe('name: is required');
    expect((await call('POST', '/api/v1/leadLabels', { body: { name: 'VIP' } })).body.error).toBe('color: is required');
    const badColor = await call('POST', '/api/v1/leadLabels', { body: { name: 'VIP', color: 'magenta' } });
    expect(badColor.status).toBe(400);
    expect(badColor.body.error).toContain('color: must be one of blue, brown, dark-gray, gray, green, orange, pink, purple, red, yellow');
    const c = await call('POST', '/api/v1/leadLabels', { body: { name: 'VIP', color: 'purple' } });
    expect(c.status).toBe(200);
    expect(c.body.data).toMatchObject({ name: 'VIP', color: 'purple' });
    const id = c.body.data.id;
    const p = await call('PATCH', `/api/v1/leadLabels/${id}`, { body: { color: 'dark-gray' } });
    expect(p.body.data).toMatchObject({ id, name: 'VIP', color: 'dark-gray' });
    expect((await call('PATCH', `/api/v1/leadLabels/${id}`, { body: { colour: 'red' } })).status).toBe(400);
    // Label in use: deleting it removes it from leads.
    const lead = (await call('POST', '/api/v1/leads', { body: { title: 'L', person_id: 1, label_ids: [id] } })).body.data;
    const d = await call('DELETE', `/api/v1/leadLabels/${id}`);
    expect(d.body).toEqual({ success: true, data: { id }, additional_data: null });
    expect((await call('GET', `/api/v1/leads/${lead.id}`)).body.data.label_ids).toEqual([]);
    expect((await call('GET', '/api/v1/leadLabels')).body.data.map((l: any) => l.id)).not.toContain(id);
    const nf = await call('PATCH', `/api/v1/leadLabels/${id}`, { body: { name: 'again' } });
    expect(nf.status).toBe(404);
    expect((await call('DELETE', `/api/v1/leadLabels/${id}`)).status).toBe(404);
  });
});

describe('convert lead to deal', () => {
  test('job goes not_started -> completed; deal created, notes moved, lead deleted', async () => {
    const { sb, call, control } = await boot({ conversionDelayMs: 150 });
    const lead = (await call('GET', '/api/v1/leads')).body.data.find((l: any) => l.title.startsWith('Acme'));
    const notesBefore = sb.state.notes.filter((n) => n.lead_id === lead.id).map((n) => n.id);
    expect(notesBefore.length).toBeGreaterThan(0);
    const start = await call('POST', `/api/v2/leads/${lead.id}/convert/deal`, { body: { pipeline_id: 2 } });
    expect(start.status).toBe(200);
    const convId = start.body.data.conversion_id;
    expect(start.body).toEqual({ success: true, data: { conversion_id: convId }, additional_data: null });
    const first = (await call('GET', `/api/v2/leads/${lead.id}/convert/status/${convId}`)).body.data;
    expect(first.status).toBe('not_started');
    expect('deal_id' in first).toBe(false);
    const seen = new Set<string>([first.status]);
    const done = await until(async () => {
      const s = (await call('GET', `/api/v2/leads/${lead.id}/convert/status/${convId}`)).body.data;
      seen.add(s.status);
      return s.status === 'completed' ? s : undefined;
    });
    expect(seen.has('running')).toBe(true);
    expect(done).toMatchObject({ conversion_id: convId, status: 'completed', deal_id: expect.any(Number) });
    const deal = (await control('GET', 'state/deals')).body.data.find((d: any) => d.id === done.deal_id);
    const stage2 = sb.state.stages.filter((s) => s.pipeline_id === 2).sort((a, b) => a.order_nr - b.order_nr)[0]!;
    expect(deal).toMatchObject({ title: lead.title, value: lead.value.amount, currency: lead.value.currency, person_id: lead.person_id,
      org_id: lead.organization_id, pipeline_id: 2, stage_id: stage2.id, status: 'open', source_lead_id: lead.id });
    for (const id of notesBefore) expect(sb.state.notes.get(id)).toMatchObject({ lead_id: null, deal_id: done.deal_id });
    expect((await call('GET', `/api/v1/leads/${lead.id}`)).status).toBe(404);
    // Converting again: the lead is gone.
    const again = await call('POST', `/api/v2/leads/${lead.id}/convert/deal`, {});
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, error: 'Entity was not found', error_info: 'Object was not found.', data: null, additional_data: null });
  });

  test('stage_id wins over pipeline_id; default is first stage of default pipeline; bad ids are 400', async () => {
    const { call } = await boot({ conversionDelayMs: 10 });
    const leads = (await call('GET', '/api/v1/leads')).body.data;
    const run = async (leadId: string, body: unknown) => {
      const c = (await call('POST', `/api/v2/leads/${leadId}/convert/deal`, { body })).body.data.conversion_id;
      const s = await until(async () => { const x = (await call('GET', `/api/v2/leads/${leadId}/convert/status/${c}`)).body.data; return x.status === 'completed' && x; });
      return (await call('GET', '/__sandbox/state/deals', { token: null })).body.data.find((d: any) => d.id === s.deal_id);
    };
    expect(await run(leads[0].id, { stage_id: 4, pipeline_id: 2 })).toMatchObject({ stage_id: 4, pipeline_id: 1 });
    expect(await run(leads[1].id, undefined)).toMatchObject({ stage_id: 1, pipeline_id: 1 });
    expect((await call('POST', `/api/v2/leads/${leads[2].id}/convert/deal`, { body: { stage_id: 999 } })).body.error).toBe('stage_id: stage 999 does not exist');
    expect((await call('POST', `/api/v2/leads/${leads[2].id}/convert/deal`, { body: { pipeline_id: 999 } })).body.error).toBe('pipeline_id: pipeline 999 does not exist');
    expect((await call('POST', `/api/v2/leads/${leads[2].id}/convert/deal`, { body: { stage: 1 } })).status).toBe(400);
  });

  test('two conversions of one lead: the second fails', async () => {
    const { call } = await boot({ conversionDelayMs: 30 });
    const lead = (await call('GET', '/api/v1/leads')).body.data[0];
    const a = (await call('POST', `/api/v2/leads/${lead.id}/convert/deal`, {})).body.data.conversion_id;
    const b = (await call('POST', `/api/v2/leads/${lead.id}/convert/deal`, {})).body.data.conversion_id;
    const final = async (c: string) => until(async () => {
      const s = (await call('GET', `/api/v2/leads/${lead.id}/convert/status/${c}`)).body.data;
      return ['completed', 'failed'].includes(s.status) && s;
    });
    expect((await final(a)).status).toBe('completed');
    const sb2 = await final(b);
    expect(sb2.status).toBe('failed');
    expect('deal_id' in sb2).toBe(false);
    // Status under a different lead id is 404.
    const other = (await call('GET', '/api/v1/leads')).body.data[0];
    expect((await call('GET', `/api/v2/leads/${other.id}/convert/status/${a}`)).status).toBe(404);
  });

  test('events: deal create, note change, lead delete', async () => {
    const { sb, call } = await boot({ conversionDelayMs: 10 });
    const events: any[] = [];
    sb.state.events.on((e) => events.push(e));
    const lead = (await call('GET', '/api/v1/leads')).body.data[0];
    const c = (await call('POST', `/api/v2/leads/${lead.id}/convert/deal`, {})).body.data.conversion_id;
    await until(async () => (await call('GET', `/api/v2/leads/${lead.id}/convert/status/${c}`)).body.data.status === 'completed');
    const kinds = events.map((e) => `${e.action}.${e.object}`);
    expect(kinds).toContain('create.deal');
    expect(kinds).toContain('change.note');
    expect(kinds).toContain('delete.lead');
    const del = events.find((e) => e.action === 'delete' && e.object === 'lead');
    expect(del).toMatchObject({ id: lead.id, data: null, userId: 1 });
    expect(del.previous.title).toBe(lead.title);
  });
});
