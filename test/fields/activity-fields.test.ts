import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { clientFor, expect400 } from './helpers.js';

let fx: SandboxFixture;
const { run, json, api, refused } = clientFor(() => fx);
type Field = { field_code: string; field_name: string; field_type: string; is_custom_field: boolean; options: Array<{ id: string | number; label: string }> | null; ui_visibility?: unknown };

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('activity-fields list', () => {
  it('lists system and custom fields; ui_visibility appears only when asked', async () => {
    const stored = await fx.collection<Field & { id: number }>('activityFields');
    const plain = await json(['activity-fields', 'list', '--all']);
    expect(plain.map((f: Field) => f.field_code)).toEqual(stored.map((f) => f.field_code));
    expect(plain.some((f: Field) => 'ui_visibility' in f || 'id' in f)).toBe(false);
    expect(plain.filter((f: Field) => f.is_custom_field).length).toBeGreaterThan(0);
    await fx.clearRequests();
    const withUi = await json(['activity-fields', 'list', '--include-fields', 'ui_visibility', '--limit', '3']);
    expect(withUi).toHaveLength(3);
    for (const f of withUi) expect(f.ui_visibility).toEqual({ add_visible_flag: expect.any(Boolean), details_visible_flag: expect.any(Boolean) });
    expect((await fx.requests()).map((q) => [q.method, q.path, q.query, q.cost])).toEqual([['GET', '/api/v2/activityFields', { include_fields: 'ui_visibility', limit: '3' }, 10]]);
  });

  it('TSV shows id (from the v1 list, the id a filter condition takes), field_code, field_name, field_type, is_custom_field', async () => {
    const all = await json(['activity-fields', 'list']);
    const v1 = new Map((await json(['activity-fields', 'list', '--v1'])).map((f: { key: string; id: number }) => [f.key, f.id]));
    await fx.clearRequests();
    const r = await run(['activity-fields', 'list', '--output', 'tsv']);
    expect(r.stdout).toBe(all.map((f: Field) => `${v1.get(f.field_code)}\t${f.field_code}\t${f.field_name}\t${f.field_type}\t${f.is_custom_field}\n`).join(''));
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/activityFields', 'GET /api/v1/activityFields']);
  });

  it('the sandbox pages with a cursor that ends with null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api('GET', `/api/v2/activityFields?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(5);
      seen.push(...res.body.data.map((f: Field) => f.field_code));
      cursor = res.body.additional_data.next_cursor;
      pages++;
    } while (cursor);
    const stored = await fx.collection<Field>('activityFields');
    expect(seen).toEqual(stored.map((f) => f.field_code));
    expect(pages).toBe(Math.ceil(stored.length / 5));
  });

  it('refuses an include the interface does not offer, and so does the sandbox', async () => {
    await refused(['activity-fields', 'list', '--include-fields', 'important_fields'], /--include-fields.*ui_visibility/);
    await refused(['activity-fields', 'list', '--limit', '0'], '--limit: must be a positive integer');
    expect400(await api('GET', '/api/v2/activityFields?include_fields=important_fields'), 'include_fields: must be one of ui_visibility');
    expect400(await api('GET', '/api/v2/activityFields?limit=501'), 'limit: must be at most 500');
  });
});

describe('activity-fields get', () => {
  it('shows one field by code; an unknown code exits 5', async () => {
    const f = await json(['activity-fields', 'get', 'due_date', '--include-fields', 'ui_visibility']);
    expect(f).toMatchObject({ field_code: 'due_date', field_type: 'date', is_custom_field: false, ui_visibility: { add_visible_flag: true, details_visible_flag: true } });
    const req = (await fx.requests()).at(-1)!;
    expect(req).toMatchObject({ method: 'GET', path: '/api/v2/activityFields/due_date', query: { include_fields: 'ui_visibility' }, cost: 1 });
    const r = await run(['activity-fields', 'get', 'nope']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Field not found');
  });

  it('the type field lists the live activity types as options (string ids = key_string)', async () => {
    await json(['activity-types', 'create', '--name', 'Webinar', '--icon-key', 'presentation']);
    const type = await json(['activity-fields', 'get', 'type']);
    expect(type.options).toContainEqual(expect.objectContaining({ id: 'webinar', label: 'Webinar' }));
    await json(['activity-types', 'delete', '1', '--yes']);
    expect((await json(['activity-fields', 'get', 'type'])).options.map((o: { id: string }) => o.id)).not.toContain('call');
  });

  it('needs the admin scope: activities:full is refused (403, exit 4)', async () => {
    const token = fx.sandbox.issueToken({ scopes: ['activities:full', 'contacts:full'] }).access_token;
    const r = await run(['activity-fields', 'list'], { env: { CRMCTL_ACCESS_TOKEN: token } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('admin');
    expect((await api('GET', '/api/v2/activityFields', undefined, token)).status).toBe(403);
  });
});
