import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { runWithPrompts } from '../ux/helpers.js';
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

// On a terminal, with the scripted prompter answering the confirmation (as the prompt tests do).
const ask = (answer: boolean) => {
  const dir = workDir();
  const opts = { ids: '1,2', field: ['owner_id=3'], state: join(dir, 'state.ndjson'), results: join(dir, 'results.ndjson') };
  return runWithPrompts(['deals', 'bulk-update'], [], opts, fx.env, [answer], {});
};
const patched = async () => (await fx.requests()).filter((q) => q.method === 'PATCH').map((q) => q.path);

describe('bulk-update on a terminal', () => {
  it('asks after the plan; "no" is exit 3 and writes nothing', async () => {
    const r = await ask(false);
    expect(r.error?.exitCode).toBe(3);
    expect(r.stderr).toContain('  2 to update, 0 unchanged (not written)\n');
    expect(r.asked.map((q) => [q.kind, q.message])).toEqual([['confirm', 'Update 2 deals?']]);
    expect(await patched()).toEqual([]);
  });

  it('"yes" updates the records', async () => {
    const r = await ask(true);
    expect(r.error).toBeUndefined();
    expect((await patched()).sort()).toEqual(['/api/v2/deals/1', '/api/v2/deals/2']);
  });
});
