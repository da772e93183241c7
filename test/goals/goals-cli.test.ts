// goals find / create / update / delete / results through the CLI, and the sandbox's own rules.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api } from '../webhooks/helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean; stdin?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { ...opts, env: { ...fx.env, ...(opts.env ?? {}) } });
const direct = (method: string, path: string, body?: unknown) => api(fx.sandbox.url, fx.env.CRMCTL_ACCESS_TOKEN!, method, path, body);
type Goal = { id: string; title: string; owner_id: number; assignee: { id: number; type: string }; type: { name: string; params: Record<string, unknown> };
  expected_outcome: { target: number; tracking_metric: string; currency_id?: number }; duration: { start: string; end: string | null }; interval: string; is_active: boolean; report_ids: string[] };

async function ok(args: string[]): Promise<any> {
  const r = await run([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}
const goals = () => fx.collection<Goal>('goals');
const goalBy = async (pred: (g: Goal) => boolean) => (await goals()).find(pred)!;
const eurId = async () => (await fx.collection<{ id: number; code: string }>('currencies')).find((c) => c.code === 'EUR')!.id;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('goals find', () => {
  it("without filters returns only the caller's active goals", async () => {
    const all = await goals();
    const r = await run(['goals', 'find', '--output', 'tsv', '--fields', 'id,title']);
    expect(r.code).toBe(0);
    const mine = all.filter((g) => g.assignee.type === 'person' && g.assignee.id === 1 && g.is_active);
    expect(mine.length).toBeGreaterThan(0);
    expect(all.some((g) => g.assignee.id !== 1)).toBe(true);
    expect(r.stdout).toBe(mine.map((g) => `${g.id}\t${g.title}\n`).join(''));
    const [req] = await fx.requests();
    expect(req).toMatchObject({ method: 'GET', path: '/api/v1/goals/find', query: {}, status: 200 });
  });

  it("filters by type, assignee type or outcome return everyone's goals, sent under dotted names", async () => {
    const all = await goals();
    const found = await ok(['goals', 'find', '--assignee-type', 'company', '--metric', 'sum', '--currency-id', String(await eurId())]);
    const expected = all.filter((g) => g.assignee.type === 'company' && g.expected_outcome.tracking_metric === 'sum' && g.is_active);
    expect(found.map((g: Goal) => g.id)).toEqual(expected.map((g) => g.id));
    expect(expected.length).toBeGreaterThan(1);
    const [req] = await fx.requests();
    expect(req!.query).toEqual({ 'assignee.type': 'company', 'expected_outcome.tracking_metric': 'sum', 'expected_outcome.currency_id': String(await eurId()) });

    const progressed = await ok(['goals', 'find', '--type-name', 'deals_progressed', '--stage-id', '3']);
    expect(progressed.map((g: Goal) => g.id)).toEqual(all.filter((g) => g.type.name === 'deals_progressed' && g.type.params.stage_id === 3).map((g) => g.id));
    expect(progressed[0].assignee.id).not.toBe(1);
  });

  it('--assignee-id, --is-active, a period, --all-pipelines and --where', async () => {
    const all = await goals();
    const inactive = await ok(['goals', 'find', '--assignee-id', '1', '--is-active', 'false']);
    expect(inactive.map((g: Goal) => g.id)).toEqual(all.filter((g) => g.assignee.id === 1 && !g.is_active).map((g) => g.id));
    expect(inactive.length).toBe(1);

    const overlapping = await ok(['goals', 'find', '--assignee-id', '2', '--start', '2025-07-01', '--end', '2025-07-31']);
    expect(overlapping).toEqual([]); // Reggie's goal ends in June
    const h1 = await ok(['goals', 'find', '--assignee-id', '2', '--start', '2025-06-01', '--end', '2025-06-30']);
    expect(h1.map((g: Goal) => g.assignee.id)).toEqual([2]);

    await fx.clearRequests();
    const allPipes = await ok(['goals', 'find', '--all-pipelines', '--where', 'interval=quarterly']);
    expect(allPipes.map((g: Goal) => g.id)).toEqual(all.filter((g) => g.is_active && g.type.params.pipeline_id === null && g.interval === 'quarterly').map((g) => g.id));
    const [req] = await fx.requests();
    expect(req!.query).toEqual({ 'type.params.pipeline_id': 'null', interval: 'quarterly' });
  });

  it.each([
    [['--start', '2025-01-01'], '--end: must be given together with the other end of the period'],
    [['--end', '2025-01-01'], '--start: must be given together'],
    [['--start', '2025-02-01', '--end', '2025-01-01'], '--end: must not be before --start'],
    [['--start', '2025-02-30', '--end', '2025-03-01'], '--start: must be a real calendar date'],
    [['--currency-id', '1'], '--currency-id: is only for --metric sum'],
    [['--currency-id', '1', '--metric', 'quantity'], '--currency-id: is only for --metric sum'],
    [['--stage-id', '2', '--type-name', 'deals_won'], '--stage-id: is only for --type-name deals_progressed'],
    [['--activity-type-ids', '1', '--type-name', 'deals_won'], '--activity-type-ids: is only for --type-name activities_completed or activities_added'],
    [['--all-activity-types'], '--all-activity-types: is only for --type-name activities_completed or activities_added'],
    [['--pipeline-ids', '1', '--all-pipelines'], '--all-pipelines: cannot be combined with --pipeline-ids'],
    [['--where', 'colour=red'], '--where: must be field=value with field one of id, owner_id, interval, duration.start, duration.end'],
    [['--assignee-id', 'x'], '--assignee-id: must be an integer'],
    [['--type-name', 'revenue_forecast'], 'revenue_forecast'],
  ])('refuses %j before sending: %s', async (args, message) => {
    const r = await run(['goals', 'find', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });
});

describe('goals create', () => {
  const base = ['--assignee-type', 'person', '--assignee-id', '2', '--type-name', 'deals_won', '--metric', 'quantity', '--target', '12', '--start', '2025-01-01', '--end', '2025-12-31', '--interval', 'quarterly'];

  it('creates a goal with a progress report and sends the nested body', async () => {
    const created = await ok(['goals', 'create', '--title', 'Reggie wins 2025', ...base, '--pipeline-ids', '1,2']);
    expect(created).toMatchObject({ title: 'Reggie wins 2025', owner_id: 1, assignee: { id: 2, type: 'person' }, type: { name: 'deals_won', params: { pipeline_id: [1, 2] } },
      expected_outcome: { target: 12, tracking_metric: 'quantity' }, duration: { start: '2025-01-01', end: '2025-12-31' }, interval: 'quarterly', is_active: true });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);
    expect(created.report_ids).toHaveLength(1);
    // users/me first: the write is recorded as a run of this account (docs/undo.md).
    const [me, req] = await fx.requests();
    expect(me).toMatchObject({ method: 'GET', path: '/api/v1/users/me' });
    expect(req).toMatchObject({ method: 'POST', path: '/api/v1/goals', status: 200 });
    expect(req!.body).toEqual({ title: 'Reggie wins 2025', assignee: { type: 'person', id: 2 }, type: { name: 'deals_won', params: { pipeline_id: [1, 2] } },
      expected_outcome: { tracking_metric: 'quantity', target: 12 }, duration: { start: '2025-01-01', end: '2025-12-31' }, interval: 'quarterly' });
    expect(await goalBy((g) => g.id === created.id)).toEqual(created);
  });

  it('sum goals with a currency, open-ended goals, activity goals over all types', async () => {
    const eur = await eurId();
    const sum = await ok(['goals', 'create', '--assignee-type', 'company', '--assignee-id', '1', '--type-name', 'revenue_forecast', '--metric', 'sum', '--currency-id', String(eur), '--target', '2500.5', '--start', '2025-01-01', '--open-ended', '--interval', 'monthly']);
    expect(sum).toMatchObject({ expected_outcome: { target: 2500.5, tracking_metric: 'sum', currency_id: eur }, duration: { start: '2025-01-01', end: null }, title: 'Revenue forecast' });
    const acts = await ok(['goals', 'create', '--assignee-type', 'person', '--assignee-id', '1', '--type-name', 'activities_added', '--all-activity-types', '--metric', 'quantity', '--target', '30', '--start', '2025-01-01', '--interval', 'weekly']);
    expect(acts.type).toEqual({ name: 'activities_added', params: { pipeline_id: null, activity_type_id: null } });
    const posts = (await fx.requests()).filter((q) => q.method === 'POST');
    expect(posts[0]!.body).toMatchObject({ duration: { start: '2025-01-01', end: null } });
    expect(posts[1]!.body).toMatchObject({ type: { name: 'activities_added', params: { activity_type_id: null } } });
  });

  it.each([
    [base.slice(0, 14), /--interval: (is required|must be one of weekly, monthly, quarterly, yearly)/],
    [[...base.slice(0, 4), '--type-name', 'deals_progressed', ...base.slice(6)], '--stage-id: is required for --type-name deals_progressed'],
    [[...base, '--stage-id', '3'], '--stage-id: is only for --type-name deals_progressed'],
    [[...base, '--activity-type-ids', '1'], '--activity-type-ids: is only for --type-name activities_completed or activities_added'],
    [[...base, '--currency-id', '1'], '--currency-id: is only for --metric sum'],
    [[...base.slice(0, 4), '--type-name', 'activities_completed', '--metric', 'sum', ...base.slice(8)], '--metric: must be quantity for activity goals'],
    [[...base.slice(0, 12), '--end', '2024-12-31', '--interval', 'quarterly'], '--end: must not be before --start 2025-01-01'],
    [[...base.slice(0, 8), '--target', '0', ...base.slice(10)], '--target: must be'],
    [[...base, '--open-ended'], '--open-ended: cannot be combined with --end'],
    [[...base, '--pipeline-ids', '1,x'], '--pipeline-ids: must be a comma-separated list of integers'],
  ] as Array<[string[], string | RegExp]>)('refuses %j before sending: %s', async (args, message) => {
    const r = await run(['goals', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    expect(await fx.requests()).toEqual([]);
  });

  it('names a bad assignee type or interval (choices), nothing sent', async () => {
    const r = await run(['goals', 'create', ...base.map((a) => (a === 'quarterly' ? 'daily' : a))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--interval.*weekly, monthly, quarterly, yearly/);
    expect(await fx.requests()).toEqual([]);
  });

  it('the sandbox refuses an assignee or stage that does not exist (exit 2 with its message)', async () => {
    const before = (await goals()).length;
    const r = await run(['goals', 'create', ...base.map((a, i) => (i === 3 ? '99' : a))]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('assignee.id: user 99 does not exist');
    const s = await run(['goals', 'create', ...base.slice(0, 4), '--type-name', 'deals_progressed', '--stage-id', '7', '--pipeline-ids', '1', ...base.slice(6)]);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain("type.params.stage_id: stage 7 is not in the goal's pipelines");
    expect((await fx.requests()).map((q) => q.status)).toEqual([400, 400]);
    expect((await goals()).length).toBe(before);
  });
});

describe('goals update', () => {
  it('changes only the fields given; nested members are merged by the service', async () => {
    const revenue = await goalBy((g) => g.title === 'Company revenue 2025');
    const updated = await ok(['goals', 'update', revenue.id, '--target', '120000', '--end', '2025-06-30']);
    expect(updated).toEqual({ ...revenue, expected_outcome: { ...revenue.expected_outcome, target: 120000 }, duration: { start: revenue.duration.start, end: '2025-06-30' } });
    const [req] = await fx.requests();
    expect(req).toMatchObject({ method: 'PUT', path: `/api/v1/goals/${revenue.id}` });
    expect(req!.body).toEqual({ expected_outcome: { target: 120000 }, duration: { end: '2025-06-30' } });
    expect(await goalBy((g) => g.id === revenue.id)).toEqual(updated);
  });

  it('--open-ended and --all-pipelines send nulls', async () => {
    const reggie = await goalBy((g) => g.title.startsWith('Reggie'));
    const updated = await ok(['goals', 'update', reggie.id, '--open-ended', '--all-pipelines']);
    expect(updated.duration.end).toBeNull();
    expect(updated.type.params.pipeline_id).toBeNull();
    expect((await fx.requests())[0]!.body).toEqual({ duration: { end: null }, type: { params: { pipeline_id: null } } });
  });

  it('refuses nothing-to-update, bad ids and contradictions before sending', async () => {
    const goal = (await goals())[0]!;
    for (const [args, message] of [
      [[goal.id], 'nothing to update'],
      [['not-hex!', '--target', '5'], '<id>: must be a goal id'],
      [[goal.id, '--metric', 'quantity', '--currency-id', '1'], '--currency-id: is only for --metric sum'],
      [[goal.id, '--start', '2025-05-01', '--end', '2025-04-01'], '--end: must not be before --start'],
    ] as const) {
      const r = await run(['goals', 'update', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await fx.requests()).toEqual([]);
  });

  it('the service checks the merged goal: a currency on a quantity goal is refused (exit 2)', async () => {
    const reggie = await goalBy((g) => g.title.startsWith('Reggie'));
    const r = await run(['goals', 'update', reggie.id, '--currency-id', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected_outcome.currency_id: is only for tracking_metric sum');
    expect(await goalBy((g) => g.id === reggie.id)).toEqual(reggie);
  });

  it('exits 5 for an unknown goal', async () => {
    const r = await run(['goals', 'update', 'abcdef0123456789abcdef0123456789', '--target', '5']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Goal not found');
  });
});

describe('goals delete', () => {
  it('needs --yes off a terminal, answers the deleted id and the goal is gone from find', async () => {
    const goal = await goalBy((g) => g.title.startsWith('Ada: calls'));
    const noYes = await run(['goals', 'delete', goal.id]);
    expect(noYes.code).toBe(2);
    expect(await fx.requests()).toEqual([]);
    const r = await run(['goals', 'delete', goal.id, '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ id: goal.id });
    expect((await goals()).map((g) => g.id)).not.toContain(goal.id);
    expect((await ok(['goals', 'find'])).map((g: Goal) => g.id)).not.toContain(goal.id);
    const again = await run(['goals', 'delete', goal.id, '--yes']);
    expect(again.code).toBe(5);
  });
});

describe('goals results', () => {
  type Deal = { owner_id: number; status: string; won_time: string | null; currency: string; value: number; pipeline_id: number };

  it('computes progress from won deals in the period (sum in the goal currency)', async () => {
    const revenue = await goalBy((g) => g.title === 'Company revenue 2025');
    const deals = await fx.collection<Deal>('deals');
    const expected = deals.filter((d) => d.status === 'won' && d.currency === 'EUR' && d.won_time! >= '2025-01-01' && d.won_time!.slice(0, 10) <= '2025-03-31').reduce((s, d) => s + d.value, 0);
    expect(expected).toBeGreaterThan(0);
    const res = await ok(['goals', 'results', revenue.id, '--start', '2025-01-01', '--end', '2025-03-31']);
    expect(res).toEqual({ progress: expected, goal: revenue });
    const [req] = await fx.requests();
    expect(req).toMatchObject({ path: `/api/v1/goals/${revenue.id}/results`, query: { 'period.start': '2025-01-01', 'period.end': '2025-03-31' } });

    // A deal won now in the period moves the progress by its value.
    const stage = fx.sandbox.state.stages.get(2)!;
    const t = '2025-03-10T10:00:00.000Z';
    fx.sandbox.state.deals.insert({ title: 'Late win', owner_id: 3, creator_user_id: 3, person_id: null, org_id: null, pipeline_id: stage.pipeline_id, stage_id: stage.id,
      value: 777, currency: 'EUR', add_time: t, update_time: t, stage_change_time: t, is_deleted: false, is_archived: false, status: 'won', probability: null, lost_reason: null,
      visible_to: 3, close_time: t, won_time: t, lost_time: null, expected_close_date: null, label_ids: [], origin: 'API', origin_id: null, channel: null, channel_id: null, source_lead_id: null, custom_fields: {} });
    const after = await ok(['goals', 'results', revenue.id, '--start', '2025-01-01', '--end', '2025-03-31']);
    expect(after.progress).toBe(expected + 777);
  });

  it('counts completed activities of the assignee by type', async () => {
    const acts = await goalBy((g) => g.title.startsWith('Ada: calls'));
    type Act = { owner_id: number; type: string; done: boolean; marked_as_done_time?: string; update_time: string };
    const expected = (await fx.collection<Act>('activities')).filter((a) => a.owner_id === 1 && a.done && ['call', 'meeting'].includes(a.type)
      && (a.marked_as_done_time ?? a.update_time).slice(0, 7) === '2025-02').length;
    expect(expected).toBeGreaterThan(0);
    const res = await ok(['goals', 'results', acts.id, '--start', '2025-02-01', '--end', '2025-02-28']);
    expect(res.progress).toBe(expected);
  });

  it('refuses a missing or reversed period before sending', async () => {
    const goal = (await goals())[0]!;
    for (const [args, message] of [
      [['--start', '2025-01-01'], '--end: is required'],
      [['--end', '2025-01-01'], '--start: is required'],
      [['--start', '2025-03-01', '--end', '2025-02-01'], '--end: must not be before --start'],
    ] as const) {
      const r = await run(['goals', 'results', goal.id, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await fx.requests()).toEqual([]);
  });

  it("the service keeps the period inside the goal's duration (exit 2 with its rule)", async () => {
    const revenue = await goalBy((g) => g.title === 'Company revenue 2025');
    const early = await run(['goals', 'results', revenue.id, '--start', '2024-12-01', '--end', '2025-01-31']);
    expect(early.code).toBe(2);
    expect(early.stderr).toContain("period.start: must not be before the goal's start 2025-01-01");
    const late = await run(['goals', 'results', revenue.id, '--start', '2025-12-01', '--end', '2026-01-31']);
    expect(late.code).toBe(2);
    expect(late.stderr).toContain("period.end: must not be after the goal's end 2025-12-31");
  });
});

describe('sandbox rules (sent directly, as the CLI would refuse to)', () => {
  const valid = () => ({ assignee: { id: 1, type: 'person' }, type: { name: 'deals_won', params: { pipeline_id: null } }, expected_outcome: { target: 5, tracking_metric: 'quantity' }, duration: { start: '2025-01-01', end: null }, interval: 'monthly' });

  it.each([
    [{ interval: undefined }, 'interval: is required'],
    [{ assignee: { id: 1, type: 'group' } }, 'assignee.type: must be one of person, company, team'],
    [{ assignee: { id: 5, type: 'company' } }, 'assignee.id: must be the company id 1'],
    [{ type: { name: 'deals_won', params: { stage_id: 2 } } }, 'type.params.stage_id: is only for type deals_progressed'],
    [{ type: { name: 'deals_progressed', params: {} } }, 'type.params.stage_id: is required for type deals_progressed'],
    [{ type: { name: 'deals_won', params: { activity_type_id: [1] } } }, 'type.params.activity_type_id: is only for types activities_completed and activities_added'],
    [{ type: { name: 'deals_won', params: { pipeline_id: [42] } } }, 'type.params.pipeline_id: pipeline 42 does not exist'],
    [{ type: { name: 'activities_added', params: { activity_type_id: [99] } } }, 'type.params.activity_type_id: activity type 99 does not exist'],
    [{ expected_outcome: { target: 5, tracking_metric: 'quantity', currency_id: 1 } }, 'expected_outcome.currency_id: is only for tracking_metric sum'],
    [{ expected_outcome: { target: -1, tracking_metric: 'quantity' } }, 'expected_outcome.target: must be a number greater than 0'],
    [{ duration: { start: '2025-02-01', end: '2025-01-01' } }, 'duration.end: must not be before duration.start'],
    [{ duration: { start: '2025-02-30' } }, 'duration.start: must be a date in YYYY-MM-DD format'],
    [{ owner: 1 }, 'owner: is not a known field of this operation'],
  ])('POST 400 for %j', async (patch, message) => {
    const r = await direct('POST', '/api/v1/goals', { ...valid(), ...patch });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: message, data: null });
  });

  it.each([
    ['period.start=2025-01-01', 'period.end: must be given together with period.start'],
    ['period.end=2025-01-01', 'period.start: must be given together with period.end'],
    ['expected_outcome.currency_id=1', 'expected_outcome.currency_id: is only for expected_outcome.tracking_metric=sum'],
    ['type.params.stage_id=3', 'type.params.stage_id: is only for type.name=deals_progressed'],
    ['type.name=revenue_forecast', 'type.name: must be one of deals_won, deals_progressed, activities_completed, activities_added, deals_started'],
    ['colour=red', 'colour: is not a filterable goal field'],
  ])('find 400 for %s', async (qs, message) => {
    const r = await direct('GET', `/api/v1/goals/find?${qs}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, data: null });
    expect(r.body.error).toContain(message);
  });

  it('find answers in the statistics service envelope; results need both period ends', async () => {
    const r = await direct('GET', '/api/v1/goals/find');
    expect(r.body).toMatchObject({ success: true, statusCode: 20000, statusText: 'OK', service: 'statistics-goals-api' });
    expect(Array.isArray(r.body.data.goals)).toBe(true);
    const goal = (await goals())[0]!;
    const missing = await direct('GET', `/api/v1/goals/${goal.id}/results?period.start=2025-01-01`);
    expect(missing).toMatchObject({ status: 400, body: { error: 'period.end: is required' } });
  });

  it('PUT validates the merged goal; DELETE answers {success:true} only; goals:read cannot write', async () => {
    const reggie = await goalBy((g) => g.title.startsWith('Reggie'));
    const bad = await direct('PUT', `/api/v1/goals/${reggie.id}`, { type: { name: 'deals_progressed' } });
    expect(bad.body.error).toBe('type.params.stage_id: is required for type deals_progressed');
    const good = await direct('PUT', `/api/v1/goals/${reggie.id}`, { type: { name: 'deals_progressed', params: { stage_id: 2 } } });
    expect(good.body.data.goal.type).toEqual({ name: 'deals_progressed', params: { pipeline_id: [1], stage_id: 2 } });
    expect(await direct('DELETE', `/api/v1/goals/${reggie.id}`)).toEqual({ status: 200, body: { success: true, data: { id: reggie.id }, additional_data: null } });
    const t = fx.sandbox.issueToken({ scopes: ['base', 'goals:read'] }).access_token;
    expect((await api(fx.sandbox.url, t, 'POST', '/api/v1/goals', valid())).status).toBe(403);
    const cli = await runCli(['goals', 'delete', (await goals())[0]!.id, '--yes'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: t } });
    expect(cli.code).toBe(4);
    expect(cli.stderr).toContain('goals:full');
  });
});
