import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, filesOf, modifyA, shiftIds, tempDir, WEBHOOK_PASSWORD, writes } from './helpers.js';

let a: SandboxFixture;
let b: SandboxFixture;
let pulledA: string;

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  await modifyA(a);
  await shiftIds(b);
  pulledA = tempDir();
  const r = await runBin(['pull', '--out', pulledA], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await a.close();
  await b.close();
});

/** The configuration files (reference.yaml lists users and currencies, which differ per account; sample/ is records). */
const configOnly = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([k]) => k !== 'reference.yaml' && !k.startsWith('sample/')));

describe('pull from A, apply to B, pull from B', () => {
  it('pull writes one file per group, references by name, and no webhook password anywhere', async () => {
    const files = filesOf(pulledA);
    expect(Object.keys(files)).toEqual(['activity-types.yaml', 'fields.yaml', 'filters.yaml', 'labels.yaml', 'pipelines.yaml', 'projects.yaml', 'reference.yaml', 'roles.yaml', 'teams.yaml', 'webhooks.yaml']);
    expect(files['pipelines.yaml']).toContain([
      '  - kind: stage',
      '    name: stage-renewals-signed',
      '    spec:',
      '      pipeline_id: ${ref:pipeline-renewals.id}',
      '      name: Signed',
      '      deal_probability: 90',
      '      is_deal_rot_enabled: true',
      '      days_to_rotten: 14',
    ].join('\n'));
    expect(files['fields.yaml']).toContain('    name: deal-field-region\n    spec:\n      field_name: Region\n      field_type: enum\n      options:\n        - label: North\n        - label: South\n');
    // Only custom fields: the built-in Title of deals is not configuration.
    expect(files['fields.yaml']).not.toContain('field_name: Title');
    expect(files['roles.yaml']).toContain('    name: role-field-sales\n    spec:\n      name: Field sales\n      parent_role_id: ${ref:role-sales.id}\n');
    expect(files['roles.yaml']).toContain('  - kind: role-setting\n    name: role-setting-field-sales-deal_default_visibility\n    role: ${ref:role-field-sales.id}\n    spec:\n      setting_key: deal_default_visibility\n      value: 7\n');
    expect(files['roles.yaml']).toContain([
      '  - kind: role-pipelines',
      '    name: role-pipelines-field-sales-pipelines',
      '    role: ${ref:role-field-sales.id}',
      '    spec:',
      '      visible_pipeline_ids:',
      '        add:',
      '          - ${ref:pipeline-partnerships.id}',
      '          - ${ref:pipeline-renewals.id}',
      '        remove:',
      '          - ${ref:pipeline-sales.id}',
    ].join('\n'));
    // Users differ per account: a team's manager and members by e-mail.
    expect(files['teams.yaml']).toContain('      name: Closers\n      description: Tallinn office sales team\n      manager_id: ${user:ada.admin@example.com}\n      users:\n        - ${user:reggie.regular@example.com}\n');
    expect(files['webhooks.yaml']).toContain('http_auth_user: crm');
    expect(files['reference.yaml']).toMatch(/^# Read-only settings of the account, written by crmctl pull FOR REFERENCE ONLY\./);
    // Goals (removed from A by modifyA) are tested in goals.test.ts.
    for (const [name, text] of Object.entries(files)) {
      expect(text.includes(WEBHOOK_PASSWORD), name).toBe(false);
      expect(text.includes('http_auth_password'), name).toBe(false);
    }
  });

  it('plan against the account it was pulled from: no changes, exit 0', async () => {
    const r = await runBin(['plan', '-f', pulledA], { env: a.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^No changes: the account matches the files \(\d+ records\)\. Cost: 0 to apply, \d+ to read\./);
  });

  it('applies to B (other ids), B pulls the same files (a fixed point), and plan then shows no changes', async () => {
    // pull writes a sample/ of records and reference.yaml beside the configuration: apply skips both.
    mkdirSync(join(pulledA, 'sample'));
    writeFileSync(join(pulledA, 'sample', 'broken.yaml'), 'not: [a list');
    const r = await runBin(['apply', '-f', pulledA, '--prune', 'all', '--yes'], { env: b.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+ pipeline Renewals\n+ stage Renewals/Notice\n+ stage Renewals/Signed\n');
    expect(r.stdout).toMatch(/\nDone: \d+ created, \d+ updated, 0 replaced, \d+ deleted, \d+ unchanged\. Cost: \d+ \(and \d+ to read\)\.\n$/);

    const renewalsA = (await api(a, 'GET', '/api/v2/pipelines')).find((p: any) => p.name === 'Renewals');
    const renewalsB = (await api(b, 'GET', '/api/v2/pipelines')).find((p: any) => p.name === 'Renewals');
    expect(renewalsB.id).not.toBe(renewalsA.id);
    const stagesB = (await api(b, 'GET', `/api/v2/stages?pipeline_id=${renewalsB.id}`)).map((s: any) => [s.name, s.order_nr, s.deal_probability, s.days_to_rotten]);
    expect(stagesB).toEqual([['Notice', 1, 30, null], ['Signed', 2, 90, 14]]);
    const hook = (await b.collection<any>('webhooks')).find((w) => w.name === 'Deals to ERP');
    expect(hook.http_auth_user).toBe('crm');
    // The demo seed's webhooks are ones the create accepts: pulled from A, they apply to B.
    expect((await b.collection<any>('webhooks')).map((w) => [w.name, w.subscription_url]).sort()).toEqual([
      ['Deals to ERP', 'http://127.0.0.1:9/crm'], ['ERP sync: deals', 'http://127.0.0.1:9/erp/hooks/crm'], ['Slack: new leads', 'http://127.0.0.1:9/slack/services/T000/B000/XXXX'],
    ]);

    const pulledB = tempDir();
    const again = await runBin(['pull', '--out', pulledB], { env: b.env });
    expect(again.code, again.stderr).toBe(0);
    expect(configOnly(filesOf(pulledB))).toEqual(configOnly(filesOf(pulledA)));

    await b.clearRequests();
    const plan = await runBin(['plan', '-f', pulledA, '--prune', 'all'], { env: b.env });
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.stdout).toMatch(/^No changes/);
    expect(writes(await b.requests())).toEqual([]);

    // Re-running apply converges: nothing to send.
    const rerun = await runBin(['apply', '-f', pulledA], { env: b.env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(writes(await b.requests())).toEqual([]);
  });

  it('one hand edit in the account is one change (exit 8), field by field; apply puts it back', async () => {
    const stage = (await api(b, 'GET', '/api/v2/stages')).find((s: any) => s.name === 'Notice');
    await api(b, 'PATCH', `/api/v2/stages/${stage.id}`, { deal_probability: 35 });
    const plan = await runBin(['plan', '-f', pulledA], { env: b.env });
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stderr).toBe('');
    expect(plan.stdout.split('\n')[0]).toBe('~ stage Renewals/Notice: deal_probability 35 -> 30');
    expect(plan.stdout).toMatch(/\nPlan: 0 to create, 1 to change, 0 to replace, 0 to delete, \d+ unchanged\. Cost: 5 to apply, \d+ to read\. Scopes: .*admin/);

    const json = await runBin(['plan', '-f', pulledA, '--json'], { env: b.env });
    expect(json.code).toBe(8);
    const doc = JSON.parse(json.stdout);
    expect(doc.changes).toBe(true);
    expect(doc.actions.filter((x: any) => x.action !== 'unchanged')).toEqual([
      { action: 'update', kind: 'stage', name: 'stage-renewals-notice', label: 'Renewals/Notice', id: stage.id, changes: [{ field: 'deal_probability', from: 35, to: 30 }], cost: 5 },
    ]);

    await b.clearRequests();
    const r = await runBin(['apply', '-f', pulledA], { env: b.env });
    expect(r.code, r.stderr).toBe(0);
    expect(writes(await b.requests()).map((x) => [x.method, x.path, x.body])).toEqual([['PATCH', `/api/v2/stages/${stage.id}`, { deal_probability: 30 }]]);
    expect((await runBin(['plan', '-f', pulledA], { env: b.env })).code).toBe(0);
  });

  it('a changed option list adds and deletes options by label', async () => {
    const dir = tempDir();
    cpSync(pulledA, dir, { recursive: true });
    const file = join(dir, 'fields.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('        - label: North\n        - label: South\n', '        - label: North\n        - label: East\n'));
    const plan = await runBin(['plan', '-f', dir], { env: b.env });
    expect(plan.code).toBe(8);
    expect(plan.stdout.split('\n')[0]).toBe('~ deal-field Region: options [{"label":"North"},{"label":"South"}] -> [{"label":"North"},{"label":"East"}]');
    await b.clearRequests();
    expect((await runBin(['apply', '-f', dir], { env: b.env })).code).toBe(0);
    const sent = writes(await b.requests());
    expect(sent.map((x) => [x.method, x.path.replace(/dealFields\/[^/]+/, 'dealFields/CODE'), x.body])).toEqual([
      ['POST', '/api/v2/dealFields/CODE/options', [{ label: 'East' }]],
      ['DELETE', '/api/v2/dealFields/CODE/options', [{ id: expect.any(Number) }]],
    ]);
    const region = (await api(b, 'GET', '/api/v2/dealFields')).find((f: any) => f.field_name === 'Region');
    expect(region.options.map((o: any) => o.label)).toEqual(['North', 'East']);
    expect((await runBin(['plan', '-f', dir], { env: b.env })).code).toBe(0);
    expect((await runBin(['apply', '-f', pulledA], { env: b.env })).code).toBe(0);
  });
});

describe('--prune and saved plans', () => {
  it('--prune deletes only the kinds named, and needs --yes off a terminal', async () => {
    const label = await api(b, 'POST', '/api/v1/leadLabels', { name: 'Stray', color: 'gray' });
    await api(b, 'POST', '/api/v1/webhooks', { name: 'Stray hook', subscription_url: 'http://127.0.0.1:9/stray', event_action: 'create', event_object: 'person' });
    // Without --prune, what the files do not hold is left alone.
    expect((await runBin(['plan', '-f', pulledA], { env: b.env })).code).toBe(0);
    const plan = await runBin(['plan', '-f', pulledA, '--prune', 'lead-label'], { env: b.env });
    expect(plan.code).toBe(8);
    expect(plan.stdout.split('\n')[0]).toBe('- lead-label Stray (not in the files: --prune)');

    await b.clearRequests();
    const refused = await runBin(['apply', '-f', pulledA, '--prune', 'lead-label'], { env: b.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('error: Delete 1 record of the account that the files do not hold (--prune lead-label)? Pass --yes to confirm');
    expect(writes(await b.requests())).toEqual([]);

    const r = await runBin(['apply', '-f', pulledA, '--prune', 'lead-label', '--yes'], { env: b.env });
    expect(r.code, r.stderr).toBe(0);
    expect(writes(await b.requests()).map((x) => [x.method, x.path])).toEqual([['DELETE', `/api/v1/leadLabels/${label.id}`]]);
    expect((await api(b, 'GET', '/api/v1/webhooks')).map((w: any) => w.name)).toContain('Stray hook');
  });

  it('apply --plan carries out a saved plan, and refuses one the account no longer matches', async () => {
    const dir = tempDir();
    const planFile = join(dir, 'plan.json');
    const stage = (await api(b, 'GET', '/api/v2/stages')).find((x: any) => x.name === 'Signed');
    await api(b, 'PATCH', `/api/v2/stages/${stage.id}`, { days_to_rotten: 20 });
    const plan = await runBin(['plan', '-f', pulledA, '--out', planFile], { env: b.env });
    expect(plan.code).toBe(8);
    const saved = JSON.parse(readFileSync(planFile, 'utf8'));
    expect(JSON.stringify(saved)).not.toContain(WEBHOOK_PASSWORD);
    // The account changes after the plan was made: the plan is refused, nothing sent.
    const label = (await api(b, 'GET', '/api/v1/leadLabels')).find((l: any) => l.name === 'Partner');
    await api(b, 'PATCH', `/api/v1/leadLabels/${label.id}`, { color: 'red' });
    await b.clearRequests();
    const stale = await runBin(['apply', '--plan', planFile], { env: b.env });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(`error: --plan ${planFile}: the account changed since the plan was made`);
    expect(writes(await b.requests())).toEqual([]);

    await api(b, 'PATCH', `/api/v1/leadLabels/${label.id}`, { color: 'green' });
    const r = await runBin(['apply', '--plan', planFile], { env: b.env });
    expect(r.code, r.stderr).toBe(0);
    expect(writes(await b.requests()).map((x) => [x.method, x.path, x.body])).toEqual([
      ['PATCH', `/api/v1/leadLabels/${label.id}`, { color: 'green' }],
      ['PATCH', `/api/v2/stages/${stage.id}`, { days_to_rotten: 14 }],
    ]);
    expect((await runBin(['plan', '-f', pulledA], { env: b.env })).code).toBe(0);
  });
});
