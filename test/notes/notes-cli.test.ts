// crmctl notes: what users see, what reached the service, and the state left behind.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { seedUuid } from '../../src/sandbox/seed/base.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { cliFor, deletedOf, lastRequest, sent } from './helpers.js';

let fx: SandboxFixture;
let cli: ReturnType<typeof cliFor>;
const LEAD0 = seedUuid('lead:0');

beforeAll(async () => {
  fx = await startFixture();
  cli = cliFor(fx);
});
afterAll(() => fx.close());
beforeEach(async () => {
  await fx.reset();
  await fx.clearRequests();
});

describe('notes list', () => {
  test('filters by attached item and sends exactly the filter', async () => {
    const r = await cli(['notes', 'list', '--deal-id', '1', '--output', 'tsv', '--fields', 'id,deal.title,user.name']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('3\tAcme annual licence\tAda Admin\n7\tAcme annual licence\tAda Admin\n');
    const req = await lastRequest(fx);
    expect(req).toMatchObject({ method: 'GET', path: '/api/v1/notes', query: { deal_id: '1', limit: '100' } });
  });

  test('pinned, date-range, lead and sort filters reach the service and narrow the list', async () => {
    let r = await cli(['notes', 'list', '--pin-org', '1', '--output', 'tsv', '--fields', 'id,org_id,pinned_to_organization_flag']);
    expect(r.stdout).toBe('5\t1\t1\n');
    expect((await lastRequest(fx)).query).toMatchObject({ pinned_to_organization_flag: '1' });

    r = await cli(['notes', 'list', '--start-date', '2025-01-14', '--end-date', '2025-01-15', '--sort', 'add_time DESC', '--output', 'tsv', '--fields', 'id,add_time']);
    expect(r.stdout).toBe('6\t2025-01-15 09:30:00\n3\t2025-01-14 09:00:00\n');
    expect((await lastRequest(fx)).query).toMatchObject({ start_date: '2025-01-14', end_date: '2025-01-15', sort: 'add_time DESC' });

    r = await cli(['notes', 'list', '--lead-id', LEAD0, '--user-id', '2', '--json']);
    expect(JSON.parse(r.stdout).map((n: { id: number }) => n.id)).toEqual([2]);
  });

  test('updated_since keeps notes changed at or after the time', async () => {
    expect((await cli(['notes', 'update', '4', '--content', 'Prefers email, never calls.'])).code).toBe(0);
    const r = await cli(['notes', 'list', '--updated-since', '2026-01-01T00:00:00Z', '--output', 'tsv', '--fields', 'id']);
    // Seeded notes are from 2025; only the one just updated (now) is newer.
    expect(r.stdout).toBe('4\n');
  });

  test('--limit and --start page through the list', async () => {
    const r = await cli(['notes', 'list', '--limit', '2', '--start', '2', '--output', 'tsv', '--fields', 'id']);
    expect(r.stdout).toBe('3\n4\n');
    expect((await lastRequest(fx)).query).toMatchObject({ start: '2', limit: '2' });
  });

  test.each([
    [['--sort', 'title ASC'], '--sort: must be "field ASC|DESC" pairs'],
    [['--start-date', '2025-02-01', '--end-date', '2025-01-01'], '--end-date: must not be before --start-date (2025-02-01)'],
    [['--start-date', '2025-02-30'], '--start-date: must be a real calendar date'],
    [['--updated-since', '2025-01-01'], '--updated-since: must be an RFC 3339 date-time'],
    [['--lead-id', 'not-a-uuid'], '--lead-id: must be a UUID'],
    [['--pin-deal', '2'], "option '--pin-deal <value>' argument '2' is invalid. Allowed choices are 0, 1"],
    [['--deal-id', '0'], '--deal-id: must be at least 1'],
  ])('rejects %j before sending', async (flags, message) => {
    const r = await cli(['notes', 'list', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });
});

describe('notes get', () => {
  test('shows the note with the names of what it is attached to', async () => {
    const r = await cli(['notes', 'get', '6', '--json']);
    expect(r.code).toBe(0);
    const n = JSON.parse(r.stdout);
    expect(n).toMatchObject({ id: 6, deal_id: 4, deal: { title: 'Umbrella fleet tracking' }, person: { name: 'Dan Dahl' }, organization: { name: 'Umbrella Logistics' },
      user: { name: 'Sam Seller', email: 'sam.seller@example.com', is_you: false }, pinned_to_deal_flag: 1, active_flag: true });
  });

  test('a missing note exits 5 with the service message', async () => {
    const r = await cli(['notes', 'get', '999']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Note not found');
  });

  test('a non-numeric id is refused before sending', async () => {
    const r = await cli(['notes', 'get', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('<id>');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('notes create', () => {
  test('sends the typed body and the service stores sanitized HTML', async () => {
    const r = await cli(['notes', 'create', '--deal-id', '2', '--person-id', '2', '--pin-deal', '1', '--add-time', '2030-05-01 08:00:00',
      '--content', '<p onclick="steal()">Kick-off <b>booked</b><script>alert(1)</script></p>', '--json']);
    expect(r.code).toBe(0);
    const req = await lastRequest(fx);
    expect(req).toMatchObject({ method: 'POST', path: '/api/v1/notes', status: 200 });
    expect(req.body).toEqual({ content: '<p onclick="steal()">Kick-off <b>booked</b><script>alert(1)</script></p>', deal_id: 2, person_id: 2, pinned_to_deal_flag: 1, add_time: '2030-05-01 08:00:00' });
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ content: '<p>Kick-off <b>booked</b></p>', deal_id: 2, person_id: 2, pinned_to_deal_flag: 1, add_time: '2030-05-01 08:00:00', user_id: 1 });
    const stored = (await fx.collection<{ id: number; content: string }>('notes')).find((n) => n.id === out.id);
    expect(stored?.content).toBe('<p>Kick-off <b>booked</b></p>');
  });

  test.each([
    [['--content', 'x'], '--deal-id: a note must be attached to something: give at least one of --lead-id, --deal-id, --person-id, --org-id, --project-id, --task-id'],
    [['--deal-id', '1'], '--content: is required'],
    [['--deal-id', '1', '--content', '   '], '--content: must not be empty'],
    [['--person-id', '1', '--content', 'x', '--pin-deal', '1'], '--pin-deal: needs --deal-id'],
    [['--deal-id', '1', '--content', 'x', '--add-time', '2025-02-30 10:00:00'], '--add-time: must be a UTC date-time "YYYY-MM-DD HH:MM:SS"'],
    [['--deal-id', '1', '--content', 'x', '--add-time', '2025-01-01T10:00:00Z'], '--add-time: must be a UTC date-time'],
    [['--lead-id', '12345', '--content', 'x'], '--lead-id: must be a UUID'],
    [['--deal-id', 'two', '--content', 'x'], '--deal-id: must be an integer'],
  ])('rejects %j before sending', async (flags, message) => {
    const r = await cli(['notes', 'create', ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(await fx.requests()).toEqual([]);
  });

  test('content over 100000 characters is refused; exactly 100000 is sent', async () => {
    const tooLong = await cli(['notes', 'create', '--deal-id', '1', '--content', 'a'.repeat(100_001)]);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain('--content: must have at most 100000 characters');
    expect(await fx.requests()).toEqual([]);
    const max = await cli(['notes', 'create', '--deal-id', '1', '--content', 'a'.repeat(100_000), '--json']);
    expect(max.code).toBe(0);
    const id = JSON.parse(max.stdout).id;
    const stored = (await fx.collection<{ id: number; content: string }>('notes')).find((n) => n.id === id);
    expect(stored?.content.length).toBe(100_000);
  });

  test('a lead that does not exist is found by a read; the write is never sent', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    const r = await cli(['notes', 'create', '--lead-id', ghost, '--content', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--lead-id: no such lead: ${ghost}`);
    expect(await sent(fx)).toEqual([`GET /api/v1/leads/${ghost}`]);
  });

  test('the service checks targets the CLI cannot read: a missing deal is its 400, exit 2', async () => {
    const before = (await fx.collection('notes')).length;
    const r = await cli(['notes', 'create', '--deal-id', '999', '--content', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('deal_id: deal 999 does not exist');
    expect(await fx.collection('notes')).toHaveLength(before);
  });

  test('--content-file reads a file or stdin; conflicts and empty input are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-notes-'));
    const file = join(dir, 'minutes.html');
    writeFileSync(file, '<h2>Minutes</h2><ul><li>Budget approved</li></ul>');
    let r = await cli(['notes', 'create', '--org-id', '3', '--content-file', file, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).content).toBe('<h2>Minutes</h2><ul><li>Budget approved</li></ul>');

    r = await cli(['notes', 'create', '--org-id', '3', '--content-file', '-', '--json'], { stdin: '<p>from a pipe</p>' });
    expect(r.code).toBe(0);
    expect((await lastRequest(fx)).body).toEqual({ content: '<p>from a pipe</p>', org_id: 3 });

    await fx.clearRequests();
    r = await cli(['notes', 'create', '--org-id', '3', '--content', 'x', '--content-file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--content-file: cannot be combined with --content');
    r = await cli(['notes', 'create', '--org-id', '3', '--content-file', '-'], { stdin: '  \n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--content-file: stdin is empty');
    r = await cli(['notes', 'create', '--org-id', '3', '--content-file', join(dir, 'missing.html')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--content-file: cannot read');
    expect(await fx.requests()).toEqual([]);
  });

  test('a regular user cannot name another author: the service answers 403, exit 4', async () => {
    const reggie = fx.sandbox.issueToken({ userId: 2 }).access_token;
    const r = await cli(['notes', 'create', '--deal-id', '1', '--content', 'x', '--user-id', '1'], { env: { CRMCTL_ACCESS_TOKEN: reggie } });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('only an admin can change the author');
    const own = await cli(['notes', 'create', '--deal-id', '1', '--content', 'x', '--user-id', '2', '--json'], { env: { CRMCTL_ACCESS_TOKEN: reggie } });
    expect(own.code).toBe(0);
    expect(JSON.parse(own.stdout).user).toMatchObject({ name: 'Reggie Regular', is_you: true });
  });
});

describe('notes update and delete', () => {
  test('only the given fields are sent and change', async () => {
    const r = await cli(['notes', 'update', '3', '--pin-deal', '1', '--content', '<p>Signed.</p>', '--json']);
    expect(r.code).toBe(0);
    expect(await lastRequest(fx)).toMatchObject({ method: 'PUT', path: '/api/v1/notes/3', body: { pinned_to_deal_flag: 1, content: '<p>Signed.</p>' } });
    const stored = (await fx.collection<Record<string, unknown>>('notes')).find((n) => n.id === 3)!;
    expect(stored).toMatchObject({ content: '<p>Signed.</p>', pinned_to_deal_flag: true, deal_id: 1, user_id: 1, last_update_user_id: 1 });
  });

  test('pinning to an item the note is not attached to is caught by reading the note first', async () => {
    const r = await cli(['notes', 'update', '4', '--pin-deal', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--pin-deal: needs --deal-id: note 4 is not attached to a deal');
    expect(await sent(fx)).toEqual(['GET /api/v1/notes/4']);
    // Giving the target in the same command is fine.
    const ok = await cli(['notes', 'update', '4', '--pin-deal', '1', '--deal-id', '2', '--output', 'tsv', '--fields', 'deal_id,pinned_to_deal_flag']);
    expect(ok.stdout).toBe('2\t1\n');
  });

  test('nothing to update is a usage error', async () => {
    const r = await cli(['notes', 'update', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to update');
    expect(await fx.requests()).toEqual([]);
  });

  test('delete needs --yes off a terminal; then the note and its comments are marked deleted', async () => {
    let r = await cli(['notes', 'delete', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--yes');
    expect(await fx.requests()).toEqual([]);
    r = await cli(['notes', 'delete', '1', '--yes', '--json']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('true\n');
    expect((await deletedOf(fx, 'notes')).map((n) => [n.id, n.active_flag])).toEqual([[1, false]]);
    expect((await deletedOf(fx, 'noteComments')).length).toBe(2);
    expect((await cli(['notes', 'get', '1'])).code).toBe(5);
  });
});

describe('lead conversion moves notes', () => {
  test('notes of a converted lead are listed on the new deal', async () => {
    const r = await cli(['leads', 'convert', LEAD0, '--wait', '--json']);
    expect(r.code).toBe(0);
    const dealId = JSON.parse(r.stdout).deal_id;
    const list = await cli(['notes', 'list', '--deal-id', String(dealId), '--output', 'tsv', '--fields', 'id,lead_id']);
    expect(list.stdout).toBe('1\t\n2\t\n');
  });
});
