import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { cleanEnv, runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { loopback } from '../http/loopback.js';
import { control, ndjson, runWithStdoutClosedEarly, workDir } from './helpers.js';

let fx: SandboxFixture;
let env: Record<string, string>;
const run = (args: string[], opts: { tty?: boolean } = {}) => runCli(args, { ...opts, env });
const v1 = (iso: string) => iso.slice(0, 19).replace('T', ' ');
type Line = { type: string; action: string; id: number; time: string; record: Record<string, unknown> };

async function serverNow(f: SandboxFixture = fx): Promise<string> {
  const { body } = await control(f, 'GET', 'clock');
  return body.data?.now ?? body.now;
}

/** Makes crmctl's own clock wrong in a child process (test/helpers/skew-clock.mjs). */
const SKEW_CLOCK = fileURLToPath(new URL('../helpers/skew-clock.mjs', import.meta.url));

/** A config file whose default profile is logged in to the fixture's account (no env credentials needed). */
function profileJson(f: SandboxFixture): string {
  const profile = { authUrl: f.sandbox.url, clientId: f.sandbox.clientId, clientSecret: f.sandbox.clientSecret, callbackPort: 8250, apiDomain: f.sandbox.url, accessToken: f.env.CRMCTL_ACCESS_TOKEN, refreshToken: 'r', expiresAt: Date.now() + 3_600_000, scopes: ['base'], kind: 'oauth' };
  return `${JSON.stringify({ defaultProfile: 'default', profiles: { default: profile } }, null, 2)}\n`;
}

/** The user and company the fixture's token belongs to, as the service says (GET users/me). */
async function me(f: SandboxFixture = fx, token = f.env.CRMCTL_ACCESS_TOKEN!): Promise<{ id: number; company_id: number; default_currency: string }> {
  const res = await fetch(`${f.sandbox.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { id: number; company_id: number; default_currency: string } }).data;
}

/** The watermark file of the fixture's account (API origin, company, user) and a set of kinds. */
async function watermarkFile(types: string, f: SandboxFixture = fx, token?: string): Promise<string> {
  const who = await me(f, token);
  return join(env.CRMCTL_CONFIG_DIR!, 'changes', `http_127.0.0.1_${new URL(f.sandbox.url).port}.c${who.company_id}.u${who.id}.${types}.json`);
}

async function created(args: string[]): Promise<number> {
  const r = await run([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).id;
}

/** Changes the test makes: one of each action, on four kinds; returns what the feed must print. */
async function makeChanges(): Promise<Array<[string, string, number]>> {
  const org = (await fx.collection<{ id: number }>('organizations'))[0]!.id;
  const activity = (await fx.collection<{ id: number }>('activities'))[0]!.id;
  const deal = await created(['deals', 'create', '--title', 'Feed deal']);
  const person = await created(['persons', 'create', '--name', 'Feed Person']);
  expect((await run(['organizations', 'update', String(org), '--name', 'Renamed by the feed test'])).code).toBe(0);
  expect((await run(['activities', 'delete', String(activity), '--yes'])).code).toBe(0);
  return [['activities', 'deleted', activity], ['deals', 'added', deal], ['organizations', 'updated', org], ['persons', 'added', person]];
}

const summary = (lines: Line[]) => lines.map((l) => [l.type, l.action, l.id] as [string, string, number]).sort((a, b) => `${a[0]}${a[2]}`.localeCompare(`${b[0]}${b[2]}`));

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
  env = { ...fx.env, CRMCTL_CONFIG_DIR: tempConfigDir() };
});

describe('crmctl changes', () => {
  it('prints exactly what was added, updated and deleted, then nothing new on the next run (exit 0)', async () => {
    const start = await serverNow();
    const first = await run(['changes', '--since', start]);
    expect(first).toEqual({ code: 0, stdout: '', stderr: '' });

    const expected = await makeChanges();
    const second = await run(['changes']);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe('');
    const lines = ndjson(second.stdout) as Line[];
    expect(summary(lines)).toEqual(expected);
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(['type', 'action', 'id', 'time', 'record']);
      expect(l.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(l.record.id).toBe(l.id);
    }
    // Oldest first.
    expect(lines.map((l) => l.time)).toEqual([...lines.map((l) => l.time)].sort());

    await fx.clearRequests();
    const third = await run(['changes']);
    expect(third).toEqual({ code: 0, stdout: '', stderr: '' });
    // The next read starts AT the newest change's second (the service includes it) and drops what was printed.
    const newest = lines.map((l) => l.time).sort().at(-1)!;
    const reqs = await fx.requests();
    // Which account's watermark is known since the first run (users/me is read once a token, as for
    // runs: src/runs/account.ts), and no span needs the service's clock: one recents read.
    expect(reqs.map((q) => [q.method, q.path, q.query.since_timestamp, q.query.items])).toEqual([
      ['GET', '/api/v1/recents', v1(newest), 'deal,person,organization,activity,product'],
    ]);
    expect(reqs.map((q) => q.status)).toEqual([200]);
  });

  it('tells a deletion of each kind from a change: added then deleted in one window is one line, deleted', async () => {
    const start = await serverNow();
    expect((await run(['changes', '--since', start])).code).toBe(0);
    const made: Array<[string, string, number]> = [];
    for (const [kind, args] of [
      ['activities', ['--subject', 'Gone call']], ['deals', ['--title', 'Gone deal']], ['organizations', ['--name', 'Gone org']],
      ['persons', ['--name', 'Gone person']], ['products', ['--name', 'Gone product']],
    ] as Array<[string, string[]]>) {
      const id = await created([kind, 'create', ...args]);
      expect((await run([kind, 'delete', String(id), '--yes'])).code).toBe(0);
      made.push([kind, 'deleted', id]);
    }
    // A won deal is not a deleted one.
    const won = (await fx.collection<{ id: number; status: string }>('deals')).find((d) => d.status === 'open')!.id;
    expect((await run(['deals', 'update', String(won), '--status', 'won'])).code).toBe(0);
    const r = await run(['changes']);
    expect(r.code).toBe(0);
    expect(summary(ndjson(r.stdout))).toEqual([...made, ['deals', 'updated', won] as [string, string, number]].sort((a, b) => `${a[0]}${a[2]}`.localeCompare(`${b[0]}${b[2]}`)));
  });

  it('at the watermark second prints what the last run did not, and only that (ties at the boundary)', async () => {
    const start = await serverNow();
    expect((await run(['changes', '--since', start, '--types', 'deals'])).code).toBe(0);
    const deal = await created(['deals', 'create', '--title', 'At the boundary']);
    expect(summary(ndjson((await run(['changes', '--types', 'deals'])).stdout))).toEqual([['deals', 'added', deal]]);
    const file = await watermarkFile('deals');
    const wm = JSON.parse(readFileSync(file, 'utf8'));
    expect(wm.seen).toEqual([expect.stringMatching(new RegExp(`^deals:${deal}:`))]);
    // As if the deal had been created in the same second but after the last run read: not in `seen`.
    writeFileSync(file, JSON.stringify({ ...wm, seen: [] }));
    const again = await run(['changes', '--types', 'deals']);
    expect(summary(ndjson(again.stdout))).toEqual([['deals', 'added', deal]]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ time: wm.time, seen: wm.seen });
    expect((await run(['changes', '--types', 'deals'])).stdout).toBe('');
  });

  it('keeps one watermark per set of --types, and --types names only those kinds', async () => {
    const start = await serverNow();
    expect((await run(['changes', '--since', start, '--types', 'persons,deals'])).code).toBe(0);
    await makeChanges();
    const r = await run(['changes', '--types', 'deals,persons']);
    expect(r.code).toBe(0);
    expect(summary(ndjson(r.stdout)).map(([t, a]) => `${t} ${a}`)).toEqual(['deals added', 'persons added']);
    // The other kinds have no watermark of their own yet.
    const other = await run(['changes', '--types', 'organizations']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('no watermark yet for this account and --types organizations: the first run needs --since');
  });

  it('--peek prints the changes and leaves the watermark; --reset forgets it', async () => {
    const start = await serverNow();
    expect((await run(['changes', '--since', start])).code).toBe(0);
    const expected = await makeChanges();
    for (let i = 0; i < 2; i++) {
      const peek = await run(['changes', '--peek']);
      expect(peek.code).toBe(0);
      expect(summary(ndjson(peek.stdout))).toEqual(expected);
    }
    expect(summary(ndjson((await run(['changes'])).stdout))).toEqual(expected);
    expect((await run(['changes'])).stdout).toBe('');

    expect(await run(['changes', '--reset'])).toEqual({ code: 0, stdout: '', stderr: '' });
    const after = await run(['changes']);
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('the first run needs --since');
  });

  it('does not move the watermark when the output cannot be written (a failing --out path)', async () => {
    const start = await serverNow();
    expect((await run(['changes', '--since', start])).code).toBe(0);
    const expected = await makeChanges();
    const bad = await run(['changes', '--out', join(workDir(), 'missing-folder', 'changes.ndjson')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('folder does not exist (ENOENT)');
    expect(bad.stderr).toContain('The watermark did not move');
    expect(bad.stderr).not.toContain('--resume');
    if (existsSync('/dev/full')) {
      // The changes were read; writing them fails.
      const full = await run(['changes', '--out', '/dev/full']);
      expect(full.code).toBe(1);
      expect(full.stderr).toContain('No space left on the device while writing /dev/full (ENOSPC)');
      expect(full.stderr).toContain('The watermark did not move');
    }
    const out = join(workDir(), 'changes.ndjson');
    const good = await run(['changes', '--out', out]);
    expect(good).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(summary(ndjson(readFileSync(out, 'utf8')))).toEqual(expected);
    expect((await run(['changes'])).stdout).toBe('');
  });

  it('does not move the watermark when the reader closes the pipe (EPIPE), and pages by time', async () => {
    await control(fx, 'POST', 'bulk', { collection: 'deals', count: 1200 });
    const configDir = env.CRMCTL_CONFIG_DIR!;
    const result = await runWithStdoutClosedEarly(['changes', '--types', 'deals', '--since', '2h', '--page-size', '100'], cleanEnv(env));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Output closed early while writing stdout (EPIPE)');
    expect(result.stderr).toContain('The watermark did not move');
    expect(existsSync(join(configDir, 'changes')) ? readdirSync(join(configDir, 'changes')) : []).toEqual([]);

    // The whole feed, in pages of 500 keyed by time: every bulk deal once.
    await fx.clearRequests();
    const r = await run(['changes', '--types', 'deals', '--since', '2h', '--page-size', '500']);
    expect(r.code).toBe(0);
    const deals = (await fx.collection<{ id: number; title: string }>('deals')).filter((d) => d.title.startsWith('Bulk deal'));
    const lines = ndjson(r.stdout) as Line[];
    expect(lines.map((l) => l.id).sort((a, b) => a - b)).toEqual(deals.map((d) => d.id).sort((a, b) => a - b));
    expect(new Set(lines.map((l) => l.action))).toEqual(new Set(['added']));
    // Pages are keyed by time: each starts at the newest second of the one before (1200 deals a second
    // apart: 500 new, then the last one again and 499 new, then the last again and 201 new).
    const reqs = (await fx.requests()).filter((q) => q.path !== '/api/v1/users/me');
    const since = reqs.map((q) => String(q.query.since_timestamp));
    expect(reqs.map((q) => [q.path, q.query.start, q.query.limit])).toEqual([['/api/v1/recents', '0', '500'], ['/api/v1/recents', '0', '500'], ['/api/v1/recents', '0', '500']]);
    expect(since[1]).toBe(v1(lines[499]!.time));
    expect(since[2]).toBe(v1(lines[998]!.time));
  });

  it('shows a table with --output table', async () => {
    const start = await serverNow();
    expect((await run(['changes', '--since', start])).code).toBe(0);
    await makeChanges();
    const r = await run(['changes', '--output', 'table', '--peek']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/time\s.*type\s.*action\s.*id\s.*name/);
    expect(r.stdout).toContain('Feed deal');
    expect(r.stdout).toContain('deleted');
  });

  it('refuses a second run while one holds the watermark (exit 1); --peek does not need it', async () => {
    const start = await serverNow();
    expect((await run(['changes', '--since', start, '--types', 'deals'])).code).toBe(0);
    const expected = await makeChanges();
    const file = await watermarkFile('deals');
    mkdirSync(join(env.CRMCTL_CONFIG_DIR!, 'changes'), { recursive: true });
    // This process is alive: its lock is not stale.
    writeFileSync(`${file}.lock`, `${process.pid} test ${new Date().toISOString()}\n`);
    const busy = await run(['changes', '--types', 'deals']);
    expect(busy.code).toBe(1);
    expect(busy.stdout).toBe('');
    expect(busy.stderr).toContain(`The changes watermark ${file} is in use by another crmctl run (pid ${process.pid}).`);
    const peek = await run(['changes', '--types', 'deals', '--peek']);
    expect(summary(ndjson(peek.stdout))).toEqual(expected.filter(([t]) => t === 'deals'));
  });

  it('refuses bad input with exit 2, naming the flag, and sends nothing', async () => {
    const cases: Array<[string[], string]> = [
      [['changes', '--since', 'yesterday'], '--since: must be an RFC 3339 time with a zone (2026-11-24T06:00:00Z) or a span back from now like 90m, 24h, 7d (got "yesterday")'],
      [['changes', '--since', '2026-11-24T06:00:00'], '--since: must be an RFC 3339 time with a zone'],
      [['changes', '--since', '1h', '--types', 'deals,leads'], '--types: must name some of deals, persons, organizations, activities, products (got "leads")'],
      [['changes', '--since', '1h', '--page-size', '501'], '--page-size: must be an integer from 1 to 500'],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(message);
    }
    expect(await fx.requests()).toEqual([]);
    // Without a watermark: which account it would be is read (users/me), nothing else.
    const first = await run(['changes']);
    expect(first).toMatchObject({ code: 2, stdout: '' });
    expect(first.stderr).toContain('no watermark yet for this account and --types deals,persons,organizations,activities,products: the first run needs --since');
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v1/users/me']);
  });
  it('counts --since 1h back from the service\'s clock, not from a local clock 2 h ahead, and keeps the watermark on it', async () => {
    const deal = await created(['deals', 'create', '--title', 'Made before the run']);
    // The CLI's own clock is 2 h ahead (a preloaded Date); the sandbox keeps the real time.
    const skewed = { ...env, NODE_OPTIONS: `--import ${SKEW_CLOCK}`, SKEW_CLOCK_MS: String(2 * 3_600_000) };
    await fx.clearRequests();
    const r = await spawnCli(['changes', '--since', '1h', '--types', 'deals'], { env: skewed });
    expect(r.code, r.stderr).toBe(0);
    // Before: the read started an hour into the service's future, and the deal was never printed.
    expect(summary(ndjson(r.stdout))).toEqual([['deals', 'added', deal]]);
    const recents = (await fx.requests()).find((q) => q.path === '/api/v1/recents')!;
    const since = Date.parse(`${String(recents.query.since_timestamp).replace(' ', 'T')}Z`);
    expect(Math.abs(Date.parse(await serverNow()) - 3_600_000 - since)).toBeLessThan(10_000);
    // The watermark is the deal's time as the service keeps it; its updated_at is the service's time too.
    const stored = (await fx.collection<{ id: number; update_time: string }>('deals')).find((d) => d.id === deal)!;
    const wm = JSON.parse(readFileSync(await watermarkFile('deals'), 'utf8'));
    expect(wm.time).toBe(v1(new Date(stored.update_time).toISOString()));
    expect(Math.abs(Date.parse(wm.updated_at) - Date.parse(await serverNow()))).toBeLessThan(60_000);
    // The next change is printed by the next run, on the same skewed machine.
    const next = await created(['deals', 'create', '--title', 'Made after the run']);
    const again = await spawnCli(['changes', '--types', 'deals'], { env: skewed });
    expect(again.code, again.stderr).toBe(0);
    expect(summary(ndjson(again.stdout))).toEqual([['deals', 'added', next]]);
  });

  it('keys the watermark by account: env credentials for one account never move the stored profile\'s watermark of another', async () => {
    const other = await startFixture();
    try {
      const dir = env.CRMCTL_CONFIG_DIR!;
      // The stored default profile is logged in to the other account (another API address).
      writeFileSync(join(dir, 'config.json'), profileJson(other));
      const asProfile = { CRMCTL_CONFIG_DIR: dir };
      const onOther = (args: string[]) => runCli(args, { env: asProfile });
      expect((await onOther(['changes', '--since', await serverNow(other), '--types', 'deals'])).code).toBe(0);
      const otherFile = await watermarkFile('deals', other);
      const otherWatermark = readFileSync(otherFile, 'utf8');
      expect(JSON.parse(otherWatermark)).toMatchObject({ profile: 'default', account: { origin: other.sandbox.url, user_id: 1 } });
      const otherDeal = JSON.parse((await onOther(['deals', 'create', '--title', 'Only in the other account', '--json'])).stdout).id;

      // A run with env credentials (CRMCTL_ACCESS_TOKEN + CRMCTL_API_DOMAIN) under the same profile name and
      // config directory: its own watermark, and the other one is left byte for byte.
      await created(['deals', 'create', '--title', 'Only in this account']);
      expect((await run(['changes', '--since', '1h', '--types', 'deals'])).code).toBe(0);
      expect(readFileSync(otherFile, 'utf8')).toBe(otherWatermark);
      expect(JSON.parse(readFileSync(await watermarkFile('deals'), 'utf8'))).toMatchObject({ account: { origin: fx.sandbox.url } });
      // The stored profile continues from its own watermark: its change is printed, none of the env account's.
      const b = await onOther(['changes', '--types', 'deals']);
      expect(b.code, b.stderr).toBe(0);
      expect(summary(ndjson(b.stdout))).toEqual([['deals', 'added', otherDeal]]);

      // Another user of the same service is another account too.
      const token2 = fx.sandbox.issueToken({ userId: 2 }).access_token;
      const user2 = await runCli(['changes', '--types', 'deals'], { env: { ...env, CRMCTL_ACCESS_TOKEN: token2 } });
      expect(user2.code).toBe(2);
      expect(user2.stderr).toContain('no watermark yet for this account and --types deals');
    } finally {
      await other.close();
    }
  });

  it('adopts the watermark an older crmctl kept under the profile name, for that profile\'s own login only', async () => {
    const dir = env.CRMCTL_CONFIG_DIR!;
    writeFileSync(join(dir, 'config.json'), profileJson(fx));
    const start = v1(await serverNow());
    const deal = await created(['deals', 'create', '--title', 'After the old watermark']);
    mkdirSync(join(dir, 'changes'), { recursive: true });
    const legacy = join(dir, 'changes', 'default.deals.json');
    writeFileSync(legacy, JSON.stringify({ version: 1, profile: 'default', types: ['deals'], time: start, seen: [], updated_at: new Date().toISOString() }));
    // Env credentials are not the profile's login: the old file is not theirs.
    const viaEnv = await run(['changes', '--types', 'deals']);
    expect(viaEnv.code).toBe(2);
    const r = await runCli(['changes', '--types', 'deals'], { env: { CRMCTL_CONFIG_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    expect(summary(ndjson(r.stdout))).toEqual([['deals', 'added', deal]]);
    expect(existsSync(legacy)).toBe(false);
    expect(JSON.parse(readFileSync(await watermarkFile('deals'), 'utf8')).seen).toEqual([expect.stringMatching(new RegExp(`^deals:${deal}:`))]);
  });

  it('a span needs the service\'s clock: without a Date header it is refused, naming the way round; a fixed time still runs', async () => {
    const api = await loopback((req, res) => {
      res.sendDate = false;
      const body = req.url!.startsWith('/api/v1/users/me') ? { success: true, data: { id: 7, company_id: 9 } } : { success: true, data: [], additional_data: { pagination: { more_items_in_collection: false } } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    try {
      const noDate = { CRMCTL_ACCESS_TOKEN: 'tok-no-date-0123456789', CRMCTL_API_DOMAIN: api.url, CRMCTL_CONFIG_DIR: tempConfigDir() };
      const r = await runCli(['changes', '--since', '24h'], { env: noDate });
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: 'error: The service\'s answer had no Date header, so a span like --since 24h cannot be counted on its clock.\nhint: Give --since as a time instead, e.g. --since 2026-11-24T06:00:00Z.\n',
      });
      expect(api.seen.map((q) => q.url)).toEqual(['/api/v1/users/me']);
      expect((await runCli(['changes', '--since', '2026-11-24T06:00:00Z'], { env: noDate })).code).toBe(0);
      expect(readdirSync(join(noDate.CRMCTL_CONFIG_DIR, 'changes')).filter((f) => f.endsWith('.json'))).toEqual([`http_127.0.0.1_${api.port}.c9.u7.deals+persons+organizations+activities+products.json`]);
    } finally {
      await api.close();
    }
  });

  it('knows the account as runs do: one users/me a token, shared with import; a span still reads it once for the clock', async () => {
    const file = join(workDir(), 'leads.ndjson');
    writeFileSync(file, `${JSON.stringify({ title: 'Before the feed', organization_id: 1 })}\n`);
    const start = await serverNow();
    // The import learns whose journal it writes (users/me, cost 2) and keeps it for this token.
    expect((await run(['import', 'leads', '--file', file])).code).toBe(0);
    expect((await fx.requests()).filter((q) => q.path === '/api/v1/users/me')).toHaveLength(1);
    await fx.clearRequests();
    // The feed keys its watermark by that same account without reading it again.
    expect((await run(['changes', '--since', start, '--types', 'deals'])).code).toBe(0);
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v1/recents']);
    expect(existsSync(await watermarkFile('deals'))).toBe(true);
    const cache = JSON.parse(readFileSync(join(env.CRMCTL_CONFIG_DIR!, 'runs', 'accounts.json'), 'utf8'));
    expect(Object.values(cache)).toEqual([{ company_id: (await me()).company_id, user_id: (await me()).id, currency: (await me()).default_currency }]);
    // --since 1h counts on the service's clock: users/me is read for its Date header, once.
    await fx.clearRequests();
    expect((await run(['changes', '--since', '1h', '--types', 'deals', '--peek'])).code).toBe(0);
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v1/users/me', '/api/v1/recents']);
  });

  it('refuses when users/me names no company and user (exit 1), and keeps no account for the token: the next run asks again', async () => {
    const api = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: { name: 'no ids' } }));
    });
    try {
      const noIds = { CRMCTL_ACCESS_TOKEN: 'tok-no-ids-0123456789', CRMCTL_API_DOMAIN: api.url, CRMCTL_CONFIG_DIR: tempConfigDir() };
      for (let i = 0; i < 2; i++) {
        const r = await runCli(['changes', '--since', '2026-11-24T06:00:00Z'], { env: noIds });
        expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: GET /api/v1/users/me gave no company_id and id: the changes watermark cannot tell which account it belongs to.\n' });
      }
      expect(api.seen.map((q) => q.url)).toEqual(['/api/v1/users/me', '/api/v1/users/me']);
      expect(existsSync(join(noIds.CRMCTL_CONFIG_DIR, 'changes'))).toBe(false);
    } finally {
      await api.close();
    }
  });

  // Last: the sandbox's clock stays ahead for the rest of the file (less than a token's life).
  it('keeps the service time, not the local clock, as the watermark', async () => {
    await control(fx, 'POST', 'clock', { advance_sec: 1800 });
    const start = await serverNow();
    expect((await run(['changes', '--since', start, '--types', 'deals'])).code).toBe(0);
    const deal = await created(['deals', 'create', '--title', 'Half an hour ahead']);
    const r = await run(['changes', '--types', 'deals']);
    expect(summary(ndjson(r.stdout))).toEqual([['deals', 'added', deal]]);
    const stored = (await fx.collection<{ id: number; update_time: string }>('deals')).find((d) => d.id === deal)!;
    const file = await watermarkFile('deals');
    const wm = JSON.parse(readFileSync(file, 'utf8'));
    expect(wm.time).toBe(v1(new Date(stored.update_time).toISOString()));
    expect(wm.seen).toHaveLength(1);
    expect(wm.seen[0]).toMatch(new RegExp(`^deals:${deal}:`));
  });

});
