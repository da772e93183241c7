// The CLI's promises about exit codes and refusals: README's table, docs/exit-codes.md and
// `crmctl help exit-codes` say the same (one table in src/core/exit-codes.ts); a 400 from the service
// exits 2 and says the service refused the input and changed nothing; a 403 blames scopes only when
// the token lacks them, and otherwise says what the service said.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_DESCRIPTIONS } from '../../src/core/exit-codes.js';
import { exitCodesTable, README_EXIT_CODES } from '../../src/docs/markdown.js';
import { startAuthFixture, type AuthFixture } from '../auth/helpers.js';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ROOT, ensureBuilt } from './built.js';

beforeAll(() => ensureBuilt(), 120_000);

describe('exit codes: one table, three places', () => {
  it('README, docs/exit-codes.md and crmctl help exit-codes agree with src/core/exit-codes.ts', async () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const region = readme.slice(readme.indexOf(README_EXIT_CODES.start) + README_EXIT_CODES.start.length, readme.indexOf(README_EXIT_CODES.end));
    expect(region.trim()).toBe(exitCodesTable());

    const help = await runBin(['help', 'exit-codes']);
    expect(help.code).toBe(0);
    const doc = readFileSync(`${ROOT}docs/exit-codes.md`, 'utf8');
    for (const e of EXIT_DESCRIPTIONS) {
      const line = `  ${String(e.code).padEnd(3)} ${e.name.padEnd(13)} ${e.meaning}`;
      expect(help.stdout).toContain(`${line}\n`);
      expect(doc).toContain(`${line}\n`);
      expect(region).toContain(`| ${e.code} | ${e.name} | ${e.meaning} |`);
    }
  });

  it('code 2 says both: refused before sending (nothing sent) or refused by the service (nothing changed)', () => {
    const usage = EXIT_DESCRIPTIONS.find((e) => e.code === 2)!.meaning;
    expect(usage).toContain('nothing was sent');
    expect(usage).toContain('Refused by the service (400 or 422): nothing was changed');
  });
});

describe('a 400 from the service', () => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx?.close());

  it('exits 2, names what the service said, and says nothing was changed', async () => {
    const before = await fx.collection('subscriptions');
    await fx.clearRequests();
    const r = await runBin(
      ['subscriptions', 'create-recurring', '--deal-id', '4', '--currency', 'EUR', '--cadence-type', 'yearly', '--cycle-amount', '100', '--start-date', '2026-01-01', '--infinite'],
      { env: fx.env },
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: The service answered 400 for POST /v1/subscriptions/recurring: deal_id: deal 4 already has a subscription (id 1); a deal can have only one. It refused the input; nothing was changed.\n' +
        'hint: Validation failed. Check the named field.\n',
    );
    // Before the write, the record asks whose account the token is (users/me, once a token).
    expect((await fx.requests()).map((q) => [q.method, q.path, q.status])).toEqual([['GET', '/api/v1/users/me', 200], ['POST', '/v1/subscriptions/recurring', 400]]);
    expect(await fx.collection('subscriptions')).toEqual(before);
  });
});

describe('a 403 from the service', () => {
  let auth: AuthFixture;
  beforeAll(async () => {
    auth = await startAuthFixture({ seed: 'demo' });
  }, 60_000);
  afterAll(async () => auth?.close());

  async function profileFor(name: string, body: { user_id?: number; scopes?: string[] }) {
    const t = await auth.ctl<{ access_token: string; refresh_token: string; expires_in: number; scope: string }>('POST', 'tokens', { lifetime_sec: 3600, ...body });
    await auth.seedProfile(name, t);
    return t.scope.split(/[\s,]+/).filter(Boolean);
  }

  it('with the scope held (a regular user reading the admin-only collection): the service\'s reason, no scope blame', async () => {
    const scopes = await profileFor('regular', { user_id: 2 });
    expect(scopes.some((s) => s.startsWith('contacts:'))).toBe(true);
    const r = await runBin(['persons', 'collection', '--profile', 'regular'], { env: auth.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^notice: GET \/v1\/persons\/collection is a v1 endpoint out of support since 2026-08-01; use crmctl persons list \(v2\)\nerror: Permission denied \(403\) for GET \/v1\/persons\/collection: .+\.\n/);
    expect(r.stderr).not.toContain('needs one of the scopes');
  });

  it('without the scope: names the scopes the operation needs and the ones the token has', async () => {
    await profileFor('narrow', { scopes: ['deals:read'] });
    const r = await runBin(['persons', 'collection', '--profile', 'narrow'], { env: auth.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('This operation needs one of the scopes: ');
    expect(r.stderr).toContain('The token has: deals:read.');
  });
});
