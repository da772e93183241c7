// Issue 29.13: webhooks v2 objects added on 2026-04-10 (api-facts §11): project, task, board, phase,
// deal_product, deal_installment. The CLI offers them (v2 only: with --payload-version 1.0 it refuses,
// as the sandbox does); the sandbox delivers their create, change and delete, and deleting a project
// fires its tasks' delete events too.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, recorder, until } from './helpers.js';

let fx: SandboxFixture;
const run = (args: string[]) => runCli(args, { env: fx.env });
const direct = (method: string, path: string, body?: unknown) => api(fx.sandbox.url, fx.env.CRMCTL_ACCESS_TOKEN!, method, path, body);
const settled = () => until(async () => ((await (await fetch(`${fx.sandbox.url}/__sandbox/deliveries`)).json()) as { data: { outstanding: number } }).data.outstanding === 0);
const NEW = ['project', 'task', 'board', 'phase', 'deal_product', 'deal_installment'];

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('webhooks create --object offers the 2026 objects (version 2.0 only)', () => {
  it.each(NEW)('--object %s is sent and created', async (object) => {
    const r = await run(['webhooks', 'create', '--name', object, '--url', 'http://127.0.0.1:9/x', '--action', '*', '--object', object, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toMatchObject({ event_object: object, version: '2.0' });
    // Beside users/me (read once for the token: the write is recorded as a run of this account), the create only.
    const sent = (await fx.requests()).filter((q) => q.path !== '/api/v1/users/me');
    expect(sent.map((q) => [q.method, q.path, q.status, (q.body as { event_object: string }).event_object])).toEqual([['POST', '/api/v1/webhooks', 201, object]]);
  });

  it('with --payload-version 1.0 they are refused before sending (exit 2), and the sandbox refuses them too', async () => {
    const r = await run(['webhooks', 'create', '--name', 'x', '--url', 'http://127.0.0.1:9/x', '--action', '*', '--object', 'task', '--payload-version', '1.0']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'error: --object: task is delivered only by webhooks of version 2.0 (drop --payload-version 1.0)\n' });
    expect(await fx.requests()).toEqual([]);
    const raw = await direct('POST', '/api/v1/webhooks', { name: 'x', subscription_url: 'http://127.0.0.1:9/x', event_action: '*', event_object: 'task', version: '1.0' });
    expect(raw).toEqual({ status: 400, body: { status: 'error', success: false, errors: { event_object: ['task is delivered only by webhooks of version 2.0'] } } });
  });
});

describe('the sandbox delivers the 2026 objects', () => {
  it('create, change and delete of boards, phases, projects, tasks, deal products and installments; a project\'s deletion deletes its tasks', async () => {
    const v2 = await recorder();
    const v1 = await recorder();
    try {
      expect((await direct('POST', '/api/v1/webhooks', { name: 'all', subscription_url: v2.url, event_action: '*', event_object: '*' })).status).toBe(201);
      expect((await direct('POST', '/api/v1/webhooks', { name: 'old', subscription_url: v1.url, event_action: '*', event_object: '*', version: '1.0' })).status).toBe(201);

      const board = (await direct('POST', '/api/v2/boards', { name: 'Hooks board' })).body.data;
      const phase = (await direct('POST', '/api/v2/phases', { name: 'Hooks phase', board_id: board.id })).body.data;
      await direct('PATCH', `/api/v2/phases/${phase.id}`, { name: 'Hooks phase, renamed' });
      const project = (await direct('POST', '/api/v2/projects', { title: 'Hooks project', board_id: board.id, phase_id: phase.id })).body.data;
      await direct('PATCH', `/api/v2/projects/${project.id}`, { title: 'Hooks project, renamed' });
      const task = (await direct('POST', '/api/v2/tasks', { title: 'Parent task', project_id: project.id })).body.data;
      const sub = (await direct('POST', '/api/v2/tasks', { title: 'Subtask', project_id: project.id, parent_task_id: task.id })).body.data;
      expect((await direct('PATCH', `/api/v2/tasks/${task.id}`, { title: 'Parent task, renamed' })).status).toBe(200);

      const deal = (await direct('POST', '/api/v2/deals', { title: 'Hooks deal' })).body.data;
      const line = (await direct('POST', `/api/v2/deals/${deal.id}/products`, { product_id: 1, item_price: 100, quantity: 2 })).body.data;
      const inst = (await direct('POST', `/api/v2/deals/${deal.id}/installments`, { description: 'First half', amount: 100, billing_date: '2026-06-01' })).body.data;
      expect([line?.id, inst?.id].every((x) => typeof x === 'number')).toBe(true);
      await direct('PATCH', `/api/v2/deals/${deal.id}/installments/${inst.id}`, { amount: 120 });
      await direct('DELETE', `/api/v2/deals/${deal.id}/installments/${inst.id}`);
      await direct('DELETE', `/api/v2/deals/${deal.id}/products/${line.id}`);

      expect((await direct('DELETE', `/api/v2/projects/${project.id}`)).status).toBe(200);
      await settled();

      const seen = v2.got.map((g) => g.body as { meta: { action: string; entity: string; entity_id: string } })
        .filter((b) => NEW.includes(b.meta.entity)).map((b) => `${b.meta.action}.${b.meta.entity}.${b.meta.entity_id}`);
      for (const e of [
        `create.board.${board.id}`, `create.phase.${phase.id}`, `change.phase.${phase.id}`, `create.project.${project.id}`, `change.project.${project.id}`,
        `create.task.${task.id}`, `create.task.${sub.id}`, `change.task.${task.id}`, `create.deal_product.${line.id}`, `delete.deal_product.${line.id}`,
        `create.deal_installment.${inst.id}`, `change.deal_installment.${inst.id}`, `delete.deal_installment.${inst.id}`,
        `delete.task.${sub.id}`, `delete.task.${task.id}`, `delete.project.${project.id}`,
      ]) expect(seen, e).toContain(e);
      // The project's deletion: its tasks first, then the project, whose delete carries its last state.
      expect(seen.slice(-3)).toEqual([`delete.task.${sub.id}`, `delete.task.${task.id}`, `delete.project.${project.id}`]);
      const last = v2.got.at(-1)!.body as { data: unknown; previous: { title: string } };
      expect([last.data, last.previous.title]).toEqual([null, 'Hooks project, renamed']);
      // The tasks went with the project.
      expect((await direct('GET', `/api/v2/tasks/${task.id}`)).status).toBe(404);
      // A version 1.0 webhook on '*' gets the deal's own events, none of the v2-only objects.
      const old = v1.got.map((g) => (g.body as { meta: { object: string } }).meta.object);
      expect(old).toContain('deal');
      expect(old.filter((o) => NEW.includes(o))).toEqual([]);
    } finally {
      await v2.close();
      await v1.close();
    }
  });
});
