import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, modifyA, shiftIds, tempDir, writes } from './helpers.js';

let a: SandboxFixture;
let b: SandboxFixture;
let pulledA: string;

const goalsOf = async (fx: SandboxFixture) => {
  const all: any[] = [];
  for (const t of ['person', 'company', 'team']) all.push(...(await api(fx, 'GET', `/api/v1/goals/find?assignee.type=${t}`)).goals);
  return all;
};

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  await modifyA(a);
  const pipelines = await api(a, 'GET', '/api/v2/pipelines');
  const renewals = pipelines.find((p: any) => p.name === 'Renewals');
  const signed = (await api(a, 'GET', `/api/v2/stages?pipeline_id=${renewals.id}`)).find((s: any) => s.name === 'Signed');
  const onsite = await api(a, 'POST', '/api/v1/activityTypes', { name: 'Roadshow', icon_key: 'truck' });
  await api(a, 'POST', '/api/v1/goals', {
    title: 'Renewals signed', assignee: { type: 'person', id: 2 }, type: { name: 'deals_progressed', params: { pipeline_id: [renewals.id], stage_id: signed.id } },
    expected_outcome: { target: 12, tracking_metric: 'quantity' }, duration: { start: '2026-01-01', end: '2026-12-31' }, interval: 'quarterly',
  });
  await api(a, 'POST', '/api/v1/goals', {
    title: 'Site visits', assignee: { type: 'person', id: 3 }, type: { name: 'activities_completed', params: { activity_type_id: [onsite.id] } },
    expected_outcome: { target: 30, tracking_metric: 'quantity' }, duration: { start: '2026-01-01' }, interval: 'monthly',
  });
  const closers = (await api(a, 'GET', '/api/v1/legacyTeams')).find((t: any) => t.name === 'Closers');
  await api(a, 'POST', '/api/v1/goals', {
    title: 'Closers won', assignee: { type: 'team', id: closers.id }, type: { name: 'deals_won' },
    expected_outcome: { target: 40000, tracking_metric: 'sum', currency_id: 1 }, duration: { start: '2026-01-01' }, interval: 'monthly',
  });
  // Two goals with one natural key: neither can be matched one to one.
  for (const target of [5, 6]) {
    await api(a, 'POST', '/api/v1/goals', {
      title: 'Twins', assignee: { type: 'person', id: 1 }, type: { name: 'deals_won', params: { pipeline_id: [renewals.id] } },
      expected_outcome: { target, tracking_metric: 'quantity' }, duration: { start: '2026-01-01' }, interval: 'yearly',
    });
  }
  await shiftIds(b);
  pulledA = tempDir();
  const r = await runBin(['pull', '--out', pulledA], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('goals as configuration', () => {
  it('pull writes goals.yaml with pipelines, stages, activity types and users by name; goals sharing a key go to reference.yaml', () => {
    const text = readFileSync(join(pulledA, 'goals.yaml'), 'utf8');
    expect(text).toContain([
      '  - kind: goal',
      '    name: goal-renewals-signed',
      '    spec:',
      '      title: Renewals signed',
      '      assignee:',
      '        type: person',
      '        id: ${user:reggie.regular@example.com}',
      '      type:',
      '        name: deals_progressed',
      '        params:',
      '          pipeline_id:',
      '            - ${ref:pipeline-renewals.id}',
      '          stage_id: ${ref:stage-renewals-signed.id}',
      '      expected_outcome:',
      '        target: 12',
      '        tracking_metric: quantity',
      '      duration:',
      '        start: 2026-01-01',
      '        end: 2026-12-31',
      '      interval: quarterly',
      '',
    ].join('\n'));
    expect(text).toContain('            - ${ref:activity-type-roadshow.id}\n');
    // A team assignee by the team's handle.
    expect(text).toContain('      title: Closers won\n      assignee:\n        type: team\n        id: ${ref:team-closers.id}\n');
    expect(text).not.toContain('Twins');
    const reference = readFileSync(join(pulledA, 'reference.yaml'), 'utf8');
    // Named as in goals.yaml, so that nothing of the account goes unmentioned.
    expect(reference.match(/- title: Twins\n/g)).toHaveLength(2);
    expect(reference).toContain([
      '      - title: Twins',
      '        type: deals_won',
      '        params:',
      '          pipelines:',
      '            - Renewals',
      '        assignee:',
      '          type: person',
      '          who: ada.admin@example.com',
      '        expected_outcome:',
      '          target: 5',
    ].join('\n'));
    expect(reference).toContain('not_written: another goal of the account has the same title, assignee, type and interval');
  });

  it('applies to an account where every id differs, re-pulls identically, then plans no change', async () => {
    const apply = await runBin(['apply', '-f', pulledA, '--yes'], { env: b.env });
    expect(apply.code, apply.stderr).toBe(0);
    const made = (await goalsOf(b)).find((g) => g.title === 'Renewals signed');
    const pipeline = (await api(b, 'GET', '/api/v2/pipelines')).find((p: any) => p.name === 'Renewals');
    const stage = (await api(b, 'GET', `/api/v2/stages?pipeline_id=${pipeline.id}`)).find((s: any) => s.name === 'Signed');
    const renewalsInA = (await api(a, 'GET', '/api/v2/pipelines')).find((p: any) => p.name === 'Renewals');
    expect(pipeline.id).not.toBe(renewalsInA.id);
    expect(made.type).toEqual({ name: 'deals_progressed', params: { pipeline_id: [pipeline.id], stage_id: stage.id } });
    expect(made.assignee).toEqual({ id: 2, type: 'person' });
    const team = (await api(b, 'GET', '/api/v1/legacyTeams')).find((t: any) => t.name === 'Closers');
    expect((await goalsOf(b)).find((g) => g.title === 'Closers won').assignee).toEqual({ id: team.id, type: 'team' });

    const pulledB = tempDir();
    const pull = await runBin(['pull', '--out', pulledB], { env: b.env });
    expect(pull.code, pull.stderr).toBe(0);
    expect(readFileSync(join(pulledB, 'goals.yaml'), 'utf8')).toBe(readFileSync(join(pulledA, 'goals.yaml'), 'utf8'));

    await b.clearRequests();
    const plan = await runBin(['plan', '-f', pulledA], { env: b.env });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(writes(await b.requests())).toEqual([]);
  });

  it("a hand edit of a goal's target in the account is exactly one change (exit 8); apply puts it back with one update", async () => {
    const made = (await goalsOf(b)).find((g) => g.title === 'Renewals signed');
    await api(b, 'PUT', `/api/v1/goals/${made.id}`, { expected_outcome: { target: 15 } });
    const plan = await runBin(['plan', '-f', pulledA], { env: b.env });
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stdout.split('\n').filter((l) => /^[-+~]/.test(l))).toEqual([
      '~ goal Renewals signed: expected_outcome {"target":15,"tracking_metric":"quantity"} -> {"target":12,"tracking_metric":"quantity"}',
    ]);
    await b.clearRequests();
    const apply = await runBin(['apply', '-f', pulledA, '--yes'], { env: b.env });
    expect(apply.code, apply.stderr).toBe(0);
    // The update is a PUT: the whole goal is sent, as the files hold it, with this account's ids.
    expect(writes(await b.requests()).map((r) => [r.method, r.path, r.body])).toEqual([
      ['PUT', `/api/v1/goals/${made.id}`, {
        title: 'Renewals signed', assignee: { type: 'person', id: 2 }, type: made.type,
        expected_outcome: { target: 12, tracking_metric: 'quantity' }, duration: { start: '2026-01-01', end: '2026-12-31' }, interval: 'quarterly',
      }],
    ]);
    expect((await goalsOf(b)).find((g) => g.id === made.id).expected_outcome.target).toBe(12);
  });

  it('a goal whose stage the files do not hold: exit 2 naming file and line, nothing sent', async () => {
    const dir = tempDir();
    const file = join(dir, 'goals.yaml');
    const text = readFileSync(join(pulledA, 'goals.yaml'), 'utf8').replace('${ref:stage-renewals-signed.id}', '${ref:stage-renewals-lost.id}');
    writeFileSync(file, text);
    await b.clearRequests();
    const r = await runBin(['plan', '-f', dir], { env: b.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('goal-renewals-signed.spec.type.params.stage_id: ${ref:stage-renewals-lost.id} refers to an unknown record "stage-renewals-lost"');
    expect(await b.requests()).toEqual([]);
  });

  it('a file goal with the key of two goals of the account: exit 2 naming file and line, nothing sent', async () => {
    const dir = tempDir();
    const file = join(dir, 'goals.yaml');
    writeFileSync(file, [
      'config: goals',
      'records:',
      '  - kind: goal',
      '    name: goal-twins',
      '    spec:',
      '      title: Twins',
      '      assignee: { type: person, id: "${user:ada.admin@example.com}" }',
      '      type: { name: deals_won }',
      '      expected_outcome: { target: 5, tracking_metric: quantity }',
      '      duration: { start: 2026-01-01 }',
      '      interval: yearly',
      '',
    ].join('\n'));
    await a.clearRequests();
    const r = await runBin(['apply', '-f', dir, '--yes'], { env: a.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${file}:3 goal-twins: matches 2 goals of the account (Twins), so which one it is cannot be told; give them different titles (see reference.yaml)\n`);
    expect(writes(await a.requests())).toEqual([]);
  });
});
