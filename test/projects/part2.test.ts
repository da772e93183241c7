// The whole account, part 2: tasks (v2 and v1), boards, project templates, the v1 project and phase
// forms, project deletion and plan placement, organization relationships, user settings and
// connections, billing add-ons and meeting-provider links. Each test checks the output, the requests
// that reached the sandbox and the state left behind.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { tools } from '../persons/helpers.js';

let fx: SandboxFixture;
const { run, json, tsv, api, refused } = tools(() => fx);
const sent = async () => (await fx.requests()).map((q) => `${q.method} ${q.path} ${q.status}`);

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('tasks', () => {
  it('a subtask sits under a root task of the same project; done stamps the time; deleting the parent deletes its subtasks', async () => {
    const parent = await json(['tasks', 'create', '--title', 'Go-live', '--project-id', '1']);
    const sub = await json(['tasks', 'create', '--title', 'Cut-over', '--project-id', '1', '--parent-task-id', String(parent.id), '--assignee-ids', '2']);
    expect(sub).toMatchObject({ parent_task_id: parent.id, project_id: 1, is_done: false, assignee_ids: [2], marked_as_done_time: null });
    const done = await json(['tasks', 'update', String(sub.id), '--done', '1']);
    expect(done.is_done).toBe(true);
    expect(done.marked_as_done_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const r = await run(['tasks', 'create', '--title', 'Too deep', '--project-id', '1', '--parent-task-id', String(sub.id)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`parent_task_id: task ${sub.id} is a subtask itself; subtasks have one level`);
    expect(await json(['tasks', 'list', '--parent-task-id', String(parent.id)])).toEqual([expect.objectContaining({ id: sub.id })]);
    await fx.clearRequests();
    await json(['tasks', 'delete', String(parent.id), '--yes']);
    // The task is read first: the record of the delete keeps what an undo creates again.
    expect(await sent()).toEqual([`GET /api/v2/tasks/${parent.id} 200`, `DELETE /api/v2/tasks/${parent.id} 200`]);
    expect((await api(`/api/v2/tasks/${sub.id}`)).status).toBe(404);
  });

  it('the v1 form is the same record in v1 names and times', async () => {
    const t = await json(['tasks', 'create', '--v1', '--title', 'Training', '--project-id', '1', '--done', '1']);
    expect(t).toMatchObject({ title: 'Training', project_id: 1, done: 1 });
    expect(t.add_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await sent()).toEqual(['POST /api/v1/tasks 201']);
    const v2 = (await api(`/api/v2/tasks/${t.id}`)).body.data;
    expect(v2).toMatchObject({ id: t.id, is_done: true });
    const list = await json(['tasks', 'list', '--v1', '--project-id', '1', '--done', '1']);
    expect(list.map((x: { id: number }) => x.id)).toContain(t.id);
    expect(list.every((x: { done: number }) => x.done === 1)).toBe(true);
  });

  it('a task of a project that does not exist is refused by the sandbox; a blank title before sending', async () => {
    const r = await run(['tasks', 'create', '--title', 'x', '--project-id', '999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('project_id: no project with id 999');
    await refused(['tasks', 'create', '--project-id', '1'], '--title');
  });
});

describe('boards, templates, v1 projects and phases', () => {
  it('boards: create at a position renumbers the others; a board holding projects cannot be deleted', async () => {
    const b = await json(['boards', 'create', '--name', 'Renewals', '--order-nr', '1']);
    expect(await tsv(['boards', 'list'])).toBe(`${b.id}\tRenewals\t1\n1\tDelivery\t2\n2\tCustomer success\t3\n`);
    const r = await run(['boards', 'delete', '1', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/id: board 1 holds \d+ projects? \(/);
    await json(['boards', 'delete', String(b.id), '--yes']);
    expect(await tsv(['boards', 'list', '--v1'])).toBe('1\tDelivery\t1\n2\tCustomer success\t2\n');
    expect((await json(['boards', 'get', '2', '--v1'])).name).toBe('Customer success');
  });

  it('project templates in both forms', async () => {
    const v2 = await json(['project-templates', 'list']);
    expect(v2.map((t: { title: string }) => t.title)).toEqual(['Standard onboarding', 'Integration project']);
    expect(v2[0].add_time).toMatch(/Z$/);
    const v1 = await json(['project-templates', 'get', String(v2[0].id), '--v1']);
    expect(v1).toMatchObject({ id: v2[0].id, title: 'Standard onboarding', projects_board_id: v2[0].projects_board_id });
    expect(v1.add_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('v1 projects: org_id and labels are the v2 lists; delete marks the project deleted; v1 phases', async () => {
    const p = await json(['projects', 'create', '--v1', '--title', 'Rollout', '--board-id', '1', '--phase-id', '1', '--org-id', '2']);
    expect(p).toMatchObject({ title: 'Rollout', org_id: 2, person_id: null, board_id: 1 });
    expect((await api(`/api/v2/projects/${p.id}`)).body.data.org_ids).toEqual([2]);
    await json(['projects', 'delete', String(p.id), '--yes']);
    expect((await api(`/api/v2/projects/${p.id}`)).body.data.status).toBe('deleted');
    expect((await json(['projects', 'list'])).map((x: { id: number }) => x.id)).not.toContain(p.id);
    const phases = await json(['phases', 'list', '--v1', '--board-id', '1']);
    expect(phases.map((x: { order_nr: number }) => x.order_nr)).toEqual(phases.map((_: unknown, i: number) => i + 1));
    expect(await sent()).toContain('GET /api/v1/projects/phases 200');
  });

  it('plan-task places a task of the project in a phase of its board; a phase of another board is refused', async () => {
    const t = await json(['tasks', 'create', '--title', 'Plan me', '--project-id', '1']);
    const project = (await api('/api/v2/projects/1')).body.data;
    const phases = (await api(`/api/v2/phases?board_id=${project.board_id}`)).body.data as Array<{ id: number }>;
    const placed = await json(['projects', 'plan-task', '1', String(t.id), '--phase-id', String(phases[1]!.id)]);
    expect(placed).toEqual({ item_id: t.id, item_type: 'task', phase_id: phases[1]!.id, group_id: null });
    const plan = await json(['projects', 'plan', '1']);
    expect(plan).toContainEqual(expect.objectContaining({ item_id: t.id, item_type: 'task', phase_id: phases[1]!.id }));
    const other = (await api(`/api/v2/phases?board_id=${project.board_id === 1 ? 2 : 1}`)).body.data[0].id;
    const r = await run(['projects', 'plan-task', '1', String(t.id), '--phase-id', String(other)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`phase_id: phase ${other} is not a phase of board ${project.board_id}`);
  });
});

describe('every other new form once: the request that reached the sandbox and the answer', () => {
  it('v1 project get/update/archive, v1 phase get, v1 task get/update/delete, v2 board get/update, relationship get, plan-activity', async () => {
    const p = await json(['projects', 'get', '1', '--v1']);
    expect(p).toMatchObject({ id: 1, board_id: expect.any(Number) });
    expect(p.add_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await json(['projects', 'update', '1', '--v1', '--title', 'Renamed in v1', '--labels', '1'])).toMatchObject({ id: 1, title: 'Renamed in v1', labels: [1] });
    expect((await api('/api/v2/projects/1')).body.data).toMatchObject({ title: 'Renamed in v1', label_ids: [1] });
    const archived = await json(['projects', 'archive', '1', '--v1']);
    expect(archived.archive_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const phase = await json(['phases', 'get', '1', '--v1']);
    expect(phase).toMatchObject({ id: 1, order_nr: expect.any(Number) });
    const t = await json(['tasks', 'create', '--title', 'v1 me', '--project-id', '2']);
    expect(await json(['tasks', 'get', String(t.id), '--v1'])).toMatchObject({ id: t.id, done: 0, project_id: 2 });
    expect(await json(['tasks', 'update', String(t.id), '--v1', '--title', 'v1 renamed', '--done', '1'])).toMatchObject({ title: 'v1 renamed', done: 1 });
    await json(['tasks', 'delete', String(t.id), '--v1', '--yes']);
    expect((await api(`/api/v2/tasks/${t.id}`)).status).toBe(404);
    expect(await json(['boards', 'get', '1'])).toMatchObject({ id: 1, name: 'Delivery' });
    expect(await json(['boards', 'update', '1', '--name', 'Delivery (EU)'])).toMatchObject({ id: 1, name: 'Delivery (EU)', order_nr: 1 });
    const rel = await json(['organizations', 'relationships', 'create', '--type', 'related', '--rel-owner-org-id', '3', '--rel-linked-org-id', '4']);
    expect(await json(['organizations', 'relationships', 'get', String(rel.id), '--org-id', '4'])).toMatchObject({ id: rel.id, calculated_type: 'related', calculated_related_org_id: 3 });
    const project = (await api('/api/v2/projects/1')).body.data;
    const phases = (await api(`/api/v2/phases?board_id=${project.board_id}`)).body.data as Array<{ id: number }>;
    const act = fx.sandbox.state.activities.all().find((a) => a.project_id === 1);
    expect(act, 'the demo seed has an activity on project 1').toBeDefined();
    expect(await json(['projects', 'plan-activity', '1', String(act!.id), '--phase-id', String(phases[0]!.id)])).toEqual({ item_id: act!.id, item_type: 'activity', phase_id: phases[0]!.id, group_id: expect.anything() });
    expect((await fx.requests()).filter((q) => q.method !== 'GET').map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([
      'PUT /api/v1/projects/1 200', 'POST /api/v1/projects/1/archive 200', 'POST /api/v2/tasks 201', `PUT /api/v1/tasks/${t.id} 200`,
      `DELETE /api/v1/tasks/${t.id} 200`, 'PATCH /api/v2/boards/1 200', 'POST /api/v1/organizationRelationships 200', `PUT /api/v1/projects/1/plan/activities/${act!.id} 200`,
    ]);
  });
});

describe('organization relationships', () => {
  it('a parent relationship reads as daughter from the parent and parent from the daughter; one parent only', async () => {
    const rel = await json(['organizations', 'relationships', 'create', '--type', 'parent', '--rel-owner-org-id', '1', '--rel-linked-org-id', '2']);
    expect(rel).toMatchObject({ type: 'parent', calculated_type: 'daughter', calculated_related_org_id: 2, related_organization_name: 'Globex Industries' });
    const fromChild = await json(['organizations', 'relationships', 'list', '--org-id', '2']);
    expect(fromChild).toEqual([expect.objectContaining({ id: rel.id, calculated_type: 'parent', calculated_related_org_id: 1, related_organization_name: 'Acme Corporation' })]);
    const again = await run(['organizations', 'relationships', 'create', '--type', 'parent', '--rel-owner-org-id', '3', '--rel-linked-org-id', '2']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('rel_linked_org_id: organization 2 already has a parent');
    const changed = await json(['organizations', 'relationships', 'update', String(rel.id), '--type', 'related']);
    expect(changed.calculated_type).toBe('related');
    await json(['organizations', 'relationships', 'delete', String(rel.id), '--yes']);
    expect(await json(['organizations', 'relationships', 'list', '--org-id', '1'])).toEqual([]);
  });

  it('--org-id is required before sending', async () => {
    await refused(['organizations', 'relationships', 'list'], '--org-id');
  });
});

describe('user settings and connections, billing add-ons, meeting-provider links', () => {
  it('reads answer for the token\'s user and company', async () => {
    expect(await json(['users', 'settings'])).toMatchObject({ list_limit: 100, file_upload_destination: 'pipedrive' });
    expect(await json(['users', 'connections'])).toEqual({ google: 'google-1' });
    expect(await json(['billing', 'addons'])).toEqual([{ code: 'leadbooster_v2' }, { code: 'campaigns_v2' }]);
    expect(await sent()).toEqual(['GET /api/v1/userSettings 200', 'GET /api/v1/userConnections 200', 'GET /api/v1/billing/subscriptions/addons 200']);
  });

  it('a provider link is saved and removed; a wrong company is refused; unlinking twice is a 404', async () => {
    const uuid = '1e3943c8-6c06-4b0d-a5e0-1d4e4fa0fb9b';
    const company = fx.sandbox.state.company.id;
    const bad = await run(['meetings', 'link-provider', '--user-provider-id', uuid, '--user-id', '1', '--company-id', String(company + 1), '--marketplace-client-id', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`company_id: must be this company's id (${company})`);
    expect(await json(['meetings', 'link-provider', '--user-provider-id', uuid, '--user-id', '1', '--company-id', String(company), '--marketplace-client-id', 'abc'])).toEqual({ message: 'The user was added successfully' });
    expect((await fx.collection('meetingProviderLinks')).map((l) => (l as { user_id: number }).user_id)).toEqual([1]);
    expect(await json(['meetings', 'unlink-provider', uuid, '--yes'])).toEqual({ message: 'The user was successfully unlinked' });
    const twice = await run(['meetings', 'unlink-provider', uuid, '--yes']);
    expect(twice.code).toBe(5);
  });
});
