import { expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/api/operations/index.js';
import { describeWithShared, NEEDS_OPENAPI, NEEDS_VENDOR_INDEX } from '../helpers/interface-spec.js';
import { jsonSchemaOf } from '../../src/input/json-schema.js';
import { loadSpec, locate, operation, queryParamNames, responseSchema, validate, vendorIndex } from '../helpers/openapi.js';
import { startFixture } from '../helpers/sandbox.js';

/**
 * Operations the interface keeps but the vendor's current documents no longer list.
 * Subscriptions were retired from the live service (SDK 29.0.0); the interface wins (docs/subscriptions.md).
 */
const INTERFACE_ONLY = new Set([
  'GET /v1/subscriptions/{id}',
  'GET /v1/subscriptions/find/{dealId}',
  'GET /v1/subscriptions/{id}/payments',
  'POST /v1/subscriptions/recurring',
  'POST /v1/subscriptions/installment',
  'PUT /v1/subscriptions/recurring/{id}',
  'PUT /v1/subscriptions/installment/{id}',
  'PUT /v1/subscriptions/recurring/{id}/cancel',
  'DELETE /v1/subscriptions/{id}',
  // The v1 person list/detail/collection/activities/deals were dropped from the vendor's v1 document
  // in 2026-03 (SDK 32.x, "use /api/v2"); the interface still lists them, so crmctl keeps them.
  'GET /v1/persons',
  'GET /v1/persons/collection',
  'GET /v1/persons/{id}',
  'GET /v1/persons/{id}/activities',
  'GET /v1/persons/{id}/deals',
]);

/**
 * Places where the vendor's schema contradicts its own description, and the sandbox follows the
 * description: next_cursor "will be null if you have reached the end" but the schema omits nullable.
 */
const SCHEMA_TOLERATED = [/^\$\.additional_data\.next_cursor: null but not nullable$/];

/** Operations whose cost the interface states differently from the vendor index: the interface wins. */
const COST_FROM_INTERFACE = new Set<string>([]);

/** Query parameters the interface names that the vendor documents do not (the interface decides). */
const INTERFACE_ONLY_QUERY = new Set<string>([]);

describeWithShared([...NEEDS_OPENAPI, ...NEEDS_VENDOR_INDEX], 'operation tables conform to the vendor OpenAPI documents', () => {
  const rows = ALL_OPERATIONS.map((op) => ({ op, key: `${op.method} ${op.path}` }));

  it('every operation exists there with the same method and path (or is interface-only, listed above)', () => {
    const missing = rows
      .filter(({ op, key }) => {
        const where = locate(op.path);
        return !operation(loadSpec(where.version), where.path, op.method) && !INTERFACE_ONLY.has(key);
      })
      .map(({ key }) => key);
    expect(missing).toEqual([]);
  });

  it('every query parameter of the tables exists there', () => {
    const unknown: string[] = [];
    for (const { op, key } of rows) {
      if (!op.query || INTERFACE_ONLY.has(key)) continue;
      const where = locate(op.path);
      const vendor = operation(loadSpec(where.version), where.path, op.method);
      if (!vendor) continue;
      const names = new Set(queryParamNames(loadSpec(where.version), vendor));
      for (const q of Object.keys(jsonSchemaOf(op.query).properties ?? {})) if (!names.has(q) && !INTERFACE_ONLY_QUERY.has(`${key} ${q}`)) unknown.push(`${key}: ${q}`);
    }
    expect(unknown).toEqual([]);
  });

  it('cost and scopes are the vendor index\'s (where the interface states a cost, interface-coverage checks it)', () => {
    const index = new Map(vendorIndex().map((e) => [`${e.method} ${e.path.replace(/^\/api\/v1\//, '/v1/')}`, e]));
    const wrong: string[] = [];
    for (const { op, key } of rows) {
      const e = index.get(`${op.method} ${op.path.replace(/^\/api\/v1\//, '/v1/')}`);
      if (!e) continue;
      if (op.cost !== null && op.cost !== e.cost && !COST_FROM_INTERFACE.has(key)) wrong.push(`${key}: cost ${op.cost}, vendor ${e.cost}`);
      if ([...op.scopes].sort().join(' ') !== [...e.scopes].sort().join(' ')) wrong.push(`${key}: scopes ${op.scopes.join(' ')}, vendor ${e.scopes.join(' ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the sandbox answers leads and lead-label operations with bodies that validate against the vendor schemas', async () => {
    const fx = await startFixture();
    try {
      const auth = { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' };
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${fx.sandbox.url}${path}`, { method, headers: auth, body: body ? JSON.stringify(body) : undefined });
        return { status: res.status, body: await res.json() };
      };
      const check = async (method: string, iface: string, actual: string, body?: unknown) => {
        const res = await call(method, actual, body);
        const where = locate(iface);
        const spec = loadSpec(where.version);
        const op = operation(spec, where.path, method)!;
        const schema = responseSchema(spec, op, String(res.status)) ?? responseSchema(spec, op, '200');
        expect(schema, `${method} ${iface} has a schema for ${res.status}`).toBeTruthy();
        const problems = validate(spec, schema, res.body).filter((p) => !SCHEMA_TOLERATED.some((t) => t.test(p)));
        expect(problems, `${method} ${actual}`).toEqual([]);
        return res.body;
      };
      const labels = await check('GET', '/api/v1/leadLabels', '/api/v1/leadLabels');
      const label = await check('POST', '/api/v1/leadLabels', '/api/v1/leadLabels', { name: 'Conformance', color: 'green' });
      await check('PATCH', '/api/v1/leadLabels/{id}', `/api/v1/leadLabels/${label.data.id}`, { color: 'blue' });
      const list = await check('GET', '/api/v1/leads', '/api/v1/leads?limit=2');
      expect(list.data.length).toBe(2);
      const lead = await check('POST', '/api/v1/leads', '/api/v1/leads', { title: 'Conformance lead', person_id: 1, label_ids: [labels.data[0].id], value: { amount: 10, currency: 'EUR' } });
      await check('GET', '/api/v1/leads/{id}', `/api/v1/leads/${lead.data.id}`);
      await check('PATCH', '/api/v1/leads/{id}', `/api/v1/leads/${lead.data.id}`, { title: 'Renamed' });
      await check('GET', '/api/v1/leads/archived', '/api/v1/leads/archived');
      await check('GET', '/api/v1/leads/{id}/permittedUsers', `/api/v1/leads/${lead.data.id}/permittedUsers`);
      await check('GET', '/api/v2/leads/search', '/api/v2/leads/search?term=acme');
      const conv = await check('POST', '/api/v2/leads/{id}/convert/deal', `/api/v2/leads/${lead.data.id}/convert/deal`, {});
      await check('GET', '/api/v2/leads/{id}/convert/status/{conversion_id}', `/api/v2/leads/${lead.data.id}/convert/status/${conv.data.conversion_id}`);
      const other = await call('POST', '/api/v1/leads', { title: 'To delete', organization_id: 1 });
      await check('DELETE', '/api/v1/leads/{id}', `/api/v1/leads/${other.body.data.id}`);
      await check('DELETE', '/api/v1/leadLabels/{id}', `/api/v1/leadLabels/${label.data.id}`);
    } finally {
      await fx.close();
    }
  });
});
