// A backup's pages (issue 30.7's contract, kept by any change to how the backup reads): each page of a
// list is read once, its records land in id order, and a backup killed with SIGKILL in the middle of
// the deals resumes (--resume) into the same files an uninterrupted backup writes. A backup reads the
// next page while it writes this one, and syncs and journals a page while it writes the next: stopped
// by a signal, it journals every page it wrote before it exits, and drops the page it read ahead.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { control, killMidRun, signalMidRun, workDir } from '../automation/helpers.js';

let a: SandboxFixture;
const whole = join(workDir(), 'whole');
const killed = join(workDir(), 'killed');
const stopped = join(workDir(), 'stopped');

const dealLines = (dir: string): string[] => {
  try {
    return readFileSync(join(dir, 'records', 'deals.ndjson'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  await control(a, 'POST', 'budget', { daily_limit: 100_000_000, daily_used: 0 });
  // Five pages of 500 deals.
  expect((await control(a, 'POST', 'bulk', { collection: 'deals', count: 2_300 })).status).toBe(200);
});
afterAll(async () => {
  await a?.close();
});

describe('backup pages: one read each, resumable after SIGKILL', () => {
  it('each page of deals is requested once, and deals.ndjson holds every deal once in id order', async () => {
    await a.clearRequests();
    const r = await runBin(['backup', '--out', whole], { env: a.env });
    expect(r.code, r.stderr).toBe(0);
    const pages = (await a.requests()).filter((x) => x.method === 'GET' && x.path === '/api/v2/deals');
    expect(pages).toHaveLength(5);
    expect(new Set(pages.map((x) => String(x.query.cursor ?? ''))).size).toBe(5);
    const ids = dealLines(whole).map((l) => Number(JSON.parse(l).id));
    const open = (await a.collection('deals')).filter((d: { is_archived?: boolean }) => !d.is_archived).length;
    expect(ids).toHaveLength(open);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
  }, 120_000);

  it('killed with SIGKILL mid-deals, --resume writes the same files as the whole run', async () => {
    await killMidRun(['backup', '--out', killed], a.env, () => dealLines(killed).length >= 1_000);
    expect(() => readFileSync(join(killed, 'manifest.json'))).toThrow();
    const r = await runBin(['backup', '--out', killed, '--resume'], { env: a.env });
    expect(r.code, r.stderr).toBe(0);
    const m = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).kinds;
    for (const kind of ['deals', 'deal-products', 'persons', 'notes']) {
      expect(m(killed)[kind].count, kind).toBe(m(whole)[kind].count);
      expect(m(killed)[kind].sha256, kind).toBe(m(whole)[kind].sha256);
    }
  }, 120_000);

  it('SIGTERM mid-deals: exit 3, every page written is journaled (deals.ndjson is as long as its last entry says), --resume writes the same files', async () => {
    const r = await signalMidRun(['backup', '--out', stopped], a.env, () => dealLines(stopped).length >= 1_000, 'SIGTERM');
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`error: Backup stopped: ${r.stderr.match(/stopped: (\d+) records/)?.[1]} records written to ${stopped} so far. Continue with --resume.`);
    const entries = readFileSync(join(stopped, '.run', 'journal.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { pass?: string; files?: Record<string, number> });
    const lastDeals = entries.filter((e) => e.pass === 'deals').pop()!;
    expect(lastDeals.files!.deals).toBe(statSync(join(stopped, 'records', 'deals.ndjson')).size);
    await a.clearRequests();
    const resumed = await runBin(['backup', '--out', stopped, '--resume'], { env: a.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    // The pages journaled are not read again: the resumed run reads the rest of the deals only.
    const pages = (await a.requests()).filter((x) => x.method === 'GET' && x.path === '/api/v2/deals');
    expect(pages.length).toBe(5 - entries.filter((e) => e.pass === 'deals').length);
    const m = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).kinds;
    for (const kind of ['deals', 'deal-products', 'persons', 'notes']) {
      expect(m(stopped)[kind].count, kind).toBe(m(whole)[kind].count);
      expect(m(stopped)[kind].sha256, kind).toBe(m(whole)[kind].sha256);
    }
  }, 120_000);
});
