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

// Issue 29.5: off a terminal every input a command line left out is named in one error, not one per
// run (`--title`, then `--person-id`, then `--value-currency`): the rules that span fields are found
// with stand-ins for the missing values, which are never sent.
describe('off a terminal, every missing input in one error', () => {
  it('leads create --value-amount 5: title, currency and person-or-organization together (exit 2, nothing sent)', async () => {
    const r = await runCli(['leads', 'create', '--value-amount', '5'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --title: is required\n' +
        '--value-currency: is required\n' +
        '--person-id: a lead needs a person or an organization: give --person-id or --organization-id (or both)\n' +
        'hint: Not a terminal, so nothing is asked: give each of these flags (on a terminal crmctl asks for them).\n',
    );
    expect(r.stdout).toBe('');
    expect(await fx.requests()).toEqual([]);
  });

  it('with --json the one error lists them as issues', async () => {
    const r = await runCli(['leads', 'create', '--json'], { env: fx.env });
    expect(r.code).toBe(2);
    const { error } = JSON.parse(r.stderr);
    expect(error.issues.map((i: { field: string }) => i.field)).toEqual(['--title', '--person-id']);
  });

  it('a value given wrong is named beside the missing ones', async () => {
    const r = await runCli(['leads', 'create', '--organization-id', '1', '--value-amount', '5', '--expected-close-date', 'tomorrow'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --title: is required\n--value-currency: is required\n--expected-close-date: must be a date YYYY-MM-DD\n/);
    expect(await fx.requests()).toEqual([]);
  });

  it('typed flags of a command are all checked before one error (--limit and --start both wrong)', async () => {
    const r = await runCli(['leads', 'list', '--limit', '0', '--start', '-1'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --limit: must be a positive integer (got "0")\n--start: must be a non-negative integer (got "-1")\n');
    expect(await fx.requests()).toEqual([]);
  });

  it('--jq points to --query (JMESPath) and the output help', async () => {
    for (const args of [['deals', 'list', '--jq', '.[].id'], ['deals', '--jq=.'], ['--jq', '.', 'deals', 'list']]) {
      const r = await runCli(args, { env: fx.env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(`error: unknown option '${args.find((a) => a.startsWith('--jq'))}': crmctl filters output with --query, a JMESPath expression (as aws and az do), e.g. --query "[].id"; see \`crmctl help output\`. Or pipe --json to jq.\n`);
    }
    expect(await fx.requests()).toEqual([]);
  });
});
