// The success status of every table operation the vendor documents: the documented 2xx (201 for some
// creates, 200 for the rest) must be what the table expects (successStatus) and what the sandbox answers.
// The vendor documents live in ../shared; without them this file is skipped, loudly.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/api/operations/index.js';
import type { Operation } from '../../src/api/operation.js';
import { describeWithShared, NEEDS_OPENAPI } from '../helpers/interface-spec.js';
import { loadSpec, locate, operation } from '../helpers/openapi.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';


/** The documented success status of an operation (its only 2xx response), or undefined when undocumented. */
function documentedStatus(op: Operation): number | undefined {
  const where = locate(op.path);
  const vendor = operation(loadSpec(where.version), where.path, op.method);
  const codes = Object.keys((vendor?.responses ?? {}) as Record<string, unknown>).filter((c) => /^2\d\d$/.test(c));
  return codes.length ? Number(codes[0]) : undefined;
}

/**
 * One valid request per operation documented with 201, against the demo seed. Path ids: `{id}` of
 * the area's first live record (looked up below). A 201 operation without an entry here fails the
 * test, so a new one cannot slip by unchecked.
 */
type Sample = { body?: unknown; multipart?: boolean };
const SAMPLES: Record<string, (ids: Ids) => Sample> = {
  'POST /api/v1/leads': () => ({ body: { title: 'Status check', person_id: 1 } }),
  'POST /api/v1/webhooks': () => ({ body: { subscription_url: 'http://127.0.0.1:9/hook', event_action: 'create', event_object: 'deal', name: 'Status check' } }),
  'POST /api/v1/productFields': () => ({ body: { name: 'Status check', field_type: 'varchar' } }),
  'POST /api/v1/projects': (ids) => ({ body: { title: 'Status check', board_id: ids.board, phase_id: ids.phase } }),
  'POST /api/v1/tasks': (ids) => ({ body: { title: 'Status check', project_id: ids.project } }),
  'POST /api/v1/products/{id}/followers': () => ({ body: { user_id: 2 } }),
  'POST /api/v2/deals/{id}/followers': () => ({ body: { user_id: 2 } }),
  'POST /api/v2/persons/{id}/followers': () => ({ body: { user_id: 3 } }),
  'POST /api/v2/organizations/{id}/followers': () => ({ body: { user_id: 2 } }),
  'POST /api/v2/products/{id}/followers': () => ({ body: { user_id: 2 } }),
  'POST /api/v2/deals/{id}/products': (ids) => ({ body: { product_id: ids.product, item_price: 10, quantity: 1 } }),
  'POST /api/v2/deals/{id}/products/bulk': (ids) => ({ body: { data: [{ product_id: ids.product, item_price: 10, quantity: 1 }] } }),
  'POST /api/v2/deals/{id}/discounts': () => ({ body: { description: 'Status check', amount: 1, type: 'amount' } }),
  'POST /api/v2/products': () => ({ body: { name: 'Status check' } }),
  'POST /api/v2/products/{id}/duplicate': () => ({ body: {} }),
  'POST /api/v2/products/{id}/variations': () => ({ body: { name: 'Status check' } }),
  'POST /api/v2/products/{id}/images': () => ({ multipart: true }),
  'POST /api/v2/projects': (ids) => ({ body: { title: 'Status check', board_id: ids.board, phase_id: ids.phase } }),
  'POST /api/v2/tasks': (ids) => ({ body: { title: 'Status check', project_id: ids.project } }),
};

interface Ids { deal: number; person: number; org: number; product: number; project: number; board: number; phase: number }

/** The record a `{id}` in the path names: the first live one of the path's area. */
const AREA_ID: Array<[RegExp, keyof Ids]> = [[/\/deals\//, 'deal'], [/\/persons\//, 'person'], [/\/organizations\//, 'org'], [/\/products\//, 'product'], [/\/projects\//, 'project']];

describeWithShared(NEEDS_OPENAPI, 'success status: documents, tables and sandbox agree', () => {
  const documented = ALL_OPERATIONS.map((op) => ({ op, key: `${op.method} ${op.path}`, status: documentedStatus(op) }))
    .filter((r) => r.status !== undefined);

  it('every table operation expects the documented success status', () => {
    const wrong = documented.filter((r) => (r.op.successStatus ?? 200) !== r.status).map((r) => `${r.key}: table ${r.op.successStatus ?? 200}, documents ${r.status}`);
    expect(wrong).toEqual([]);
  });

  let fx: SandboxFixture;
  beforeAll(async () => { fx = await startFixture(); });
  afterAll(async () => fx?.close());

  const call = async (method: string, path: string, s: Sample = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}` };
    let body: BodyInit | undefined;
    if (s.multipart) {
      const form = new FormData();
      // A 1x1 PNG.
      form.append('data', new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')], { type: 'image/png' }), 'dot.png');
      body = form;
    } else if (s.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(s.body);
    }
    const res = await fetch(`${fx.sandbox.url}${path}`, { method, headers, body });
    return { status: res.status, body: await res.json().catch(() => null) as any };
  };

  it('the sandbox answers every documented-201 operation of the tables with 201', async () => {
    const first = async (path: string) => (await call('GET', path)).body.data[0].id as number;
    const project = await first('/api/v2/projects');
    const ids: Ids = {
      deal: await first('/api/v2/deals'), person: await first('/api/v2/persons'), org: await first('/api/v2/organizations'),
      product: await first('/api/v2/products'), project, board: await first('/api/v1/projects/boards'),
      phase: (await call('GET', `/api/v2/projects/${project}`)).body.data.phase_id,
    };
    const created = documented.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const { op, key } of created) {
      const sample = SAMPLES[key];
      if (!sample) { wrong.push(`${key}: no sample request in SAMPLES`); continue; }
      const path = op.path.replace('{id}', () => String(ids[AREA_ID.find(([re]) => re.test(op.path))?.[1] ?? 'deal']));
      const res = await call(op.method, path, sample(ids));
      if (res.status !== 201) wrong.push(`${key}: sandbox ${res.status} ${res.status >= 400 ? JSON.stringify(res.body?.error ?? res.body?.errors) : ''}`.trim());
    }
    expect(wrong).toEqual([]);
  });
});
