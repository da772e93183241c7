import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { bulkLeads, control, ndjson, workDir } from './helpers.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) => runCli(args, { stdin: opts.stdin, env: { ...fx.env, ...(opts.env ?? {}) } });

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('api GET', () => {
  it('prints the service body as JSON and sends typed fields as the query', async () => {
    const r = await run(['api', '/api/v1/leads', '-F', 'limit=2', '-F', 'owner_id=1', '-f', 'sort=add_time DESC']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.success).toBe(true);
    const mine = (await fx.collection<{ id: string; owner_id: number; is_archived: boolean; add_time: string }>('leads'))
      .filter((l) => l.owner_id === 1 && !l.is_archived)
      .sort((a, b) => (a.add_time < b.add_time ? 1 : -1));
    expect(body.data.map((l: { id: string }) => l.id)).toEqual(mine.slice(0, 2).map((l) => l.id));
    const [req] = await fx.requests();
    expect(req).toMatchObject({ method: 'GET', path: '/api/v1/leads', query: { limit: '2', owner_id: '1', sort: 'add_time DESC' }, cost: 20 });
  });

  it('keeps dotted query names as written (goals find) and a query in the path', async () => {
    const r = await run(['api', '/api/v1/goals/find?is_active=true', '-f', 'assignee.type=person', '-F', 'assignee.id=1']);
    expect(r.code).toBe(0);
    const [req] = await fx.requests();
    expect(req!.query).toEqual({ is_active: 'true', 'assignee.type': 'person', 'assignee.id': '1' });
  });

  it('--include prints the status line and headers before the body', async () => {
    const r = await run(['api', '/api/v1/leadLabels', '--include']);
    expect(r.code).toBe(0);
    const [head, ...rest] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^Content-Type: application\/json/m);
    expect(head).toMatch(/^X-Ratelimit-Remaining: \d+$/m);
    expect(JSON.parse(rest.join('\n\n')).data.length).toBe((await fx.collection('leadLabels')).length);
  });

  it('maps a 404 to exit 5 with the service message, a 401 to exit 4', async () => {
    const nf = await run(['api', '/api/v1/leads/6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f']);
    expect(nf.code).toBe(5);
    expect(nf.stderr).toContain('requested lead not found');
    // --raw sends a path the tables do not know: the service's 404 comes back.
    const unknownRoute = await run(['api', '/api/v1/nothing-here', '--raw']);
    expect(unknownRoute.code).toBe(5);
    const auth = await run(['api', '/api/v1/leads'], { env: { CRMCTL_ACCESS_TOKEN: 'not-a-token' } });
    expect(auth.code).toBe(4);
  });

  it('checks the path against the operation tables: a typo names the nearest path, a wrong method the right ones; nothing sent', async () => {
    await fx.clearRequests();
    const typo = await run(['api', '/api/v1/leds']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("error: <path>: /api/v1/leds is not a path of the service's operations; the nearest is /api/v1/leads\nhint: Nothing was sent. Pass --raw to send a method and path the tables do not know.\n");
    const deep = await run(['api', '/api/v2/deals/5/prodcts']);
    expect(deep.stderr).toContain('the nearest is /api/v2/deals/{id}/products');
    const method = await run(['api', 'PUT', '/api/v1/leadLabels']);
    expect(method.code).toBe(2);
    expect(method.stderr).toContain('<path>: PUT is not an operation of /api/v1/leadLabels; it takes GET, POST');
    expect(await fx.requests()).toEqual([]);
  });

  it('shell completion offers the methods and the known paths after `crmctl api`', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await run(['completion', shell]);
      expect(r.code).toBe(0);
      const apiLines = r.stdout.split('\n').filter((l) => l.includes('/api/v2/deals/{id}/products'));
      expect(apiLines.length, shell).toBeGreaterThan(0);
      expect(apiLines.some((l) => l.includes('PATCH') && l.includes('/api/v1/leadLabels'))).toBe(true);
    }
  });

  it('refuses a bad method, a path without / and a field without = before sending', async () => {
    const bad = [
      [['api', 'FETCH', '/api/v1/leads'], '<method>: must be one of GET, POST, PUT, PATCH, DELETE'],
      [['api', 'api/v1/leads'], '<path>: must start with /'],
      [['api', '/api/v1/leads', '-F', 'limit'], '-F: must be key=value'],
      [['api', '/api/v1/leads', '-H', 'NoColon'], '-H: must be "Name: value"'],
    ] as const;
    for (const [args, message] of bad) {
      const r = await run([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(await fx.requests()).toEqual([]);
  });
});

describe('api writes', () => {
  it('POST sends -F/-f fields as a nested JSON body', async () => {
    const r = await run(['api', 'POST', '/api/v1/leads', '-f', 'title=Raw lead', '-F', 'organization_id=2', '-F', 'value[amount]=1500', '-f', 'value.currency=EUR', '-F', 'was_seen=true', '-F', 'channel_id=null']);
    expect(r.code).toBe(0);
    const created = JSON.parse(r.stdout).data;
    expect(created).toMatchObject({ title: 'Raw lead', organization_id: 2, value: { amount: 1500, currency: 'EUR' }, was_seen: true, channel_id: null });
    const post = (await fx.requests()).find((q) => q.method === 'POST')!;
    expect(post).toMatchObject({ status: 201, body: { title: 'Raw lead', organization_id: 2, value: { amount: 1500, currency: 'EUR' }, was_seen: true, channel_id: null } });
    expect((await fx.collection<{ id: string }>('leads')).some((l) => l.id === created.id)).toBe(true);
  });

  it('--input sends a JSON file (or stdin) as the body; fields then go to the query', async () => {
    const dir = workDir();
    const file = join(dir, 'label.json');
    writeFileSync(file, JSON.stringify({ name: 'From file', color: 'green' }));
    const r = await run(['api', 'POST', '/api/v1/leadLabels', '--input', file]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toMatchObject({ name: 'From file', color: 'green' });
    const s = await run(['api', '-X', 'POST', '/api/v1/leadLabels', '--input', '-'], { stdin: '{"name":"From stdin","color":"blue"}' });
    expect(s.code).toBe(0);
    const names = (await fx.collection<{ name: string }>('leadLabels')).map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(['From file', 'From stdin']));
    const bad = await run(['api', 'POST', '/api/v1/leadLabels', '--input', '-'], { stdin: 'not json' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--input: must be JSON');
  });

  it('reads a field value from a file with -F key=@file', async () => {
    const dir = workDir();
    const file = join(dir, 'note.html');
    writeFileSync(file, '<p>Call back on Monday</p>');
    const r = await run(['api', 'POST', '/api/v1/notes', '-F', `content=@${file}`, '-F', 'person_id=1']);
    expect(r.code).toBe(0);
    const post = (await fx.requests()).find((q) => q.method === 'POST')!;
    expect(post.body).toEqual({ content: '<p>Call back on Monday</p>', person_id: 1 });
  });

  it('sends a form body when the Content-Type header asks for it (mail thread update)', async () => {
    const r = await run(['api', 'PUT', '/api/v1/mailbox/mailThreads/1', '-F', 'read_flag=1', '-H', 'Content-Type: application/x-www-form-urlencoded']);
    expect(r.code).toBe(0);
    const put = (await fx.requests()).find((q) => q.method === 'PUT')!;
    expect(put.body).toEqual({ read_flag: '1' });
  });

  it('never resends a POST whose connection was reset after the service committed it', async () => {
    await control(fx, 'PUT', 'faults', { rateReset: 1, resetAfterCommitShare: 1, seed: 3 });
    const r = await run(['api', 'POST', '/api/v1/leadLabels', '-f', 'name=Once', '-f', 'color=red']);
    await control(fx, 'PUT', 'faults', {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not resent to avoid a duplicate');
    const posts = (await fx.requests()).filter((q) => q.method === 'POST');
    expect(posts.length).toBe(1);
    expect((await fx.collection<{ name: string }>('leadLabels')).filter((l) => l.name === 'Once').length).toBe(1);
  });
});

describe('api --paginate', () => {
  it('follows offset pages (additional_data.pagination) and streams ndjson records', async () => {
    await bulkLeads(fx, 230);
    await fx.clearRequests();
    const r = await run(['api', '/api/v1/leads', '-F', 'limit=100', '--paginate', '--output', 'ndjson']);
    expect(r.code).toBe(0);
    const live = (await fx.collection<{ id: string; is_archived: boolean }>('leads')).filter((l) => !l.is_archived);
    expect(ndjson(r.stdout).map((l) => l.id)).toEqual(live.map((l) => l.id));
    expect((await fx.requests()).map((q) => q.query.start ?? '0')).toEqual(['0', '100', '200']);
  });

  it('follows cursor pages (additional_data.next_cursor) into one JSON array', async () => {
    const r = await run(['api', '/api/v2/persons', '-F', 'limit=3', '--paginate']);
    expect(r.code).toBe(0);
    const persons = await fx.collection<{ id: number }>('persons');
    expect(JSON.parse(r.stdout).map((p: { id: number }) => p.id)).toEqual(persons.map((p) => p.id));
    const reqs = await fx.requests();
    expect(reqs.length).toBe(Math.ceil(persons.length / 3));
    expect(reqs[0]!.query.cursor).toBeUndefined();
    expect(reqs.slice(1).every((q) => typeof q.query.cursor === 'string')).toBe(true);
  });
});

describe('api --debug', () => {
  it('traces the exchange on stderr with the token redacted', async () => {
    const r = await run(['api', '/api/v1/leadLabels', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('> GET ');
    expect(r.stderr).toMatch(/> authorization: \[redacted\]/i);
    expect(r.stderr).toContain('< 200');
    expect(r.stderr).not.toContain(fx.env.CRMCTL_ACCESS_TOKEN);
  });
});

describe('api --include on an error answer', () => {
  it('prints the status line, headers and body of the 404, then exits 5 with the service message', async () => {
    const r = await runCli(['api', 'GET', '/api/v1/leads/6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f', '--include'], { env: fx.env });
    expect(r.code).toBe(5);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 404 Not Found\n/);
    expect(r.stdout).toMatch(/x-request-id: /i);
    expect(r.stdout).toContain('requested lead not found');
    expect(r.stderr).toContain('requested lead not found');
  });
});
