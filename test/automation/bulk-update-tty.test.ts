import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { workDir } from './helpers.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

const ask = (answer: string) => {
  const dir = workDir();
  const files = ['--state', join(dir, 'state.ndjson'), '--results', join(dir, 'results.ndjson')];
  return runCli(['deals', 'bulk-update', '--ids', '1,2', '--field', 'owner_id=3', ...files], { env: fx.env, tty: true, stdin: answer });
};
const patched = async () => (await fx.requests()).filter((q) => q.method === 'PATCH').map((q) => q.path);

describe('bulk-update on a terminal', () => {
  it('asks after the plan; "no" is exit 3 and writes nothing', async () => {
    const r = await ask('n\n');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('  2 to update, 0 unchanged (not written)\n');
    expect(r.stderr).toContain('Update 2 deals?');
    expect(await patched()).toEqual([]);
  });

  it('"yes" updates the records', async () => {
    const r = await ask('y\n');
    expect(r.code, r.stderr).toBe(0);
    expect((await patched()).sort()).toEqual(['/api/v2/deals/1', '/api/v2/deals/2']);
  });
});
