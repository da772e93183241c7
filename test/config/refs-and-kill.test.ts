import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, modifyA, tempDir, writes } from './helpers.js';

let a: SandboxFixture;
let b: SandboxFixture;
let pulled: string;

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  await modifyA(a);
  pulled = tempDir();
  const r = await spawnCli(['pull', '--out', pulled], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await a.close();
  await b.close();
});

describe('references by name', () => {
  it('a stage of a pipeline and a setting of a role that the files do not hold: exit 2 naming file and line, nothing sent', async () => {
    const dir = tempDir();
    const text = [
      'config: pipelines',
      'records:',
      '  - kind: stage',
      '    name: stage-renewals-lost',
      '    spec:',
      '      pipeline_id: ${ref:pipeline-renewal.id}',
      '      name: Lost',
      '  - kind: role-setting',
      '    name: role-setting-field-sales-lead',
      '    role: ${ref:role-field-sale.id}',
      '    spec: { setting_key: lead_default_visibility, value: 7 }',
      '',
    ].join('\n');
    const file = join(dir, 'pipelines.yaml');
    writeFileSync(file, text);
    await b.clearRequests();
    for (const args of [['plan', '-f', dir], ['apply', '-f', dir]]) {
      const r = await spawnCli(args, { env: b.env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe([
        `error: ${file}:6 stage-renewals-lost.spec.pipeline_id: \${ref:pipeline-renewal.id} refers to an unknown record "pipeline-renewal" (not in the fixture files)`,
        `${file}:10 role-setting-field-sales-lead.role: \${ref:role-field-sale.id} refers to an unknown record "role-field-sale" (not in the fixture files)`,
        'hint: Nothing was sent. See docs/fixtures.md for the file format.',
        '',
      ].join('\n'));
    }
    // Checked before the account is even read.
    expect(await b.requests()).toEqual([]);
  });

  it('a user by an e-mail the account does not have: exit 2 naming file and line, nothing written', async () => {
    const dir = tempDir();
    const file = join(dir, 'teams.yaml');
    writeFileSync(file, 'config: teams\nrecords:\n  - kind: team\n    name: team-x\n    spec:\n      name: X\n      manager_id: ${user:nobody@example.com}\n');
    await b.clearRequests();
    const r = await spawnCli(['apply', '-f', dir], { env: b.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${file}:7 team-x.spec.manager_id: \${user:nobody@example.com}: the account has no user with that e-mail\n`);
    expect(writes(await b.requests())).toEqual([]);
  });

  it('fixture files and configuration files are not mixed in one run', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.yaml'), 'config: labels\nrecords:\n  - kind: lead-label\n    name: label-x\n    spec: { name: X }\n');
    writeFileSync(join(dir, 'b.yaml'), '- kind: lead-label\n  name: y\n  spec: { name: Y }\n');
    const r = await spawnCli(['apply', '-f', dir], { env: b.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${join(dir, 'b.yaml')}: a fixture file (no \`config:\`) cannot be applied with configuration files (${join(dir, 'a.yaml')}); apply them in separate runs`);
  });
});

describe('a refusal', () => {
  it('stops the run: what was done is on stdout, what was not on stderr; fixing the file and re-running finishes it', async () => {
    const dir = tempDir();
    const file = join(dir, 'admin.yaml');
    const text = (url: string) => [
      'config: admin',
      'records:',
      '  - { kind: lead-label, name: label-first, spec: { name: First, color: green } }',
      `  - { kind: webhook, name: webhook-erp, spec: { name: ERP, event_action: create, event_object: deal, subscription_url: "${url}" } }`,
      '  - { kind: lead-label, name: label-last, spec: { name: Last, color: red } }',
      '',
    ].join('\n');
    writeFileSync(file, text('https://erp.invalid.example/hook'));
    const r = await spawnCli(['apply', '-f', dir], { env: b.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^\+ lead-label First\n\+ webhook ERP\n\+ lead-label Last\ncreated +lead-label +First +id \S+\n$/);
    expect(r.stderr).toContain('warning: not done (2): create webhook ERP; create lead-label Last\n');
    expect(r.stderr).toContain(`error: ${file}:4 webhook webhook-erp: The service answered 400`);
    writeFileSync(file, text('http://127.0.0.1:9/erp'));
    const again = await spawnCli(['apply', '-f', dir], { env: b.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^\+ webhook ERP\n\+ lead-label Last\n/);
  });
});

describe('an apply killed with SIGKILL', () => {
  it('converges on re-run: everything once, then no changes', async () => {
    await b.reset('empty');
    // Slow answers so that the kill lands half-way through the writes.
    await fetch(`${b.sandbox.url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 25, seed: 1 }) });
    await b.clearRequests();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'apply', '-f', pulled], { env: cleanEnv(b.env), stdio: 'ignore' });
      const timer = setInterval(async () => {
        if (writes(await b.requests()).length >= 8) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 20);
      child.on('exit', (code, signal) => {
        clearInterval(timer);
        if (signal === 'SIGKILL') resolve();
        else reject(new Error(`apply finished before the kill (code ${code})`));
      });
    });
    await fetch(`${b.sandbox.url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    const half = await spawnCli(['plan', '-f', pulled], { env: b.env });
    expect(half.code).toBe(8);

    const r = await spawnCli(['apply', '-f', pulled], { env: b.env });
    expect(r.code, r.stderr).toBe(0);
    const plan = await spawnCli(['plan', '-f', pulled], { env: b.env });
    expect(plan.code, plan.stdout).toBe(0);
    // Matched by natural key, never created twice.
    const names = (await api(b, 'GET', '/api/v1/roles')).map((x: any) => x.name).sort();
    expect(names).toEqual([...new Set(names)]);
    expect((await api(b, 'GET', '/api/v2/pipelines')).filter((p: any) => p.name === 'Renewals')).toHaveLength(1);
    const pulledB = tempDir();
    expect((await spawnCli(['pull', '--out', pulledB], { env: b.env })).code).toBe(0);
    expect(readFileSync(join(pulledB, 'pipelines.yaml'), 'utf8')).toBe(readFileSync(join(pulled, 'pipelines.yaml'), 'utf8'));
  });
});
