import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, filesOf, tempDir } from './helpers.js';

// Issue 28.3: text of the account is never a reference where the files are applied; a reference
// never copies a secret or crmctl's own credential into a record; plan shows what templates stand for.

let a: SandboxFixture;
let b: SandboxFixture;

const LABEL = 'Partner ${ref:webhook-erp-sync-deals.http_auth_password}';
const PIPELINE = '${env:CRMCTL_ACCESS_TOKEN}';
const HINT = 'hint: Nothing was sent. See docs/fixtures.md for the file format.\n';

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const names = async (fx: SandboxFixture, path: string): Promise<string[]> => (await api(fx, 'GET', path)).map((r: { name: string }) => r.name);

describe('pull writes the account\'s text as literal text', () => {
  it('a staging label and pipeline named like references arrive in another account with the same literal names', async () => {
    // The demo seed's webhook "ERP sync: deals" has a password (erp-hook-secret): the label names it.
    await api(a, 'POST', '/api/v1/leadLabels', { name: LABEL, color: 'green' });
    await api(a, 'POST', '/api/v2/pipelines', { name: PIPELINE });
    const dir = tempDir();
    const pulled = await spawnCli(['pull', '--out', dir], { env: a.env });
    expect(pulled.code, pulled.stderr).toBe(0);
    const files = filesOf(dir);
    expect(files['labels.yaml']).toContain('      name: Partner $${ref:webhook-erp-sync-deals.http_auth_password}\n');
    expect(files['pipelines.yaml']).toContain('      name: $${env:CRMCTL_ACCESS_TOKEN}\n');

    // The account it came from holds exactly these names: no change.
    const same = await spawnCli(['plan', '-f', join(dir, 'labels.yaml'), '-f', join(dir, 'pipelines.yaml')], { env: a.env });
    expect(same.code, same.stdout + same.stderr).toBe(0);

    const applied = await spawnCli(['apply', '-f', join(dir, 'labels.yaml'), '-f', join(dir, 'pipelines.yaml')], { env: b.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`created    lead-label  ${LABEL}`);
    expect(applied.stdout + applied.stderr).not.toContain(b.env.CRMCTL_ACCESS_TOKEN);
    expect(applied.stdout + applied.stderr).not.toContain('erp-hook-secret');
    expect(await names(b, '/api/v1/leadLabels')).toContain(LABEL);
    const pipelines = await names(b, '/api/v2/pipelines');
    expect(pipelines).toContain(PIPELINE);
    expect(pipelines).not.toContain(b.env.CRMCTL_ACCESS_TOKEN);

    // And a pull from there writes them the same way (a fixed point).
    const again = tempDir();
    expect((await spawnCli(['pull', '--out', again], { env: b.env })).code).toBe(0);
    expect(readFileSync(join(again, 'labels.yaml'), 'utf8')).toContain('      name: Partner $${ref:webhook-erp-sync-deals.http_auth_password}\n');
    expect(readFileSync(join(again, 'pipelines.yaml'), 'utf8')).toContain('      name: $${env:CRMCTL_ACCESS_TOKEN}\n');
  });
});

/** A directory holding one configuration file. */
function configDir(name: string, lines: string[]): { dir: string; file: string } {
  const dir = tempDir();
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { dir, file };
}

const WEBHOOK = [
  'config: webhooks',
  'records:',
  '  - kind: webhook',
  '    name: webhook-erp',
  '    spec:',
  '      name: ERP',
  '      event_action: change',
  '      event_object: deal',
  '      subscription_url: http://127.0.0.1:9/erp',
  '      http_auth_user: erp',
  '      http_auth_password: ${env:ERP_HOOK_PASSWORD}',
];

describe('references that would publish a secret', () => {
  it('a reference to a webhook\'s password, in a configuration file: exit 2 naming file, key and rule; nothing read or sent', async () => {
    const { dir, file } = configDir('labels.yaml', [
      'config: labels',
      'records:',
      '  - kind: lead-label',
      '    name: lead-label-partner',
      '    spec:',
      '      name: Partner ${ref:webhook-erp.http_auth_password}',
      '      color: green',
    ]);
    writeFileSync(join(dir, 'webhooks.yaml'), `${WEBHOOK.join('\n')}\n`);
    await b.clearRequests();
    for (const verb of [['plan'], ['apply', '--yes']]) {
      const r = await spawnCli([...verb, '-f', dir], { env: { ...b.env, ERP_HOOK_PASSWORD: 'prod-erp-S3cret' } });
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: ${file}:6 lead-label-partner.spec.name: \${ref:webhook-erp.http_auth_password} reads http_auth_password, a secret: a reference may not copy a secret into a record (give a webhook's password with \${env:VAR})\n${HINT}`,
      });
    }
    expect(await b.requests()).toEqual([]);
  });

  it('the same in a fixture file, and any member whose name is a credential (a token, a client secret)', async () => {
    const dir = tempDir();
    const file = join(dir, 'fixtures.yaml');
    writeFileSync(file, [
      '- kind: webhook',
      '  name: hook',
      '  spec: { name: H, event_action: change, event_object: deal, subscription_url: "http://127.0.0.1:9/x", http_auth_user: u, http_auth_password: pw }',
      '- kind: lead-label',
      '  name: copy',
      '  spec:',
      '    name: "${ref:hook.http_auth_password}"',
      '    color: "${ref:hook.settings.client_secret}"',
      '',
    ].join('\n'));
    const r = await spawnCli(['apply', '-f', file, '--dry-run'], { env: b.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe([
      `error: ${file}:7 copy.spec.name: \${ref:hook.http_auth_password} reads http_auth_password, a secret: a reference may not copy a secret into a record (give a webhook's password with \${env:VAR})`,
      `${file}:8 copy.spec.color: \${ref:hook.settings.client_secret} reads client_secret, a secret: a reference may not copy a secret into a record (give a webhook's password with \${env:VAR})`,
      '',
    ].join('\n') + HINT);
  });

  it('crmctl\'s own credentials in ${env:…} (the access token CI sets, a refresh token, a client secret): exit 2, nothing read or sent', async () => {
    const { file } = configDir('pipelines.yaml', [
      'config: pipelines',
      'records:',
      '  - kind: pipeline',
      '    name: pipeline-ci',
      '    spec:',
      '      name: ${env:CRMCTL_ACCESS_TOKEN}',
      '  - kind: pipeline',
      '    name: pipeline-refresh',
      '    spec:',
      '      name: Refresh ${env:CRMCTL_REFRESH_TOKEN:-none}',
      '  - kind: pipeline',
      '    name: pipeline-client',
      '    spec:',
      '      name: ${env:crmctl_client_secret:-x}',
    ]);
    await b.clearRequests();
    const r = await spawnCli(['plan', '-f', file], { env: b.env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: [
        `error: ${file}:6 pipeline-ci.spec.name: \${env:CRMCTL_ACCESS_TOKEN} reads CRMCTL_ACCESS_TOKEN, crmctl's own credential: a file may not copy it into a record (put a value meant for a record in a variable of its own)`,
        `${file}:10 pipeline-refresh.spec.name: \${env:CRMCTL_REFRESH_TOKEN:-none} reads CRMCTL_REFRESH_TOKEN, crmctl's own credential: a file may not copy it into a record (put a value meant for a record in a variable of its own)`,
        `${file}:14 pipeline-client.spec.name: \${env:crmctl_client_secret:-x} reads crmctl_client_secret, crmctl's own credential: a file may not copy it into a record (put a value meant for a record in a variable of its own)`,
        '',
      ].join('\n') + HINT,
    });
    expect(await b.requests()).toEqual([]);
  });
});

describe('plan shows what the templates stand for', () => {
  it('env values written out, a webhook password masked everywhere, an unchanged password no change', async () => {
    const { dir } = configDir('labels.yaml', [
      'config: labels',
      'records:',
      '  - kind: lead-label',
      '    name: lead-label-region',
      '    spec:',
      '      name: Partner ${env:REGION}',
      '      color: ${env:COLOR:-green}',
    ]);
    writeFileSync(join(dir, 'webhooks.yaml'), `${WEBHOOK.join('\n')}\n`);
    const env = { ...b.env, REGION: 'North', ERP_HOOK_PASSWORD: 'prod-erp-S3cret' };
    const out = join(tempDir(), 'plan.json');
    const plan = await spawnCli(['plan', '-f', dir, '--out', out], { env });
    expect(plan.code, plan.stderr).toBe(8);
    expect(plan.stdout.split('\n').slice(0, 6)).toEqual([
      '+ lead-label Partner North',
      '+ lead-label Partner North: name = "Partner North" (from "Partner ${env:REGION}")',
      '+ lead-label Partner North: color = "green" (from "${env:COLOR:-green}")',
      '+ webhook ERP',
      '+ webhook ERP: http_auth_password = "********" (from "${env:ERP_HOOK_PASSWORD}")',
      expect.stringMatching(/^Plan: 2 to create, 0 to change, 0 to replace, 0 to delete, \d+ unchanged\./),
    ]);
    const saved = readFileSync(out, 'utf8');
    expect(saved).not.toContain('prod-erp-S3cret');
    expect(JSON.parse(saved).actions.find((x: { kind: string }) => x.kind === 'webhook').values).toEqual([
      { field: 'http_auth_password', value: '********', template: '${env:ERP_HOOK_PASSWORD}', pending: false },
    ]);

    const applied = await spawnCli(['apply', '-f', dir], { env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout + applied.stderr).not.toContain('prod-erp-S3cret');

    // The account answers with the same password: nothing to replace (it used to be replaced on every run).
    const again = await spawnCli(['plan', '-f', dir], { env });
    expect(again.code, again.stdout).toBe(0);
    const recolored = await spawnCli(['plan', '-f', dir], { env: { ...env, COLOR: 'blue', ERP_HOOK_PASSWORD: 'rotated-pw' } });
    expect(recolored.code).toBe(8);
    expect(recolored.stdout.split('\n').slice(0, 2)).toEqual([
      '~ lead-label Partner North: color "green" -> "blue"',
      '-/+ webhook ERP: http_auth_password "********" -> "********"',
    ]);
    expect(recolored.stdout).not.toContain('rotated-pw');
  });
});
