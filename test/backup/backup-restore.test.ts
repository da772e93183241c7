// Moving a whole account (issue 30): the demo account (sandbox A) backed up, restored into an empty
// sandbox B whose configuration is applied by the restore itself (new custom-field keys, option ids,
// label ids, stage ids, record ids), then `diff` says identical for every kind. The restore is killed
// with SIGKILL mid-way and resumed: every record lands exactly once (counted in B's store). A dry run
// sends nothing (B's request log); a backup of the target account itself is refused.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, spawnCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { killMidRun, workDir } from '../automation/helpers.js';

let a: SandboxFixture;
let b: SandboxFixture;
const dir = join(workDir(), 'acme');

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);
const restoreDirOf = () => {
  const base = join(dir, 'restore');
  const keys = existsSync(base) ? readdirSync(base) : [];
  return keys.length === 1 ? join(base, keys[0]!) : undefined;
};
const writes = async (fx: SandboxFixture) => (await fx.requests()).filter((r) => r.method !== 'GET');

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  b = await startFixture({ seed: 'empty' });
  // B is a company with contact sync, as A is (a person's postal address, job title… exist only then).
  (b.sandbox.state.company as unknown as Record<string, unknown>).contact_sync_enabled = true;
  // Kinds the demo lacks, so that restore carries each: a deal discount, deal and organization followers
  // (two each: backup reads the followers of records with more than one).
  for (const args of [
    ['deals', 'discounts', 'add', '1', '--description', 'Loyalty', '--amount', '10', '--type', 'percentage'],
    ['deals', 'followers', 'add', '1', '--user-id', '2'], ['deals', 'followers', 'add', '1', '--user-id', '3'],
    ['organizations', 'followers', 'add', '1', '--user-id', '2'], ['organizations', 'followers', 'add', '1', '--user-id', '3'],
    // A file's description: an upload takes none, so restore sets it after the upload.
    ['files', 'update', '1', '--description', 'Signed by both parties'],
  ]) expect((await runBin(args, { env: a.env })).code, args.join(' ')).toBe(0);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('backup → restore into another account → diff', () => {
  it('backup --out DIR writes config/, records/<kind>.ndjson and a manifest with counts and sha256 of each file', async () => {
    const r = await runBin(['backup', '--out', dir], { env: a.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Backup of Sandbox Trading Ltd \(company 1 at http:\/\/127\.0\.0\.1:\d+\) in .*acme, from \S+Z to \S+Z \(service time\):$/m);
    expect(r.stdout).toMatch(/^ {2}deals-archived +1$/m);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(m.format).toBe('crmctl-backup/1');
    expect(m.account).toMatchObject({ api_origin: a.sandbox.url, company_id: 1, user_id: 1 });
    // Every deal of A, plain and archived, is in the backup once.
    const deals = await a.collection('deals');
    expect(m.kinds.deals.count + m.kinds['deals-archived'].count).toBe(deals.length);
    for (const kind of ['organizations', 'persons', 'deals', 'leads-archived', 'activities', 'notes', 'note-comments', 'tasks']) {
      const file = join(dir, m.kinds[kind].file);
      expect(m.kinds[kind].count, kind).toBe(lines(file));
      expect(m.kinds[kind].sha256, kind).toBe(`sha256:${createHash('sha256').update(readFileSync(file)).digest('hex')}`);
    }
    expect(existsSync(join(dir, 'config', 'fields.yaml'))).toBe(true);
  }, 60_000);

  it('restore --dry-run prints records per kind, the cost and the days of budget, and sends nothing', async () => {
    await b.clearRequests();
    const r = await runBin(['restore', dir, '--dry-run'], { env: b.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}persons +14 records {2}cost 70$/m);
    expect(r.stdout).toMatch(/^\d+ records, cost [\d,]+: fits in today's budget \([\d,]+ of [\d,]+ left today\)\.$/m);
    expect(r.stdout).toContain('Dry run: nothing was sent.');
    expect(await writes(b)).toEqual([]);
    expect((await b.collection('persons'))?.length ?? 0).toBe(0);
  }, 60_000);

  it('restore into the account the backup came from is refused (exit 2), nothing sent', async () => {
    await a.clearRequests();
    const r = await runBin(['restore', dir], { env: a.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a backup of this account .*; restoring it here would create every record a second time/);
    expect(await writes(a)).toEqual([]);
  }, 30_000);

  it('killed with SIGKILL mid-restore, then --resume: every record once in B, and diff says identical per kind', async () => {
    // Killed once persons are being created (configuration applied, organizations done).
    await killMidRun(['restore', dir], b.env, () => {
      const d = restoreDirOf();
      return d !== undefined && lines(join(d, 'idmap', 'persons.ndjson')) >= 3;
    });
    const before = lines(join(restoreDirOf()!, 'idmap', 'persons.ndjson'));
    expect(before).toBeLessThan(14);
    const again = await spawnCli(['restore', dir], { env: b.env });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('Continue it with --resume');
    const r = await spawnCli(['restore', dir, '--resume'], { env: b.env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}persons +14\/14$/m);
    expect(r.stdout).toMatch(/^ {2}deal-followers +2\/2$/m);
    expect(r.stdout).toMatch(/^114 records created\.$/m);

    // 0 duplicates, 0 lost: B holds exactly what the backup holds, kind by kind (archived records included).
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const inBackup = (...kinds: string[]) => kinds.reduce((n, k) => n + m.kinds[k].count, 0);
    const expected: Record<string, number> = {
      organizations: inBackup('organizations'), persons: inBackup('persons'), products: inBackup('products'), deals: inBackup('deals', 'deals-archived'),
      leads: inBackup('leads', 'leads-archived'), projects: inBackup('projects', 'projects-archived'), projectTasks: inBackup('tasks'), activities: inBackup('activities'),
      notes: inBackup('notes'), noteComments: inBackup('note-comments'), dealProducts: inBackup('deal-products'),
    };
    const got: Record<string, number> = {};
    for (const c of Object.keys(expected)) got[c] = (await b.collection(c)).length;
    expect(got).toEqual(expected);
    expect(expected.persons).toBe(14);
    // Links were rewritten: B's deal "Acme annual licence" points at B's Acme and B's Alice, by their new ids.
    const [bDeal] = (await b.collection('deals')).filter((d) => d.title === 'Acme annual licence');
    const bOrg = (await b.collection('organizations')).find((o) => o.id === bDeal!.org_id);
    const bPerson = (await b.collection('persons')).find((p) => p.id === bDeal!.person_id);
    expect([bOrg?.name, bPerson?.name]).toEqual(['Acme Corporation', 'Alice Andersson']);
    const idmap = readFileSync(join(restoreDirOf()!, 'idmap', 'organizations.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(idmap).toHaveLength(8);

    // Discounts, installments, followers and files land on the mapped records; followers by user e-mail.
    const bDealId = bDeal!.id;
    expect((await b.collection('dealDiscounts')).map((x) => [x.deal_id, x.description, x.amount, x.type])).toEqual([[bDealId, 'Loyalty', 10, 'percentage']]);
    const bUsers = new Map((await b.collection('users')).map((u) => [u.id, u.email]));
    const followersOf = async (object: string, id: unknown) => (await b.collection('followers')).filter((f) => f.object === object && f.item_id === id).map((f) => bUsers.get(f.user_id)).sort();
    // A's deal and organization are followed by Reggie and Sam, not by their owner Ada: the follow B added for
    // its owner on create is removed, so B's lists are A's.
    expect(await followersOf('deal', bDealId)).toEqual(['reggie.regular@example.com', 'sam.seller@example.com']);
    expect(await followersOf('organization', bOrg!.id)).toEqual(['reggie.regular@example.com', 'sam.seller@example.com']);
    expect((await a.collection('followers')).filter((f) => f.object === 'deal' && f.item_id === 1).map((f) => f.user_id).sort()).toEqual([2, 3]);
    expect((await b.collection('dealInstallments')).filter((x) => x.deal_id === bDealId).map((x) => x.description)).toEqual(['Deposit', 'Second payment', 'Final payment']);
    // Each file's bytes, downloaded from B, are the backup's (files/<old id>), on the mapped record.
    const bFiles = await b.collection('files');
    expect(bFiles.map((f) => f.file_name).sort()).toEqual((await a.collection('files')).map((f) => f.file_name).sort());
    const licence = bFiles.find((f) => f.file_name === 'Acme licence agreement.pdf')!;
    // Every item A's file is linked to (its deal, the deal's person and organization), mapped to B's ids.
    expect([licence.deal_id, licence.person_id, licence.org_id]).toEqual([bDealId, bPerson!.id, bOrg!.id]);
    expect(licence.description).toBe('Signed by both parties');
    const downloaded = join(workDir(), 'licence.pdf');
    const dl = await runBin(['files', 'download', String(licence.id), '--out', downloaded], { env: b.env });
    expect(dl.code, dl.stderr).toBe(0);
    expect(readFileSync(downloaded)).toEqual(readFileSync(join(dir, 'files', '1')));
    // A product's category lands as the target's option of the same label (added to B's Category field).
    const categories = new Map((((await b.collection('productFields')).find((f) => f.field_code === 'category')?.options ?? []) as Array<{ id: number; label: string }>).map((o) => [o.id, o.label]));
    const seat = (await b.collection('products')).find((p) => p.name === 'Analytics seat')!;
    expect(categories.get(Number(seat.category))).toBe('Software');
    expect(r.stderr).toMatch(/^Added 3 options to the product field Category: Software, Hardware, Services\.$/m);

    const report = JSON.parse(readFileSync(join(restoreDirOf()!, 'report.json'), 'utf8'));
    expect(report.failed).toEqual([]);
    expect(report.not_carried.kinds).toEqual({});
    expect(report.not_carried.fields.files).toEqual(['user_id']);
    expect(report.not_carried.never).toContain('add_time, update_time and other service-set times (the target sets them at the restore)');

    const d = await runBin(['diff', dir], { env: b.env });
    expect(d.code, d.stdout + d.stderr).toBe(0);
    expect(d.stdout).toMatch(/^Comparing .*acme with the account \(records paired by id map\):$/m);
    for (const kind of [
      'organizations', 'organization-followers', 'persons', 'person-followers', 'products', 'deals', 'deals-archived', 'deal-products', 'deal-discounts', 'deal-installments',
      'deal-participants', 'deal-followers', 'leads', 'leads-archived', 'projects', 'tasks', 'activities', 'notes', 'note-comments', 'files',
    ]) {
      expect(d.stdout, kind).toMatch(new RegExp(`^ {2}${kind} +identical \\(\\d+\\)$`, 'm'));
    }
    expect(d.stdout).toMatch(/^Identical\.$/m);
  }, 120_000);

  it('diff DIR1 DIR2 names what changed (exit 8, --json) and sends nothing', async () => {
    const second = join(workDir(), 'acme-later');
    await runBin(['deals', 'update', '1', '--title', 'Acme annual licence (renewed)'], { env: a.env });
    const r = await runBin(['backup', '--out', second], { env: a.env });
    expect(r.code, r.stderr).toBe(0);
    await a.clearRequests();
    const d = await runBin(['diff', dir, second], { env: a.env });
    expect(d.code).toBe(8);
    expect(d.stdout).toMatch(/^ {2}deals +16 identical; 1 changed: 1→1 title$/m);
    expect(d.stdout).toMatch(/^Different \(exit 8\)\.$/m);
    const j = await runBin(['diff', dir, second, '--json'], { env: a.env });
    expect(j.code).toBe(8);
    expect(JSON.parse(j.stdout).kinds.deals.changed).toEqual([{ a: 1, b: 1, fields: ['title'] }]);
    expect(await a.requests()).toEqual([]);
  }, 60_000);
});
