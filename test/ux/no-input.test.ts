import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.clearRequests();
});

/**
 * Each area's create (or add) command with no flags, piped: it must not wait for a prompt, must
 * name every required flag the interface asks for, exit 2, and send nothing.
 */
const CREATES: Array<[string, string[], string[]]> = [
  ['leads', ['leads', 'create'], ['--title']],
  ['lead-labels', ['lead-labels', 'create'], ['--name', '--color']],
  ['notes', ['notes', 'create'], ['--content']],
  ['note comments', ['notes', 'comments', 'add', '1'], ['--content']],
  ['projects', ['projects', 'create'], ['--title']],
  ['phases', ['phases', 'create'], ['--name', '--board-id']],
  ['subscriptions (recurring)', ['subscriptions', 'create-recurring'], ['--deal-id', '--currency', '--cadence-type', '--cycle-amount', '--start-date']],
  ['subscriptions (installment)', ['subscriptions', 'create-installment'], ['--deal-id', '--currency', '--payment']],
  ['installments', ['installments', 'add', '1'], ['--description', '--amount', '--billing-date']],
  ['goals', ['goals', 'create'], ['--assignee-id', '--assignee-type', '--type-name', '--target', '--metric', '--start', '--interval']],
  ['roles', ['roles', 'create'], ['--name']],
  ['role assignments', ['roles', 'assignments', 'add', '1'], ['--user-id']],
  ['teams', ['teams', 'create'], ['--name', '--manager-id']],
  ['activity-types', ['activity-types', 'create'], ['--name', '--icon-key']],
  ['org-fields', ['org-fields', 'create'], ['--field-name', '--field-type']],
  ['webhooks', ['webhooks', 'create'], ['--url', '--action', '--object', '--name']],
];

describe('off a terminal nothing is asked: a create with no flags fails fast naming the flags', () => {
  it.each(CREATES)('%s', async (_area, args, flags) => {
    const started = Date.now();
    const r = await runCli(args, { env: fx.env });
    expect(r.code, r.stderr).toBe(2);
    for (const flag of flags) expect(r.stderr).toMatch(new RegExp(`${flag}\\b[^\\n]*(is required|required)`));
    expect(r.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await fx.requests()).toEqual([]);
  });

  it('a missing path argument is named, not asked for', async () => {
    const r = await runCli(['lead-labels', 'delete', '--yes'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('missing argument <id>');
    expect(await fx.requests()).toEqual([]);
  });

  it.each([
    ['--no-input on a terminal', ['--no-input'], {}],
    ['CI=true on a terminal', [], { CI: 'true' }],
  ])('%s: no prompt either', async (_name, extra, env) => {
    const r = await runCli(['lead-labels', 'create', ...extra], { env: { ...fx.env, ...env }, tty: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--name: is required/);
    expect(r.stderr).toMatch(/--color: is required/);
    expect(await fx.requests()).toEqual([]);
  });

  it('an update with nothing to change names the flags instead of asking', async () => {
    const r = await runCli(['lead-labels', 'update', '0f8f6b1e-2a8c-4a3e-9d0b-1c2d3e4f5a6b'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to update: give at least one of --name, --color');
    expect(await fx.requests()).toEqual([]);
  });
});
