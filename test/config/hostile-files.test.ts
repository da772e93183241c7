import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { api, tempDir } from './helpers.js';

// Issue 28.5: what an account's text or a file can do to the reader of a plan and to the parser.

let fx: SandboxFixture;

beforeAll(async () => {
  fx = await startFixture({ seed: 'empty' });
});
afterAll(async () => {
  await fx.close();
});

const HINT = 'hint: Nothing was sent. See docs/fixtures.md for the file format.\n';

function file(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

describe('plan lines hold one record each, whatever its text', () => {
  it('a label with escape sequences, a carriage return or a newline is quoted with them escaped', async () => {
    await api(fx, 'POST', '/api/v1/leadLabels', { name: 'ok \u001b[2K\u001b[1A\rFAKE', color: 'green' });
    await api(fx, 'POST', '/api/v1/leadLabels', { name: 'Plan: 0 to create\n+ lead-label fake', color: 'red' });
    const path = file('labels.yaml', [
      'config: labels',
      'records:',
      '  - kind: lead-label',
      '    name: lead-label-csi',
      '    spec: { name: "8-bit \\u009b2J csi", color: blue }',
      '',
    ].join('\n'));
    const r = await spawnCli(['plan', '-f', path, '--prune', 'lead-label'], { env: fx.env });
    expect(r.code, r.stderr).toBe(8);
    expect(r.stdout).not.toMatch(/[\u001b\r\u009b]/);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toEqual(expect.arrayContaining([
      '+ lead-label "8-bit \\u009b2J csi"',
      '- lead-label "Plan: 0 to create\\n+ lead-label fake" (not in the files: --prune)',
      '- lead-label "ok \\u001b[2K\\u001b[1A\\rFAKE" (not in the files: --prune)',
    ]));
    // One line per record (the empty seed's three labels are deleted too), then the one summary.
    expect(lines.slice(0, -1).every((l) => /^[+-] lead-label /.test(l))).toBe(true);
    expect(lines).toHaveLength(7);
    expect(lines[6]).toMatch(/^Plan: 1 to create, 0 to change, 0 to replace, 5 to delete, /);
  });
});

describe('files built to exhaust the parser: exit 2 naming the file', () => {
  it('a "billion laughs" file (aliases of aliases)', async () => {
    const lines = ['config: labels', 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
    lines.push('records:', '  - kind: lead-label', '    name: laughs', '    spec: { name: x, color: green, junk: *a8 }', '');
    const path = file('labels.yaml', lines.join('\n'));
    const r = await spawnCli(['plan', '-f', path], { env: fx.env });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${path}:12 record 1: its aliases (*name) would expand to more than 100 copies of what they refer to (a "billion laughs" file); write the values out\n${HINT}` });
  });

  it('a value nested 50,000 deep', async () => {
    const path = file('labels.yaml', `config: labels\nrecords:\n  - kind: lead-label\n    name: deep\n    spec: { name: x, color: green, junk: ${'['.repeat(50_000)}${']'.repeat(50_000)} }\n`);
    const r = await spawnCli(['plan', '-f', path], { env: fx.env });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${path}:5:105: nested more than 64 levels deep; a record is never that deep\n${HINT}` });
  });

  it('a file larger than the limit is not read at all', async () => {
    const path = join(tempDir(), 'labels.yaml');
    // A sparse file: 40 MB by its size, nothing written.
    writeFileSync(path, '');
    truncateSync(path, 40 * 1024 * 1024);
    const r = await spawnCli(['plan', '-f', path], { env: fx.env });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${path}: is 40.0 MB, more than the 32.0 MB a fixture or configuration file may hold; split its records into several files (-f takes a directory)\n${HINT}` });
  });
});

describe('a large legitimate file', () => {
  it('45,000 records plan with a small stack: nothing spreads a file-sized list into a call', async () => {
    // Spreading a list into push() or Math.max() puts every item on the stack: at node's default
    // stack that fails past ~120k records; at 200 kB it fails past ~20k, so 45k records show it in seconds.
    const n = 45_000;
    const rows: string[] = [];
    for (let i = 0; i < n; i++) rows.push(`- kind: lead-label\n  name: l${i}\n  spec: { name: Label ${i}, color: green }`);
    const path = file('labels.yaml', `${rows.join('\n')}\n`);
    const r = await spawnCli(['apply', '-f', path, '--dry-run', '--state', join(tempDir(), 'state.json')], { env: fx.env, nodeArgs: ['--stack-size=200'], timeoutMs: 290_000 });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(n + 2);
    expect(lines[n - 1]).toBe(`create     lead-label  l${n - 1}  (cost 10)`);
    expect(lines.slice(-2)).toEqual([`Plan: ${n} to create, 0 to update, 0 to replace, 0 to delete, 0 unchanged. Total cost: ${n * 10}.`, 'Dry run: nothing was sent.']);
  }, 300_000);
});
