// crmctl projects … end to end against the sandbox: what users see, what reached the service,
// and the state left behind.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROJECT_FIELD_KEYS as K } from '../../src/sandbox/handlers/projects.js';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

interface Project { id: number; title: string; status: string; board_id: number; phase_id: number; owner_id: number; end_date: string | null;
  health_status: number | null; archive_time: string | null; status_change_time: string; deal_ids: number[]; person_ids: number[]; org_ids: number[]; custom_fields: Record<string, unknown>; description: string | null }

let fx: SandboxFixture;
const run = (args: string[], opts: { tty?: boolean; stdin?: string; env?: Record<string, string> } = {}) =>
  runCli(args, { ...opts, env: { ...fx.env, ...(opts.env ?? {}) } });
const json = async (args: string[]) => {
  const r = await run([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};
const stored = async () => fx.collection<Project>('projects');
/** Board, phase and owner as the table names them (the demo seed's boards, phases and users). */
const BOARDS: Record<number, string> = { 1: 'Delivery', 2: 'Customer success' };
const PHASES: Record<number, string> = { 1: 'Kick-off', 2: 'Planning', 3: 'Implementation', 4: 'Go-live', 5: 'Onboarding', 6: 'Adoption' };
const USERS: Record<number, string> = { 1: 'Ada Admin', 2: 'Reggie Regular', 3: 'Sam Seller' };
const tsvOf = (rows: Project[]) =>
  `${rows.map((p) => [p.id, p.title, p.status, BOARDS[p.board_id], PHASES[p.phase_id], USERS[p.owner_id], p.end_date ?? '', p.health_status ?? ''].join('\t')).join('\n')}\n`;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('projects list, archived, get', () => {
  it('list shows non-archived projects without deleted ones, as TSV columns with board, phase and owner by name', async () => {
    const all = await stored();
    const expected = all.filter((p) => p.archive_time === null && p.status !== 'deleted').sort((a, b) => a.id - b.id);
    expect(expected.length).toBeGreaterThan(2);
    const r = await run(['projects', 'list', '--output', 'tsv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(tsvOf(expected));
    const [req, ...names] = await fx.requests();
    expect(req).toMatchObject({ method: 'GET', path: '/api/v2/projects', status: 200, cost: 10 });
    // The names: the boards, the phases of each board shown, the users; each read once.
    expect(names.map((q) => `${q.method} ${q.path}${q.query?.board_id ? `?board_id=${q.query.board_id}` : ''}`).sort()).toEqual(
      ['GET /api/v1/users', 'GET /api/v2/boards', 'GET /api/v2/phases?board_id=1', 'GET /api/v2/phases?board_id=2'],
    );
  });

  it('--status is a comma list sent as one parameter; deleted ones only when asked', async () => {
    const rows = await json(['projects', 'list', '--status', 'deleted,completed', '--fields', 'id,status']);
    const all = await stored();
    expect(rows).toEqual(all.filter((p) => p.archive_time === null && ['deleted', 'completed'].includes(p.status)).map((p) => ({ id: p.id, status: p.status })));
    expect(rows.map((p: Project) => p.status).sort()).toEqual(['completed', 'deleted']);
    const req = (await fx.requests()).at(-1)!;
    expect(req.query).toMatchObject({ status: 'deleted,completed' });
  });

  it('filters by deal, person, organization, phase and saved filter', async () => {
    const all = (await stored()).filter((p) => p.archive_time === null && p.status !== 'deleted');
    const ids = async (args: string[]) => (await json(['projects', 'list', ...args])).map((p: Project) => p.id);
    expect(await ids(['--deal-id', '2'])).toEqual(all.filter((p) => p.deal_ids.includes(2)).map((p) => p.id));
    expect(await ids(['--person-id', '9'])).toEqual(all.filter((p) => p.person_ids.includes(9)).map((p) => p.id));
    expect(await ids(['--org-id', '3'])).toEqual(all.filter((p) => p.org_ids.includes(3)).map((p) => p.id));
    expect(await ids(['--phase-id', '3'])).toEqual(all.filter((p) => p.phase_id === 3).map((p) => p.id));
    const filters = await fx.collection<{ id: number; type: string }>('filters');
    const projectFilter = filters.find((f) => f.type === 'projects')!;
    expect(await ids(['--filter-id', String(projectFilter.id)])).toEqual(all.filter((p) => p.owner_id === 1).map((p) => p.id));
  });

  it('pages with the cursor: --limit 2 --all fetches every page of 2', async () => {
    const all = (await stored()).filter((p) => p.archive_time === null && p.status !== 'deleted');
    const rows = await json(['projects', 'list', '--limit', '2']);
    expect(rows.map((p: Project) => p.id)).toEqual(all.slice(0, 2).map((p) => p.id));
    await fx.clearRequests();
    // More than one page's worth with a small page size.
    const many = await json(['projects', 'list', '--all', '--limit', '3']);
    expect(many).toHaveLength(3);
  });

  it('bad filters exit 2 naming the flag; nothing is sent', async () => {
    for (const [args, msg] of [
      [['--status', 'archived'], '--status: each value must be one of open, completed, canceled, deleted'],
      [['--phase-id', 'x'], '--phase-id: must be an integer'],
      [['--deal-id', '0'], '--deal-id: must be at least 1'],
    ] as const) {
      const r = await run(['projects', 'list', ...args]);
      expect(r.code, msg).toBe(2);
      expect(r.stderr).toContain(msg);
    }
    expect(await fx.requests()).toEqual([]);
  });

  it('get prints the v2 record with custom fields inside custom_fields; a missing one exits 5', async () => {
    const p = await json(['projects', 'get', '1']);
    const s = (await stored()).find((x) => x.id === 1)!;
    expect(p).toEqual(s);
    expect(Object.keys(p)).toEqual(['id', 'title', 'description', 'status', 'board_id', 'phase_id', 'owner_id', 'start_date', 'end_date', 'deal_ids',
      'person_ids', 'org_ids', 'label_ids', 'health_status', 'add_time', 'update_time', 'status_change_time', 'archive_time', 'custom_fields']);
    expect(p.custom_fields[K.deliverables]).toEqual([11, 12]);
    const missing = await run(['projects', 'get', '999']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('Entity was not found');
    const bad = await run(['projects', 'get', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<id>: must be a positive integer id');
    // The json get, then the missing one: a table of one project names its custom fields, so the field
    // list is read first (kept per profile); the bad id sends nothing.
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/projects/1', 'GET /api/v2/projectFields', 'GET /api/v2/projects/999']);
  });
});

describe('projects by name (tables, TSV, CSV)', () => {
  it('get -o csv: board, phase, owner, deals, persons and organizations by name, custom fields under their names with labels and currency', async () => {
    const r = await run(['projects', 'get', '1', '-o', 'csv']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'id,title,description,status,board,phase,owner,start_date,end_date,deals,persons,organizations,label_ids,health_status,add_time,update_time,status_change_time,archive_time,' +
        'Budget code,Estimated hours,Go-live date,Delivery region,Deliverables,Contract value\r\n' +
        '1,Acme licence rollout,Roll out the annual licence to 120 seats across two sites,open,Delivery,Implementation,Ada Admin,2025-02-10,2025-04-30,' +
        'Acme annual licence,Alice Andersson,Acme Corporation,1,1,2025-02-04T10:00:00.000Z,2025-02-05T10:00:00.000Z,2025-02-04T10:00:00.000Z,,' +
        'ACME-2025-01,120,,EMEA,"Training, Integration",24000 EUR\r\n',
    );
    // Several linked records of one kind are joined.
    const globex = await run(['projects', 'get', '2', '--fields', 'title,persons,Delivery region']);
    expect(globex.stdout).toBe('Globex onboarding\tBob Berzins, Ines Ilves\tEMEA\n');
  });

  it('create and update take custom fields by name, checked by type; --names json reads them back by name', async () => {
    const out = await json(['projects', 'create', '--title', 'Named', '--field', 'Budget code=NM-1', '--field', 'Estimated hours=12.5', '--field', 'Go-live date=2026-06-01',
      '--field', 'Delivery region=apac', '--field', 'Deliverables=Training,Data migration', '--field', 'Contract value=900 USD']);
    const post = (await fx.requests()).find((q) => q.method === 'POST')!;
    expect(post.body).toEqual({ title: 'Named', custom_fields: { [K.budgetCode]: 'NM-1', [K.estimatedHours]: 12.5, [K.goLive]: '2026-06-01', [K.region]: 3,
      [K.deliverables]: [11, 13], [K.contractValue]: 900, [`${K.contractValue}_currency`]: 'USD' } });
    const named = await json(['projects', 'get', String(out.id), '--names']);
    expect([named['Budget code'], named['Estimated hours'], named['Go-live date'], named['Delivery region'], named.Deliverables, named['Contract value']])
      .toEqual(['NM-1', 12.5, '2026-06-01', 'APAC', ['Training', 'Data migration'], { value: 900, currency: 'USD' }]);
    await fx.clearRequests();
    for (const [flag, message] of [
      ['Delivery regoin=EMEA', '--field Delivery regoin: unknown project custom field "Delivery regoin" (did you mean "Delivery region"?)'],
      ['Delivery region=Mars', '--field Delivery region: Delivery region (enum) unknown option "Mars"; allowed: EMEA, Americas, APAC'],
      ['Contract value=900', '--field Contract value: Contract value (monetary) needs a currency'],
    ]) {
      const r = await run(['projects', 'update', String(out.id), '--field', flag!]);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect((await fx.requests()).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('list --fields takes the named columns and custom field names; json refuses a table column and keeps the service record', async () => {
    const r = await run(['projects', 'list', '--fields', 'title,phase,Contract value', '-o', 'csv']);
    expect(r.stdout.split('\r\n').slice(0, 2)).toEqual(['title,phase,Contract value', 'Acme licence rollout,Implementation,24000 EUR']);
    const bad = await run(['projects', 'list', '--fields', 'title,phase', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fields: phase is a table column (--output table, tsv or csv)');
    await fx.clearRequests();
    const rows = await json(['projects', 'list']);
    expect(rows[0]).toMatchObject({ board_id: 1, phase_id: 3, owner_id: 1 });
    expect(rows[0]).not.toHaveProperty('phase');
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v2/projects']);
  });
});

describe('projects create', () => {
  it('creates (201) with board, phase, links and custom fields from --custom-field; stored as sent', async () => {
    const out = await json(['projects', 'create', '--title', 'Acme phase 2', '--board-id', '1', '--phase-id', '2', '--deal-ids', '1', '--org-ids', '1',
      '--start-date', '2026-03-01', '--custom-field', `${K.budgetCode}=ACME-P2`, '--custom-field', `${K.deliverables}=[11,13]`,
      '--custom-field', `${K.estimatedHours}=80.5`]);
    expect(out).toMatchObject({ title: 'Acme phase 2', board_id: 1, phase_id: 2, owner_id: 1, status: 'open', deal_ids: [1], org_ids: [1], start_date: '2026-03-01',
      custom_fields: { [K.budgetCode]: 'ACME-P2', [K.deliverables]: [11, 13], [K.estimatedHours]: 80.5 }, archive_time: null });
    const post = (await fx.requests()).find((r) => r.method === 'POST')!;
    expect(post).toMatchObject({ path: '/api/v2/projects', status: 201, cost: 5,
      body: { title: 'Acme phase 2', board_id: 1, phase_id: 2, deal_ids: [1], org_ids: [1], start_date: '2026-03-01',
        custom_fields: { [K.budgetCode]: 'ACME-P2', [K.deliverables]: [11, 13], [K.estimatedHours]: 80.5 } } });
    expect((await stored()).find((p) => p.id === out.id)).toEqual(out);
  });

  it('--custom-field entries merge with --data custom_fields (flags win per key)', async () => {
    const data = JSON.stringify({ title: 'From data', custom_fields: { [K.region]: 2, [K.budgetCode]: 'OLD' } });
    const out = await json(['projects', 'create', '--data', data, '--custom-field', `${K.budgetCode}=NEW`]);
    expect(out.custom_fields).toEqual({ [K.region]: 2, [K.budgetCode]: 'NEW' });
  });

  it('without board and phase the project lands in the first phase of the first board; a template copies groups, tasks, activities', async () => {
    const out = await json(['projects', 'create', '--title', 'Templated', '--template-id', '2']);
    expect(out).toMatchObject({ board_id: 1, phase_id: 1 });
    const groups = await json(['projects', 'groups', String(out.id)]);
    expect(groups.map((g: { name: string }) => g.name)).toEqual(['Discovery', 'Build', 'Launch']);
    const tasks = await json(['projects', 'tasks', String(out.id)]);
    expect(tasks.map((t: { title: string }) => t.title)).toEqual(['Map ERP fields', 'Build sync job', 'Cut-over checklist']);
    const acts = await json(['projects', 'activities', String(out.id)]);
    expect(acts).toHaveLength(1);
    expect(acts[0]).toMatchObject({ subject: 'Architecture review', type: 'meeting', project_id: out.id, duration: '01:30' });
    const plan = await json(['projects', 'plan', String(out.id)]);
    // Template phases are positions on the project's board: 2 → Planning (2), 3 → Implementation (3), 4 → Go-live (4).
    expect(plan).toEqual([
      { item_id: tasks[0].id, item_type: 'task', phase_id: 2, group_id: groups[0].id },
      { item_id: tasks[1].id, item_type: 'task', phase_id: 3, group_id: groups[1].id },
      { item_id: tasks[2].id, item_type: 'task', phase_id: 4, group_id: groups[2].id },
      { item_id: acts[0].id, item_type: 'activity', phase_id: 2, group_id: groups[0].id },
    ]);
  });

  it.each([
    [['--board-id', '1'], '--title: is required'],
    [['--title', '  '], '--title: must have at least 1 character'],
    [['--title', 'x', '--status', 'deleted'], "option '--status <value>' argument 'deleted' is invalid. Allowed choices are open, completed, canceled"],
    [['--title', 'x', '--start-date', '2026-02-30'], '--start-date: must be a real calendar date YYYY-MM-DD'],
    [['--title', 'x', '--deal-ids', '1,a'], '--deal-ids: must be a comma-separated list of integers'],
    [['--title', 'x', '--custom-field', 'nokey'], '--custom-field: must be KEY=VALUE'],
    [['--title', 'x', '--custom-field', 'abc=1'], '--custom-field: abc: must be a 40-character custom field key'],
    [['--title', 'x', '--custom-field', `${K.deliverables}=[]`], `--custom-field: ${K.deliverables}: an empty array cannot clear a multi-option field; use ${K.deliverables}=null`],
    [['--data', JSON.stringify({ title: 'x', custom_fields: { [K.deliverables]: [] } })], `--custom-fields: ${K.deliverables}: an empty array cannot clear a multi-option field; use null`],
    [['--data', JSON.stringify({ title: 'x', colour: 'red' })], 'body.colour: is not a field of a project'],
  ])('refuses %j before sending: %s', async (args, message) => {
    const r = await run(['projects', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(await fx.requests()).toEqual([]);
  });

  it('a phase of another board is refused after a read of the phase; no write is sent', async () => {
    const r = await run(['projects', 'create', '--title', 'x', '--board-id', '2', '--phase-id', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--phase-id: phase 1 (Kick-off) belongs to board 1, not to --board-id 2');
    const reqs = await fx.requests();
    expect(reqs.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/phases/1']);
    const none = await run(['projects', 'create', '--title', 'x', '--phase-id', '99']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--phase-id: no such phase 99');
    expect((await fx.requests()).filter((q) => q.method === 'POST')).toEqual([]);
  });
});

describe('projects update and archive', () => {
  it('PATCH sends only the given fields; --custom-field KEY=null clears; --unset sends null', async () => {
    const before = (await stored()).find((p) => p.id === 1)!;
    const out = await json(['projects', 'update', '1', '--status', 'completed', '--custom-field', `${K.deliverables}=null`, '--unset', 'end_date']);
    const patch = (await fx.requests()).find((r) => r.method === 'PATCH')!;
    expect(patch).toMatchObject({ path: '/api/v2/projects/1', status: 200, cost: 5 });
    expect(patch.body).toEqual({ status: 'completed', end_date: null, custom_fields: { [K.deliverables]: null } });
    const { [K.deliverables]: _gone, ...rest } = before.custom_fields;
    expect(out).toMatchObject({ status: 'completed', end_date: null, title: before.title, custom_fields: rest });
    expect(out.status_change_time).not.toBe(before.status_change_time);
    const log = await json(['projects', 'changelog', '1', '--limit', '1']);
    expect(log[0]).toMatchObject({ change_source: 'api', actor_user_id: 1, old_values: { status: 'open', end_date: before.end_date }, new_values: { status: 'completed', end_date: null } });
  });

  it('moving to a phase of the project board works; a phase of another board is refused (project read first)', async () => {
    const ok = await json(['projects', 'update', '1', '--phase-id', '4']);
    expect(ok).toMatchObject({ board_id: 1, phase_id: 4 });
    await fx.clearRequests();
    const r = await run(['projects', 'update', '1', '--phase-id', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--phase-id: phase 5 (Onboarding) belongs to board 2, not to the project's board 1");
    expect((await fx.requests()).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/v2/phases/5', 'GET /api/v2/projects/1']);
    // A new board alone moves the project to that board's first phase.
    const moved = await json(['projects', 'update', '1', '--board-id', '2']);
    expect(moved).toMatchObject({ board_id: 2, phase_id: 5 });
  });

  it('template_id is refused on update; nothing to update is a usage error', async () => {
    const t = await run(['projects', 'update', '1', '--data', '{"template_id":1}']);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('body.template_id: is only used when creating a project');
    const none = await run(['projects', 'update', '1']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing to update');
    expect(await fx.requests()).toEqual([]);
  });

  it('archive needs --yes off a TTY; then the project leaves the list and shows in archived', async () => {
    const no = await run(['projects', 'archive', '1']);
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('--yes');
    expect(await fx.requests()).toEqual([]);
    const yes = await json(['projects', 'archive', '1', '--yes']);
    expect(yes.id).toBe(1);
    expect(typeof yes.archive_time).toBe('string');
    expect((await fx.requests()).at(-1)).toMatchObject({ method: 'POST', path: '/api/v2/projects/1/archive', cost: 3 });
    expect((await json(['projects', 'list', '--all'])).map((p: Project) => p.id)).not.toContain(1);
    expect((await json(['projects', 'archived'])).map((p: Project) => p.id)).toContain(1);
    expect((await stored()).find((p) => p.id === 1)!.archive_time).toBe(yes.archive_time);
  });
});

describe('projects search and sub-resources', () => {
  it('search reads items, sends the renamed fields flag and enforces the term and limit rules', async () => {
    const found = await json(['projects', 'search', '--term', 'rollout', '--search-fields', 'title,description']);
    expect(found.map((i: { item: { id: number } }) => i.item.id)).toEqual([1]);
    expect(found[0].item).toMatchObject({ type: 'project', title: 'Acme licence rollout', phase: { id: 3, name: 'Implementation' }, organization: { id: 1, name: 'Acme Corporation' } });
    const req = (await fx.requests()).at(-1)!;
    expect(req).toMatchObject({ path: '/api/v2/projects/search', cost: 20, query: { term: 'rollout', fields: 'title,description' } });
    const byNote = await json(['projects', 'search', '--term', 'SSO', '--search-fields', 'notes']);
    expect(byNote[0].item.notes).toEqual(['Site B needs SSO before the training can start.']);
    const byCustom = await json(['projects', 'search', '--term', 'INI-SUP-7', '--exact-match']);
    expect(byCustom.map((i: { item: { id: number } }) => i.item.id)).toEqual([3]);
    await fx.clearRequests();
    const short = await run(['projects', 'search', '--term', 'A']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('--term: must have at least 2 characters (1 with --exact-match)');
    const fields = await run(['projects', 'search', '--term', 'ab', '--search-fields', 'owner']);
    expect(fields.code).toBe(2);
    expect(fields.stderr).toContain('--search-fields: each value must be one of custom_fields, notes, title, description');
    expect(await fx.requests()).toEqual([]);
    // A cursor is opaque: the service judges it (400 → exit 2 with its words).
    const cursor = await run(['projects', 'search', '--term', 'ab', '--cursor', 'not-a-cursor']);
    expect(cursor.code).toBe(2);
    expect(cursor.stderr).toContain('cursor: is not a valid cursor');
  });

  it('groups lists active groups only; tasks and activities are the project\'s own', async () => {
    const groups = await run(['projects', 'groups', '1', '--output', 'tsv']);
    const stored = (await fx.collection<{ id: number; project_id: number; name: string; order_nr: number; active_flag: boolean }>('projectGroups'))
      .filter((g) => g.project_id === 1 && g.active_flag);
    expect(groups.stdout).toBe(`${stored.map((g) => `${g.id}\t${g.name}\t${g.order_nr}`).join('\n')}\n`);
    expect(stored.map((g) => g.name)).not.toContain('Old plan');
    const tasks = await json(['projects', 'tasks', '1']);
    expect(tasks.every((t: { project_id: number }) => t.project_id === 1)).toBe(true);
    expect(tasks.map((t: { title: string }) => t.title)).toEqual(['Install licence server', 'Migrate user accounts', 'Train site B admins']);
    const acts = await json(['projects', 'activities', '1']);
    expect(acts.map((a: { subject: string }) => a.subject)).toEqual(['Weekly rollout sync', 'Go-live call']);
    expect(acts[0]).toMatchObject({ project_id: 1, user_id: 1, due_date: '2025-02-24', due_time: '09:30', location: 'Tallinn office', deal_id: null });
    expect(acts[0].add_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const reqs = await fx.requests();
    expect(reqs.map((r) => [r.path, r.cost])).toEqual([['/api/v1/projects/1/groups', 20], ['/api/v1/projects/1/tasks', 20], ['/api/v1/projects/1/activities', 20]]);
  });

  it('plan shows each task and activity with its phase and group', async () => {
    const plan = await run(['projects', 'plan', '1', '--output', 'tsv']);
    const items = (await fx.collection<{ project_id: number; item_type: string; item_id: number; phase_id: number; group_id: number }>('projectPlan')).filter((i) => i.project_id === 1);
    expect(plan.stdout).toBe(`${items.map((i) => `${i.item_type}\t${i.item_id}\t${i.phase_id}\t${i.group_id}`).join('\n')}\n`);
    expect(items.length).toBe(4);
  });

  it('changelog is newest first and cursor-paged; permitted users are rows of user ids', async () => {
    const all = await json(['projects', 'changelog', '1']);
    expect(all.map((e: { time: string }) => e.time)).toEqual([...all.map((e: { time: string }) => e.time)].sort().reverse());
    expect(all[0]).toEqual({ time: all[0].time, actor_user_id: 2, change_source: 'mobile', change_source_user_agent: null,
      old_values: { phase_id: 2, health_status: null }, new_values: { phase_id: 3, health_status: 1 } });
    await fx.clearRequests();
    const paged = await json(['projects', 'changelog', '1', '--all', '--limit', '1']);
    expect(paged).toHaveLength(1);
    const users = await run(['projects', 'permitted-users', '1', '--output', 'tsv']);
    const active = (await fx.collection<{ id: number; active_flag: boolean }>('users')).filter((u) => u.active_flag).map((u) => u.id);
    expect(users.stdout).toBe(active.map((id) => `${id}\n`).join(''));
    expect((await fx.requests()).at(-1)).toMatchObject({ path: '/api/v2/projects/1/permittedUsers', cost: 5 });
  });

  it('a read-only token can list but not create (403 → exit 4 naming the scope)', async () => {
    const ro = fx.sandbox.issueToken({ scopes: ['projects:read'] }).access_token;
    const env = { CRMCTL_ACCESS_TOKEN: ro };
    expect((await run(['projects', 'list'], { env })).code).toBe(0);
    const w = await run(['projects', 'create', '--title', 'x'], { env });
    expect(w.code).toBe(4);
    expect(w.stderr).toContain('projects:full');
  });
});
