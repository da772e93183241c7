import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { derivedCases, statedLimitCases, type HostileCase } from './hostile-cases.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

/**
 * Hostile input across every command: each case exits 2 with a message naming the field, and the
 * sandbox's request log shows that nothing was sent. The count is reported in docs/reliability.md.
 */
const cases: HostileCase[] = [...(await derivedCases()), ...statedLimitCases()];

describe('hostile input: exit 2, the field named, nothing sent', () => {
  it(`covers many cases (${cases.length})`, () => {
    expect(cases.length).toBeGreaterThan(300);
    process.stdout.write(`hostile-input cases: ${cases.length}\n`);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await fx.clearRequests();
    const r = await runCli(c.argv, { env: fx.env, stdin: c.stdin });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toContain(c.names);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(c.reads ?? []);
  });
});
