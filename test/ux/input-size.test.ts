// One cap for a request body read from a file (@path) or stdin (-): 5 MB, refused before anything is sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

const big = JSON.stringify({ name: 'x', note: 'y'.repeat(6 * 1024 * 1024) });
const HINT = 'hint: To create many records from a file, use `crmctl import`.\n';

describe('--data and --input: 5 MB from a file or from stdin', () => {
  it('--data - and --data @file over 5 MB are refused the same way (exit 2, nothing sent)', async () => {
    await fx.clearRequests();
    const stdin = await runCli(['lead-labels', 'create', '--data', '-', '--color', 'red'], { env: fx.env, stdin: big });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toBe(`error: --data: stdin is more than 5 MB; input given with @file or - may be at most 5 MB (one request body)\n${HINT}`);
    const file = join(tempConfigDir(), 'big.json');
    writeFileSync(file, big);
    const fromFile = await runCli(['lead-labels', 'create', '--data', `@${file}`, '--color', 'red'], { env: fx.env });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toBe(`error: --data: ${file} is 6.0 MB; input given with @file or - may be at most 5 MB (one request body)\n${HINT}`);
    expect(await fx.requests()).toEqual([]);
  });

  it('api --input - and --input file share the cap', async () => {
    await fx.clearRequests();
    const r = await runCli(['api', 'POST', '/api/v1/leadLabels', '--input', '-'], { env: fx.env, stdin: big });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: --input: stdin is more than 5 MB; input given with @file or - may be at most 5 MB (one request body)\n${HINT}`);
    expect(await fx.requests()).toEqual([]);
    const ok = await runCli(['api', 'POST', '/api/v1/leadLabels', '--input', '-'], { env: fx.env, stdin: '{"name":"small","color":"red"}' });
    expect(ok.code, ok.stderr).toBe(0);
  });
});
