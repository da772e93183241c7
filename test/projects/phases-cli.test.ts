// crmctl phases … (beta) end to end: order_nr range checked before sending, renumbering,
// moving between boards, and deleting only empty phases.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

interface Phase { id: number; name: string; board_id: number; order_nr: number }

let fx: SandboxFixture;
const run = (args: string[], opts: { env?: Record<string, string> } = {}) => runCli(args, { env: { ...fx.env, ...(opts.env ?? {}) } });
const json = async (args: string[]) => {
  const r = await run([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
};
/** Board's phases as the sandbox holds them (live ones), "name:order" in board order. */
const board = async (id: number) => {
  const all = await fx.collection<Phase>('projectPhases');
  return all.filter((p) => p.board_id === id).sort((a, b) => a.order_nr - b.order_nr).map((p) => `${p.name}:${p.order_nr}`);
};

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('phases list and get', () => {
  it('lists the phases of a board in order (TSV) and needs --board-id', async () => {
    const r = await run(['phases', 'list', '--board-id', '1', '--output', 'tsv']);
    expect(r.code).toBe(0);
    const stored = (await fx.collection<Phase>('projectPhases')).filter((p) => p.board_id === 1).sort((a, b) => a.order_nr - b.order_nr);
    expect(r.stdout).toBe(`${stored.map((p) => `${p.id}\t${p.name}\t${p.board_id}\t${p.order_nr}`).join('\n')}\n`);
    expect((await fx.requests())[0]).toMatchObject({ method: 'GET', path: '/api/v2/phases', query: { board_id: '1' }, cost: 10 });
    await fx.clearRequests();
    const missing = await run(['phases', 'list']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--board-id: is required');
    expect(await fx.requests()).toEqual([]);
  });

  it('the project-phases alias works; get shows one phase; a missing one exits 5', async () => {
    const p = await json(['project-phases', 'get', '2']);
    expect(p).toMatchObject({ id: 2, name: 'Planning', board_id: 1, order_nr: 2 });
    const gone = await run(['phases', 'get', '99']);
    expect(gone.code).toBe(5);
    expect(gone.stderr).toContain('Entity was not found');
  });
});

describe('phases create', () => {
  it('inserts at --order-nr and renumbers the others', async () => {
    const out = await json(['phases', 'create', '--name', 'Quality review', '--board-id', '1', '--order-nr', '2']);
    expect(out).toMatchObject({ name: 'Quality review', board_id: 1, order_nr: 2 });
    expect(await board(1)).toEqual(['Kick-off:1', 'Quality review:2', 'Planning:3', 'Implementation:4', 'Go-live:5']);
    const reqs = await fx.requests();
    // The range check reads the board's phases first; users/me: the write is recorded as a run of this account.
    expect(reqs.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/phases', 'GET /api/v1/users/me', 'POST /api/v2/phases']);
    expect(reqs[2]).toMatchObject({ body: { name: 'Quality review', board_id: 1, order_nr: 2 }, status: 200, cost: 5 });
  });

  it('without --order-nr the phase goes last; n+1 is allowed', async () => {
    expect(await json(['phases', 'create', '--name', 'Hypercare', '--board-id', '2'])).toMatchObject({ order_nr: 4 });
    expect(await json(['phases', 'create', '--name', 'Closed', '--board-id', '2', '--order-nr', '5'])).toMatchObject({ order_nr: 5 });
    expect(await board(2)).toEqual(['Onboarding:1', 'Adoption:2', 'Renewal prep:3', 'Hypercare:4', 'Closed:5']);
  });

  it('refuses order_nr past (phases on the board + 1) after the read; nothing is written', async () => {
    const r = await run(['phases', 'create', '--name', 'X', '--board-id', '2', '--order-nr', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--order-nr: must be between 1 and 4: board 2 has 3 other phases');
    expect((await fx.requests()).map((q) => q.method)).toEqual(['GET']);
    expect(await board(2)).toEqual(['Onboarding:1', 'Adoption:2', 'Renewal prep:3']);
  });

  it.each([
    [['--board-id', '1'], '--name: is required'],
    [['--name', 'X'], '--board-id: is required'],
    [['--name', 'X', '--board-id', '1', '--order-nr', '0'], '--order-nr: must be at least 1'],
    [['--name', 'X', '--board-id', '1', '--order-nr', '1.5'], '--order-nr: must be an integer'],
  ])('refuses %j before anything is sent: %s', async (args, msg) => {
    const r = await run(['phases', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(msg);
    expect(await fx.requests()).toEqual([]);
  });
});

describe('phases update', () => {
  it('reorders within the board (range counts the other phases) and renumbers', async () => {
    const out = await json(['phases', 'update', '4', '--order-nr', '1', '--name', 'Launch']);
    expect(out).toMatchObject({ id: 4, name: 'Launch', board_id: 1, order_nr: 1 });
    expect(await board(1)).toEqual(['Launch:1', 'Kick-off:2', 'Planning:3', 'Implementation:4']);
    await fx.clearRequests();
    const r = await run(['phases', 'update', '4', '--order-nr', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--order-nr: must be between 1 and 4: board 1 has 3 other phases');
    expect((await fx.requests()).every((q) => q.method === 'GET')).toBe(true);
  });

  it('moving to another board renumbers both boards; its projects follow the phase', async () => {
    const out = await json(['phases', 'update', '3', '--board-id', '2', '--order-nr', '2']);
    expect(out).toMatchObject({ id: 3, board_id: 2, order_nr: 2 });
    expect(await board(1)).toEqual(['Kick-off:1', 'Planning:2', 'Go-live:3']);
    expect(await board(2)).toEqual(['Onboarding:1', 'Implementation:2', 'Adoption:3', 'Renewal prep:4']);
    const projects = await fx.collection<{ phase_id: number; board_id: number }>('projects');
    const inPhase = projects.filter((p) => p.phase_id === 3);
    expect(inPhase.length).toBeGreaterThan(0);
    expect(inPhase.every((p) => p.board_id === 2)).toBe(true);
    const patch = (await fx.requests()).find((q) => q.method === 'PATCH')!;
    expect(patch).toMatchObject({ path: '/api/v2/phases/3', body: { board_id: 2, order_nr: 2 }, cost: 5 });
  });

  it('nothing to update is a usage error; a bad id exits 2', async () => {
    const none = await run(['phases', 'update', '3']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('nothing to update');
    const bad = await run(['phases', 'update', 'x', '--name', 'y']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<id>: must be a positive integer id');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('phases delete', () => {
  it('needs --yes; deletes an empty phase, renumbers the rest, marks it deleted', async () => {
    const no = await run(['phases', 'delete', '1']);
    expect(no.code).toBe(2);
    expect(no.stderr).toContain('--yes');
    // Phase 1 (Kick-off) holds only a status-deleted project, which does not count.
    const yes = await json(['phases', 'delete', '1', '--yes']);
    expect(yes).toEqual({ id: 1 });
    expect(await board(1)).toEqual(['Planning:1', 'Implementation:2', 'Go-live:3']);
    const del = (await fx.requests()).find((q) => q.method === 'DELETE')!;
    expect(del).toMatchObject({ path: '/api/v2/phases/1', status: 200, cost: 3 });
    const gone = await run(['phases', 'get', '1']);
    expect(gone.code).toBe(5);
  });

  it('refuses a phase that still holds projects (archived ones too), naming them; nothing is deleted', async () => {
    const r = await run(['phases', 'delete', '6', '--yes']);
    expect(r.code).toBe(2);
    // Phase 6 holds only the archived Stark project.
    expect(r.stderr).toContain('<id>: phase 6 still holds projects (5); move them to another phase first');
    expect(r.stderr).toContain('crmctl projects update 5 --phase-id');
    expect((await fx.requests()).some((q) => q.method === 'DELETE')).toBe(false);
    expect(await board(2)).toEqual(['Onboarding:1', 'Adoption:2', 'Renewal prep:3']);
  });
});
