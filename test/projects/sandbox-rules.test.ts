// The sandbox's own enforcement of the projects and phases rules, with requests the CLI
// would refuse to send: service-shaped 400/404/403 bodies naming the field and the rule.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_FIELD_KEYS as K } from '../../src/sandbox/handlers/projects.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
const call = async (method: string, path: string, body?: unknown, token = fx.env.CRMCTL_ACCESS_TOKEN) => {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(fx.sandbox.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
};
const expect400 = async (method: string, path: string, body: unknown, message: string) => {
  const r = await call(method, path, body);
  expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
  expect(r.body).toMatchObject({ success: false, data: null, additional_data: null });
  expect(r.body.error, JSON.stringify(body)).toContain(message);
  expect(typeof r.body.error_info).toBe('string');
};

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
});

describe('project create and update rules', () => {
  it('create answers 201 with the v2 record; failed creates leave nothing behind', async () => {
    const before = (await fx.collection('projects')).length;
    const cases: [unknown, string][] = [
      [{ board_id: 1 }, 'title: is required'],
      [{ title: '' }, 'title: must not be empty'],
      [{ title: 'x', colour: 'red' }, 'colour: is not a known field'],
      [{ title: 'x', status: 'deleted' }, 'status: must be one of open, completed, canceled'],
      [{ title: 'x', status: 'paused' }, 'status: must be one of open, completed, canceled'],
      [{ title: 'x', board_id: 9 }, 'board_id: board 9 does not exist'],
      [{ title: 'x', phase_id: 99 }, 'phase_id: phase 99 does not exist'],
      [{ title: 'x', board_id: 2, phase_id: 1 }, 'phase_id: phase 1 does not belong to board 2'],
      [{ title: 'x', owner_id: 77 }, 'owner_id: user 77 does not exist'],
      [{ title: 'x', deal_ids: [999] }, 'deal_ids: deal 999 does not exist'],
      [{ title: 'x', person_ids: 'a' }, 'person_ids: must be an array'],
      [{ title: 'x', end_date: '2025-13-01' }, 'end_date: must be a date in YYYY-MM-DD format'],
      [{ title: 'x', template_id: 42 }, 'template_id: project template 42 does not exist'],
      [{ title: 'x', custom_fields: [] }, 'custom_fields: must be an object'],
      [{ title: 'x', custom_fields: { ['f'.repeat(40)]: 1 } }, `custom_fields.${'f'.repeat(40)}: is not a project custom field`],
      [{ title: 'x', custom_fields: { [K.deliverables]: [] } }, `custom_fields.${K.deliverables}: an empty array is not supported for the multi-option field Deliverables; use null to clear the selection`],
      [{ title: 'x', custom_fields: { [K.deliverables]: [99] } }, `custom_fields.${K.deliverables}: must be option ids of Deliverables`],
      [{ title: 'x', custom_fields: { [K.region]: 7 } }, `custom_fields.${K.region}: must be one of the option ids of Delivery region`],
      [{ title: 'x', custom_fields: { [K.estimatedHours]: 'lots' } }, `custom_fields.${K.estimatedHours}: must be a number`],
      [{ title: 'x', custom_fields: { [K.goLive]: '01.02.2026' } }, `custom_fields.${K.goLive}: must be a date`],
      [{ title: 'x', custom_fields: { [`${K.contractValue}_currency`]: 'XXX' } }, `custom_fields.${K.contractValue}_currency: must be an active 3-letter currency code`],
      [{ title: 'x', custom_fields: { [`${K.region}_currency`]: 'EUR' } }, `custom_fields.${K.region}_currency: is not a project custom field`],
    ];
    for (const [body, msg] of cases) await expect400('POST', '/api/v2/projects', body, msg);
    expect((await fx.collection('projects')).length).toBe(before);
    const ok = await call('POST', '/api/v2/projects', { title: 'Valid', phase_id: 6, custom_fields: { [K.contractValue]: 500, [`${K.contractValue}_currency`]: 'USD', [K.region]: null } });
    expect(ok.status).toBe(201);
    // A phase alone brings its board; null values are not stored.
    expect(ok.body.data).toMatchObject({ title: 'Valid', board_id: 2, phase_id: 6, owner_id: 1, custom_fields: { [K.contractValue]: 500, [`${K.contractValue}_currency`]: 'USD' } });
    expect(ok.body.data.custom_fields).not.toHaveProperty(K.region);
  });

  it('update: template_id refused, phase must be on the project board, null clears a custom field, 404 for a missing project', async () => {
    await expect400('PATCH', '/api/v2/projects/1', { template_id: 1 }, 'template_id: is only used when creating a project');
    await expect400('PATCH', '/api/v2/projects/1', { phase_id: 5 }, 'phase_id: phase 5 does not belong to board 1');
    await expect400('PATCH', '/api/v2/projects/1', { custom_fields: { [K.deliverables]: [] } }, 'use null to clear the selection');
    await expect400('PATCH', '/api/v2/projects/1', { title: null }, 'title: must not be null');
    const cleared = await call('PATCH', '/api/v2/projects/1', { custom_fields: { [K.deliverables]: null, [K.estimatedHours]: 150 }, description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.custom_fields).not.toHaveProperty(K.deliverables);
    expect(cleared.body.data.custom_fields).toMatchObject({ [K.estimatedHours]: 150, [K.budgetCode]: 'ACME-2025-01' });
    expect(cleared.body.data.description).toBeNull();
    const missing = await call('PATCH', '/api/v2/projects/999', { title: 'x' });
    expect(missing).toEqual({ status: 404, body: { success: false, error: 'Entity was not found', error_info: 'Object was not found.', data: null, additional_data: null } });
    expect((await call('GET', '/api/v2/projects/abc')).status).toBe(404);
  });

  it('archive: archived projects leave the list, appear in the archived list (filters apply), archiving twice keeps the first time', async () => {
    const a = await call('POST', '/api/v2/projects/3/archive');
    expect(a.status).toBe(200);
    const time = a.body.data.archive_time;
    expect(typeof time).toBe('string');
    const again = await call('POST', '/api/v2/projects/3/archive');
    expect(again.body.data.archive_time).toBe(time);
    const listed = (await call('GET', '/api/v2/projects?status=completed')).body.data.map((p: { id: number }) => p.id);
    expect(listed).not.toContain(3);
    const archived = await call('GET', '/api/v2/projects/archived?status=completed');
    expect(archived.body.data.map((p: { id: number }) => p.id)).toEqual([3]);
    expect(archived.body.additional_data).toEqual({ next_cursor: null });
    expect((await call('GET', '/api/v2/projects/archived?phase_id=6')).body.data.map((p: { id: number }) => p.id)).toEqual([5]);
  });
});

describe('project list and search rules', () => {
  it('list: status values, limit max 500, filter type, cursor', async () => {
    await expect400('GET', '/api/v2/projects?status=archived', undefined, 'status: must be a comma-separated list of open, completed, canceled, deleted');
    await expect400('GET', '/api/v2/projects?limit=501', undefined, 'limit: must be at most 500');
    await expect400('GET', '/api/v2/projects?cursor=zzz', undefined, 'cursor: is not a valid cursor');
    const leadFilter = (await fx.collection<{ id: number; type: string }>('filters')).find((f) => f.type === 'leads')!;
    await expect400('GET', `/api/v2/projects?filter_id=${leadFilter.id}`, undefined, `filter_id: filter ${leadFilter.id} is a leads filter, not a projects filter`);
    const first = await call('GET', '/api/v2/projects?limit=2');
    expect(first.body.data).toHaveLength(2);
    const next = await call('GET', `/api/v2/projects?limit=2&cursor=${first.body.additional_data.next_cursor}`);
    expect(next.body.data[0].id).toBeGreaterThan(first.body.data[1].id);
  });

  it('search: term required and at least 2 characters (1 with exact_match), fields and limit (max 100) checked', async () => {
    await expect400('GET', '/api/v2/projects/search', undefined, 'term: is required');
    await expect400('GET', '/api/v2/projects/search?term=a', undefined, 'term: must be at least 2 characters (1 with exact_match)');
    await expect400('GET', '/api/v2/projects/search?term=ab&fields=owner', undefined, 'fields: must be a comma-separated list of custom_fields, notes, title, description');
    await expect400('GET', '/api/v2/projects/search?term=ab&limit=101', undefined, 'limit: must be at most 100');
    const one = await call('GET', '/api/v2/projects/search?term=a&exact_match=true');
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual({ items: [] });
    const byOrg = await call('GET', '/api/v2/projects/search?term=on&organization_id=2');
    expect(byOrg.body.data.items.map((i: { item: { id: number } }) => i.item.id)).toEqual([2]);
    const deleted = await call('GET', '/api/v2/projects/search?term=Wayne');
    expect(deleted.body.data.items).toEqual([]);
  });

  it('scopes: a projects:read token reads but cannot write (403 naming projects:full)', async () => {
    const ro = fx.sandbox.issueToken({ scopes: ['projects:read'] }).access_token;
    expect((await call('GET', '/api/v2/projects', undefined, ro)).status).toBe(200);
    const w = await call('POST', '/api/v2/projects', { title: 'x' }, ro);
    expect(w.status).toBe(403);
    expect(JSON.stringify(w.body)).toContain('projects:full');
    const p = await call('POST', '/api/v2/phases', { name: 'x', board_id: 1 }, ro);
    expect(p.status).toBe(403);
    const none = fx.sandbox.issueToken({ scopes: ['deals:read'] }).access_token;
    expect((await call('GET', '/api/v1/projects/1/tasks', undefined, none)).status).toBe(403);
  });

  it('sub-resources of a missing project are 404; v1 paths also answer under /v1', async () => {
    for (const sub of ['activities', 'groups', 'plan', 'tasks']) expect((await call('GET', `/api/v1/projects/999/${sub}`)).status).toBe(404);
    for (const sub of ['changelog', 'permittedUsers']) expect((await call('GET', `/api/v2/projects/999/${sub}`)).status).toBe(404);
    const v1 = await call('GET', '/v1/projects/1/groups');
    expect(v1.status).toBe(200);
    expect(v1.body.data.map((g: { name: string }) => g.name)).toEqual(['Site A', 'Site B']);
  });
});

describe('phase rules', () => {
  it('list needs an existing board_id; create needs name and board_id, order_nr 1..n+1', async () => {
    await expect400('GET', '/api/v2/phases', undefined, 'board_id: is required');
    await expect400('GET', '/api/v2/phases?board_id=9', undefined, 'board_id: board 9 does not exist');
    await expect400('POST', '/api/v2/phases', { board_id: 1 }, 'name: is required');
    await expect400('POST', '/api/v2/phases', { name: 'x' }, 'board_id: is required');
    await expect400('POST', '/api/v2/phases', { name: 'x', board_id: 9 }, 'board_id: board 9 does not exist');
    await expect400('POST', '/api/v2/phases', { name: 'x', board_id: 1, order_nr: 0 }, 'order_nr: must be at least 1');
    await expect400('POST', '/api/v2/phases', { name: 'x', board_id: 1, order_nr: 6 }, 'order_nr: must be between 1 and 5 (board 1 has 4 other phases)');
    await expect400('POST', '/api/v2/phases', { name: 'x', board_id: 1, color: 'red' }, 'color: is not a known field');
    const ok = await call('POST', '/api/v2/phases', { name: 'Last', board_id: 1, order_nr: 5 });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ name: 'Last', board_id: 1, order_nr: 5 });
  });

  it('update: range counts the other phases of the target board; empty body refused; 404 for a missing phase', async () => {
    await expect400('PATCH', '/api/v2/phases/2', { order_nr: 5 }, 'order_nr: must be between 1 and 4 (board 1 has 3 other phases)');
    await expect400('PATCH', '/api/v2/phases/2', { board_id: 2, order_nr: 5 }, 'order_nr: must be between 1 and 4 (board 2 has 3 other phases)');
    await expect400('PATCH', '/api/v2/phases/2', {}, 'body: give at least one of name, board_id, order_nr');
    expect((await call('PATCH', '/api/v2/phases/99', { name: 'x' })).status).toBe(404);
    const moved = await call('PATCH', '/api/v2/phases/2', { board_id: 2 });
    expect(moved.body.data).toMatchObject({ board_id: 2, order_nr: 4 });
    const left = (await call('GET', '/api/v2/phases?board_id=1')).body.data.map((p: { name: string; order_nr: number }) => `${p.name}:${p.order_nr}`);
    expect(left).toEqual(['Kick-off:1', 'Implementation:2', 'Go-live:3']);
  });

  it('delete refuses a phase holding projects; a deleted phase is gone from the list and from project placement', async () => {
    await expect400('DELETE', '/api/v2/phases/3', undefined, 'id: phase 3 still holds 1 project (1); move them to another phase first');
    // Phase 2 holds a canceled project; phase 1 only a status-deleted one, which does not count.
    await expect400('DELETE', '/api/v2/phases/2', undefined, 'id: phase 2 still holds 1 project (4)');
    const del = await call('DELETE', '/api/v2/phases/1');
    expect(del).toEqual({ status: 200, body: { success: true, data: { id: 1 }, additional_data: null } });
    const names = (await call('GET', '/api/v2/phases?board_id=1')).body.data.map((p: { name: string; order_nr: number }) => `${p.name}:${p.order_nr}`);
    expect(names).toEqual(['Planning:1', 'Implementation:2', 'Go-live:3']);
    expect((await call('DELETE', '/api/v2/phases/1')).status).toBe(404);
    await expect400('POST', '/api/v2/projects', { title: 'x', phase_id: 1 }, 'phase_id: phase 1 does not exist');
    const state = await fetch(`${fx.sandbox.url}/__sandbox/state/projectPhases`).then((r) => r.json() as Promise<{ deleted: unknown[] }>);
    expect(JSON.stringify(state.deleted)).toContain('"id":1');
  });
});
