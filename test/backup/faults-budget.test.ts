// Exactly once under faults (issue 30): a restore through 5xx, 429 and connection resets (a third of
// them after the service committed the write) creates every record once: a create whose answer was
// lost is looked up by its content, not sent again. A backup stopped by a spent daily budget exits 6
// with its journal kept, and --resume after the reset finishes with the same records as a backup
// made in one go.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, workDir } from '../automation/helpers.js';

let a: SandboxFixture;
let b: SandboxFixture;
const dir = join(workDir(), 'acme');
const env = (fx: SandboxFixture) => ({ ...fx.env, CRMCTL_RETRY_BASE_MS: '2', CRMCTL_MAX_RETRIES: '10' });

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  (b.sandbox.state.company as unknown as Record<string, unknown>).contact_sync_enabled = true;
  const r = await runBin(['backup', '--out', dir], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('restore through faults', () => {
  it('5xx, 429 and resets before and after commit: every record once, answers lost after commit settled by look-up', async () => {
    // The configuration's own faults are the apply engine's (test/reliability); here it is applied first, and
    // the restore's configuration step finds it unchanged.
    const applied = await runBin(['apply', '-f', join(dir, 'config')], { env: b.env });
    expect(applied.code, applied.stderr).toBe(0);
    await control(b, 'PUT', 'faults', { rate5xx: 0.1, rate429: 0.05, rateReset: 0.1, resetAfterCommitShare: 0.5, seed: 3 });
    const r = await runBin(['restore', dir], { env: env(b) });
    await control(b, 'PUT', 'faults', {});
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const n = (...k: string[]) => k.reduce((s, x) => s + m.kinds[x].count, 0);
    const got = {
      organizations: (await b.collection('organizations')).length, persons: (await b.collection('persons')).length,
      deals: (await b.collection('deals')).length, activities: (await b.collection('activities')).length, notes: (await b.collection('notes')).length,
      installments: (await b.collection('dealInstallments')).length, files: (await b.collection('files')).length,
      personFollowers: (await b.collection('followers')).filter((f) => f.object === 'person').length,
    };
    // Person followers: the backup's lines (people followed by more than one user), and the owner's own follow of each other person.
    const followed = new Set(readFileSync(join(dir, 'records', 'person-followers.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).person_id));
    expect(got).toEqual({
      organizations: n('organizations'), persons: n('persons'), deals: n('deals', 'deals-archived'), activities: n('activities'), notes: n('notes'),
      installments: n('deal-installments'), files: n('files'), personFollowers: n('person-followers') + n('persons') - followed.size,
    });
    // The faults happened, and some creates were answered by a look-up (or the test proves nothing).
    const log = await b.requests();
    expect(log.filter((x) => x.status >= 500).length).toBeGreaterThan(0);
    expect(log.filter((x) => x.method === 'GET' && x.query && 'updated_since' in x.query).length, 'look-ups after lost answers').toBeGreaterThan(0);
    const d = await runBin(['diff', dir], { env: b.env });
    expect(d.code, d.stdout).toBe(0);
  }, 120_000);
});

describe('backup and the daily budget', () => {
  it('a spent budget stops the backup (exit 6, journal kept); --resume after the reset gives the same records', async () => {
    const out = join(workDir(), 'acme-budget');
    // Enough for the configuration and a few pages, not for the whole account.
    await control(a, 'POST', 'budget', { daily_limit: 1000, daily_used: 0 });
    const r = await runBin(['backup', '--out', out], { env: a.env });
    expect(r.code, r.stderr).toBe(6);
    expect(r.stderr).toMatch(/daily/i);
    expect(() => readFileSync(join(out, 'manifest.json'))).toThrow();
    const again = await runBin(['backup', '--out', out], { env: a.env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('--resume');
    await control(a, 'POST', 'budget', { daily_limit: 10_000_000, daily_used: 0 });
    const resumed = await runBin(['backup', '--out', out, '--resume'], { env: a.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const whole = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const split = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const counts = (m: { kinds: Record<string, { count: number; reference?: boolean }> }) => Object.fromEntries(Object.entries(m.kinds).filter(([, k]) => !k.reference).map(([k, v]) => [k, v.count]));
    expect(counts(split)).toEqual(counts(whole));
    for (const kind of ['deals', 'persons', 'notes', 'deal-products']) expect(split.kinds[kind].sha256, kind).toBe(whole.kinds[kind].sha256);
  }, 120_000);
});
