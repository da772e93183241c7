import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { sandboxState, startSandboxFrom, stopStartedSandboxes } from '../helpers/sandbox-from.js';
import { api, filesOf, tempDir, writes } from './helpers.js';

// Issue 28.5: natural keys the service lets an account hold twice. pull, plan, apply and
// `sandbox start --from` must agree about them: pulled duplicates are listed in reference.yaml (never
// written as configuration), a fresh pull always plans, and files that hold a key twice are refused
// by all three alike.

let a: SandboxFixture;
let b: SandboxFixture;
let pulled: string;
let dupIds: string[];

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  dupIds = [(await api(a, 'POST', '/api/v1/leadLabels', { name: 'Dup', color: 'green' })).id, (await api(a, 'POST', '/api/v1/leadLabels', { name: 'Dup', color: 'red' })).id];
  // The demo seed has a "Site visit" already: now there are two.
  await api(a, 'POST', '/api/v1/activityTypes', { name: 'Site visit', icon_key: 'meeting' });
  // Two pipelines called Twin: their stages cannot be written either (their pipeline reference would name nothing).
  for (const n of [1, 2]) {
    const p = await api(a, 'POST', '/api/v2/pipelines', { name: 'Twin' });
    await api(a, 'POST', '/api/v2/stages', { name: `Twin stage ${n}`, pipeline_id: p.id });
  }
  pulled = tempDir();
  const r = await spawnCli(['pull', '--out', pulled], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  stopStartedSandboxes();
  await a.close();
  await b.close();
});

describe('records of the account that share a natural key', () => {
  it('pull lists them in reference.yaml with the reason and their ids, not in the configuration files', () => {
    const files = filesOf(pulled);
    expect(files['labels.yaml']).not.toContain('name: Dup');
    expect(files['activity-types.yaml']).not.toContain('Site visit');
    expect(files['pipelines.yaml']).not.toContain('Twin');
    const reference = files['reference.yaml']!;
    for (const [id, color] of [[dupIds[0], 'green'], [dupIds[1], 'red']]) {
      expect(reference).toContain([
        '    - kind: lead-label',
        `      id: ${id}`,
        '      label: Dup',
        '      spec:',
        '        name: Dup',
        `        color: ${color}`,
        '      refused: another lead-label of the account has the same name, so neither can be matched with a file record; rename all but one of them to pull them as configuration',
      ].join('\n'));
    }
    expect(reference.match(/refused: another activity-type of the account has the same name/g)).toHaveLength(2);
    expect(reference).toContain('      label: Twin/Twin stage 1');
    expect(reference).toContain('      refused: refers to pipeline Twin, which is not configuration either (another pipeline of the account has the same name, so neither can be matched with a file record; rename all but one of them to pull them as configuration)');
  });

  it('a fresh pull plans: exit 0 against the account it came from (--prune leaves the duplicates alone), 8 against another, never 2', async () => {
    const same = await spawnCli(['plan', '-f', pulled, '--prune', 'lead-label,activity-type,pipeline,stage'], { env: a.env });
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^No changes: the account matches the files/);
    const other = await spawnCli(['plan', '-f', pulled], { env: b.env });
    expect(other.code, other.stderr).toBe(8);
    expect(other.stderr).toBe('');
  });

  it('apply and sandbox start --from take the pulled files as plan does', async () => {
    const applied = await spawnCli(['apply', '-f', pulled], { env: b.env });
    expect(applied.code, applied.stderr).toBe(0);
    expect((await spawnCli(['plan', '-f', pulled], { env: b.env })).code).toBe(0);
    const sb = await startSandboxFrom(['--seed', 'empty', '--from', pulled]);
    try {
      expect(sb.stderr()).toMatch(new RegExp(`^Loaded ${pulled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ configuration records from \\d+ files`));
      const labels = await sandboxState<{ name: string }>(sb.info.url, 'leadLabels');
      expect(labels.filter((l) => l.name === 'Dup')).toEqual([]);
    } finally {
      sb.child.kill('SIGTERM');
      await sb.closed;
    }
  });
});

describe('files that hold a natural key twice', () => {
  const twice = () => {
    const dir = tempDir();
    const file = join(dir, 'labels.yaml');
    writeFileSync(file, [
      'config: labels',
      'records:',
      '  - kind: lead-label',
      '    name: lead-label-dup',
      '    spec: { name: Dup, color: green }',
      '  - kind: lead-label',
      '    name: lead-label-dup-2',
      '    spec: { name: Dup, color: red }',
      '',
    ].join('\n'));
    const stderr = `error: ${file}:6 lead-label-dup-2: has the same name as lead-label-dup (${file}:3), so both would be matched with one lead-label of the account; a record's natural key must be unique (crmctl pull lists such records in reference.yaml)\n`;
    return { dir, stderr };
  };

  it('plan and apply refuse them alike, whatever the account holds (one Dup, two, none): exit 2, nothing sent', async () => {
    const { dir, stderr } = twice();
    for (const fx of [a, b]) {
      await fx.clearRequests();
      for (const verb of [['plan'], ['apply', '--yes'], ['apply', '--dry-run']]) {
        const r = await spawnCli([...verb, '-f', dir], { env: fx.env });
        expect(r, verb.join(' ')).toEqual({ code: 2, stdout: '', stderr: `${stderr}hint: Nothing was sent. See docs/fixtures.md for the file format.\n` });
      }
      expect(await fx.requests()).toEqual([]);
    }
    expect(writes(await b.requests())).toEqual([]);
  });

  it('sandbox start --from refuses them before it starts', async () => {
    const { dir, stderr } = twice();
    const r = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', dir], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `${stderr}hint: Nothing was sent. See docs/fixtures.md for the file format.\n` });
  });
});
