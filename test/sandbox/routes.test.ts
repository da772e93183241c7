// The registered lead/label operations are exactly the interface's, with its costs and scopes.
import { expect, test } from 'vitest';
import { boot } from './helpers.js';

const INTERFACE: [string, string, number][] = [
  ['GET', '/api/v1/leads', 20], ['GET', '/api/v1/leads/{id}', 2], ['GET', '/api/v2/leads/{id}/convert/status/{conversion_id}', 1],
  ['GET', '/api/v1/leads/{id}/permittedUsers', 10], ['GET', '/api/v1/leads/archived', 40], ['GET', '/api/v2/leads/search', 20],
  ['POST', '/api/v1/leads', 10], ['POST', '/api/v2/leads/{id}/convert/deal', 40], ['PATCH', '/api/v1/leads/{id}', 10],
  ['DELETE', '/api/v1/leads/{id}', 6], ['GET', '/api/v1/leadLabels', 10], ['POST', '/api/v1/leadLabels', 10],
  ['PATCH', '/api/v1/leadLabels/{id}', 10], ['DELETE', '/api/v1/leadLabels/{id}', 6],
];
/** Lead operations the vendor's documents add to the interface's (lead fields, sources, the v1 search). */
const VENDOR: [string, string, number][] = [
  ['GET', '/api/v1/leadFields', 20], ['GET', '/api/v1/leadSources', 2], ['GET', '/api/v1/leads/search', 40],
];

test('lead and label routes match the interface tables', async () => {
  const { control } = await boot();
  const routes = (await control('GET', 'routes')).body.data as { method: string; path: string; cost: number; scopes: string[] }[];
  const leadRoutes = routes.filter((r) => /^\/api\/v\d\/lead/.test(r.path));
  expect(leadRoutes.map((r) => [r.method, r.path, r.cost]).sort()).toEqual([...INTERFACE, ...VENDOR].sort());
  for (const r of leadRoutes.filter((x) => !VENDOR.some(([m, p]) => m === x.method && p === x.path))) {
    expect(r.scopes).toContain('leads:full');
    if (r.method !== 'GET') expect(r.scopes).toEqual(['leads:full']);
  }
});

test('v1 routes take form bodies too; v2 routes only JSON', async () => {
  const { call } = await boot();
  const f = await call('POST', '/v1/leadLabels', { form: true, body: { name: 'Form', color: 'orange' } });
  expect(f.status).toBe(200);
  expect(f.body.data).toMatchObject({ name: 'Form', color: 'orange' });
  const lead = (await call('GET', '/api/v1/leads')).body.data[0];
  const v2 = await call('POST', `/api/v2/leads/${lead.id}/convert/deal`, { form: true, body: { stage_id: '1' } });
  expect(v2.status).toBe(415);
  expect(v2.body.success).toBe(false);
});
