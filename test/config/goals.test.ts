import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
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
  // Two goals with one natural key: neither can be matched one to one.
  for (const target of [5, 6]) {
    await api(a, 'POST', '/api/v1/goals', {
      title: 'Twins', assignee: { type: 'company', id: 1 }, type: { name: 'deals_won' },
      expected_outcome: { target, tracking_metric: 'quantity' }, duration: { start: '2026-01-01' }, interval: 'yearly',
    });
  }
  await shiftIds(b);
  pulledA = tempDir();
  const r = await spawnCli(['pull', '--out', pulledA], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('goals as configuration', () => {
  it('pull writes goals.yaml with pipelines, stages, activity types and users by name; goals sharing a key go to reference.yaml', () => {
    const text = readFileSync(join(pulledA, 'goals.yaml'), 'utf8');
    console.log(text);
    console.log(readFileSync(join(pulledA, 'reference.yaml'), 'utf8'));
  });
});
