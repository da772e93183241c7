import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean; stdin?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { ...opts, env: { ...fx.env, ...(opts.env ?? {}) } });
const json = async (args: string[]) => {
  const r = await run([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};
const labelId = async (name: string) => ((await json(['lead-labels', 'list'])) as Array<{ id: string; name: string }>).find((l) => l.name === name)!.id;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('leads create', () => {
  it('creates a lead (201) with source and origin API and prints it', async () => {
    const hot = await labelId('Hot');
    await fx.clearRequests();
    const lead = await json(['leads', 'create', '--title', 'Acme expansion', '--organization-id', '1', '--value-amount', '5000', '--value-currency', 'EUR', '--label-ids', hot, '--visible-to', '3']);
    expect(lead).toMatchObject({ title: 'Acme expansion', organization_id: 1, value: { amount: 5000, currency: 'EUR' }, label_ids: [hot], source_name: 'API', origin: 'API', visible_to: '3' });
    const reqs = await fx.requests();
    const post = reqs.find((r) => r.method === 'POST')!;
    expect(post).toMatchObject({ path: '/api/v1/leads', status: 201, body: { title: 'Acme expansion', organization_id: 1, value: { amount: 5000, currency: 'EUR' }, label_ids: [hot], visible_to: '3' } });
    const stored = await fx.collection<{ id: string; title: string }>('leads');
    expect(stored.some((l) => l.id === lead.id && l.title === 'Acme expansion')).toBe(true);
  });

  it.each([
    [['--organization-id', '1'], '--title: is required'],
    [['--title', 'x'], '--person-id: a lead needs a person or an organization'],
    [['--title', 'x', '--person-id', '1', '--value-amount', '10'], '--value-currency: is required'],
    [['--title', 'x', '--person-id', '1', '--value-currency', 'EUR'], '--value-amount: is required'],
    [['--title', 'x', '--person-id', 'abc'], '--person-id: must be an integer (got "abc")'],
    [['--title', 'x', '--person-id', '1', '--expected-close-date', '2026-02-30'], '--expected-close-date: must be a real calendar date YYYY-MM-DD'],
    [['--title', 'x', '--person-id', '1', '--label-ids', 'not-a-uuid'], '--label-ids: must be a UUID'],
  ])('refuses %j before sending: %s', async (args, message) => {
    const r = await run(['leads', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(await fx.requests()).toEqual([]);
  });

  it('rejects visible_to outside 1,3,5,7 naming the allowed values', async () => {
    const r = await run(['leads', 'create', '--title', 'x', '--person-id', '1', '--visible-to', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--visible-to.*1, 3, 5, 7/);
    expect(await fx.requests()).toEqual([]);
  });

  it('checks label ids and channel against the account; only reads are sent', async () => {
    const r = await run(['leads', 'create', '--title', 'x', '--person-id', '1', '--label-ids', '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f', '--channel', '999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--label-ids: no such lead label: 6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f');
    expect(r.stderr).toMatch(/--channel: must be a configured channel: \d+ \(/);
    const reqs = await fx.requests();
    expect(reqs.length).toBeGreaterThan(0);
    expect(reqs.every((q) => q.method === 'GET')).toBe(true);
  });

  it('the sandbox enforces the same rules (service-shaped 400) when a client skips them', async () => {
    const res = await fetch(`${fx.sandbox.url}/api/v1/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'no link' }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, data: null });
    expect(String(body.error)).toMatch(/person_id|organization_id/);
  });
});

describe('leads list and output contract', () => {
  it('piped output is TSV without header or colour, columns chosen for leads', async () => {
    const r = await run(['leads', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const all = await json(['leads', 'list']);
    expect(lines).toHaveLength(all.length);
    expect(lines[0]!.split('\t').slice(0, 2)).toEqual([all[0].id, all[0].title]);
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('json is the records, not the envelope; ndjson one per line; csv with a header', async () => {
    const arr = await json(['leads', 'list']);
    expect(Array.isArray(arr)).toBe(true);
    expect(arr.every((l: { is_archived: boolean }) => l.is_archived === false)).toBe(true);
    const nd = await run(['leads', 'list', '--output', 'ndjson']);
    expect(nd.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(arr.map((l: { id: string }) => l.id));
    const csv = await run(['leads', 'list', '--output', 'csv', '--fields', 'id,title']);
    expect(csv.stdout.split('\r\n')[0]).toBe('id,title');
    expect(csv.stdout.split('\r\n')[1]).toBe(`${arr[0].id},${arr[0].title}`);
  });

  it('a TTY gets a table with a header; NO_COLOR and --no-color remove colour', async () => {
    const t = await run(['leads', 'list'], { tty: true, env: { FORCE_COLOR: '1' } });
    // A lead's id is a UUID: the title comes first (output/table.ts).
    expect(t.stdout).toMatch(/│ (\u001b\[1m)?title(\u001b\[22m)?\s+│ (\u001b\[1m)?id(\u001b\[22m)?\s+│/);
    expect(t.stdout).toContain('┌');
    const noColor = await run(['leads', 'list'], { tty: true, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toMatch(/\u001b\[/);
    const flag = await run(['leads', 'list', '--no-color'], { tty: true });
    expect(flag.stdout).not.toMatch(/\u001b\[/);
  });

  it('--fields selects fields; an unknown one exits 2 listing the valid ones (custom field names too) and reads no lead', async () => {
    const sel = await json(['leads', 'list', '--fields', 'id,title']);
    expect(Object.keys(sel[0])).toEqual(['id', 'title']);
    await fx.clearRequests();
    const bad = await run(['leads', 'list', '--fields', 'id,nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fields: unknown field nope. Valid fields: id, title, owner_id');
    expect(bad.stderr).toContain('Lead score, Budget, Segment');
    // A name that is no record field may be a custom field's: the one read is the field metadata.
    expect((await fx.requests()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/dealFields']);
    await fx.clearRequests();
    const js = await run(['leads', 'list', '--fields', 'id,nope', '--json']);
    expect(js.code).toBe(2);
    expect(await fx.requests()).toEqual([]);
  });

  it('pages with --limit and --all over offset pagination', async () => {
    for (let i = 0; i < 7; i++) await run(['leads', 'create', '--title', `Bulk ${i}`, '--person-id', '1']);
    const total = (await json(['leads', 'list', '--all'])).length;
    await fx.clearRequests();
    const three = await json(['leads', 'list', '--limit', '3']);
    expect(three).toHaveLength(3);
    const reqs = await fx.requests();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]!.query).toMatchObject({ limit: '3' });
    await fx.clearRequests();
    const all = await run(['leads', 'list', '--all', '--output', 'ndjson']);
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(total);
    expect(total).toBeGreaterThan(7);
  });

  it('filters and sorts are sent as the interface names them', async () => {
    const r = await run(['leads', 'list', '--owner-id', '1', '--sort', 'add_time DESC', '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as Array<{ owner_id: number; add_time: string }>;
    expect(list.every((l) => l.owner_id === 1)).toBe(true);
    expect([...list].sort((a, b) => b.add_time.localeCompare(a.add_time))).toEqual(list);
    const req = (await fx.requests()).at(-1)!;
    expect(req.query).toMatchObject({ owner_id: '1', sort: 'add_time DESC' });
    const bad = await run(['leads', 'list', '--sort', 'color ASC']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--sort: must be "field ASC|DESC" pairs');
  });

  it.each([
    [['leads', 'list', '--filter-id', '1', '--owner-id', '1'], '--owner-id'],
    [['leads', 'list', '--filter-id', '1', '--person-id', '1'], '--person-id'],
    [['leads', 'archived', '--filter-id', '1', '--organization-id', '1'], '--organization-id'],
    [['leads', 'archived', '--filter-id', '1', '--owner-id', '1'], '--owner-id'],
  ])('%j: a saved filter with a filter the service ignores is refused, exit 2, nothing sent', async (args, flag) => {
    const r = await run(args);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${flag}: is ignored by the service when --filter-id is given (the filter wins); drop one of them\n` });
    expect(await fx.requests()).toEqual([]);
  });

  it('export takes the same entry: --param filter_id with owner_id is refused, nothing sent', async () => {
    const r = await run(['export', 'archived-leads', '--param', 'filter_id=1', '--param', 'owner_id=1', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('owner_id: is ignored by the service when --filter-id is given');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('leads update, archive, delete', () => {
  const newLead = async () => (await json(['leads', 'create', '--title', 'Patch me', '--person-id', '1', '--organization-id', '1', '--value-amount', '10', '--value-currency', 'EUR'])).id as string;

  it('PATCH sends only the fields given; --unset sends null', async () => {
    const id = await newLead();
    await fx.clearRequests();
    const updated = await json(['leads', 'update', id, '--title', 'Patched', '--unset', 'value,person_id']);
    expect(updated).toMatchObject({ id, title: 'Patched', value: null, person_id: null, organization_id: 1 });
    const patch = (await fx.requests()).find((r) => r.method === 'PATCH')!;
    expect(patch.body).toEqual({ title: 'Patched', value: null, person_id: null });
  });

  it('refuses to unlink both person and organization', async () => {
    const id = await newLead();
    await fx.clearRequests();
    const r = await run(['leads', 'update', id, '--unset', 'person_id,organization_id']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a lead must stay linked');
    expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('archive_reason only while archiving; an archived lead takes no edit but un-archiving', async () => {
    const id = await newLead();
    await fx.clearRequests();
    const r = await run(['leads', 'update', id, '--archive-reason', 'why']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--archive-reason: only together with --is-archived true');
    expect((await fx.requests()).filter((q) => q.method === 'PATCH')).toEqual([]);
    const archived = await json(['leads', 'archive', id, '--reason', 'No budget']);
    expect(archived).toMatchObject({ is_archived: true, archive_reason: 'No budget' });
    const list = await json(['leads', 'archived']);
    expect(list.map((l: { id: string }) => l.id)).toContain(id);
    await fx.clearRequests();
    const again = await run(['leads', 'update', id, '--archive-reason', 'Other']);
    expect(again).toMatchObject({ code: 2, stderr: `error: --archive-reason: lead ${id} is archived and cannot be changed; un-archive it first (crmctl leads unarchive ${id})\n` });
    expect((await fx.requests()).map((q) => q.method)).toEqual(['GET']);
    expect((await json(['leads', 'list', '--all'])).map((l: { id: string }) => l.id)).not.toContain(id);
    const back = await json(['leads', 'unarchive', id]);
    expect(back).toMatchObject({ is_archived: false, archive_reason: null });
  });

  it('delete needs --yes off a TTY; then the lead is gone (404 → exit 5)', async () => {
    const id = await newLead();
    await fx.clearRequests();
    const no = await run(['leads', 'delete', id]);
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('Pass --yes to confirm');
    expect(await fx.requests()).toEqual([]);
    const yes = await run(['leads', 'delete', id, '--yes', '--json']);
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout)).toEqual({ id });
    const gone = await run(['leads', 'get', id]);
    expect(gone.code).toBe(5);
    expect(gone.stderr).toContain('requested lead not found');
  });

  it('a bad UUID argument exits 2 before sending', async () => {
    const r = await run(['leads', 'get', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('<id>: must be a UUID');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('leads search, permitted users, convert', () => {
  it('search enforces the term length rule and reads items', async () => {
    const short = await run(['leads', 'search', '--term', 'A']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('--term: must have at least 2 characters (1 with --exact-match)');
    const one = await run(['leads', 'search', '--term', 'A', '--exact-match', '--json']);
    expect(one.code).toBe(0);
    const found = await json(['leads', 'search', '--term', 'acme', '--search-fields', 'title']);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0].item.title.toLowerCase()).toContain('acme');
    const over = await run(['leads', 'search', '--term', 'acme', '--limit', '101']);
    expect(over.code).toBe(0); // --limit is a total; pages stay within the service maximum
    const req = (await fx.requests()).filter((q) => q.path === '/api/v2/leads/search').at(-1)!;
    expect(Number(req.query.limit)).toBeLessThanOrEqual(100);
  });

  it('permitted users lists user ids', async () => {
    const id = (await json(['leads', 'list']))[0].id;
    const users = await json(['leads', 'permitted-users', id]);
    expect(Array.isArray(users)).toBe(true);
    expect(users.length).toBeGreaterThan(0);
  });

  it('convert --wait prints the deal id; notes move and the lead is marked deleted', async () => {
    const lead = (await json(['leads', 'create', '--title', 'Convert me', '--person-id', '1'])).id as string;
    const note = await json(['notes', 'create', '--content', 'call back', '--lead-id', lead]);
    expect(note).toMatchObject({ lead_id: lead, deal_id: null });
    const r = await json(['leads', 'convert', lead, '--wait']);
    expect(r.status).toBe('completed');
    expect(typeof r.deal_id).toBe('number');
    const deals = await fx.collection<{ id: number; title: string }>('deals');
    expect(deals.find((d) => d.id === r.deal_id)?.title).toBe('Convert me');
    // The note moved with the lead: it is the deal's now.
    expect(await json(['notes', 'get', String(note.id)])).toMatchObject({ id: note.id, deal_id: r.deal_id, lead_id: null });
    const get = await run(['leads', 'get', lead]);
    expect(get.code).toBe(5);
    const status = await json(['leads', 'conversion-status', lead, r.conversion_id]);
    expect(status).toMatchObject({ status: 'completed', deal_id: r.deal_id });
  });

  it('convert without --wait prints the conversion job as the service answered it (no status the service does not have)', async () => {
    const lead = (await json(['leads', 'create', '--title', 'Convert later', '--person-id', '1'])).id as string;
    await fx.clearRequests();
    const r = await run(['leads', 'convert', lead, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const job = JSON.parse(r.stdout);
    expect(Object.keys(job)).toEqual(['conversion_id']);
    expect(job.conversion_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect((await fx.requests()).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual([`POST /api/v2/leads/${lead}/convert/deal 200`]);
    const status = await json(['leads', 'conversion-status', lead, job.conversion_id]);
    expect(['not_started', 'running', 'completed']).toContain(status.status);
  });
});

describe('lead labels', () => {
  it('lists the defaults, creates, updates only what is given, deletes', async () => {
    const names = (await json(['lead-labels', 'list'])).map((l: { name: string }) => l.name.toLowerCase());
    expect(names).toEqual(expect.arrayContaining(['hot', 'cold', 'warm']));
    const created = await json(['lead-labels', 'create', '--name', 'VIP', '--color', 'purple']);
    expect(created).toMatchObject({ name: 'VIP', color: 'purple' });
    await fx.clearRequests();
    const updated = await json(['lead-labels', 'update', created.id, '--color', 'green']);
    expect(updated).toMatchObject({ name: 'VIP', color: 'green' });
    expect((await fx.requests())[0]!.body).toEqual({ color: 'green' });
    const del = await run(['lead-labels', 'delete', created.id, '--yes', '--json']);
    expect(JSON.parse(del.stdout)).toEqual({ id: created.id });
    expect((await json(['lead-labels', 'list'])).map((l: { id: string }) => l.id)).not.toContain(created.id);
  });

  it('enforces the colour list and the required name before sending', async () => {
    const r = await run(['lead-labels', 'create', '--name', 'x', '--color', 'teal']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('blue, brown, dark-gray, gray, green, orange, pink, purple, red, yellow');
    const n = await run(['lead-labels', 'create', '--color', 'red']);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain('--name: is required');
    const u = await run(['lead-labels', 'update', '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f']);
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('nothing to update');
    expect(await fx.requests()).toEqual([]);
  });
});
