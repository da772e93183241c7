// Person, organization, activity and lead tables show linked records by name (issue 20): TSV, CSV and
// table read each linked kind once (users whole, the others by `ids=` the ids on the page); --json keeps
// the service's records and sends only the list request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

let fx: SandboxFixture;
type Rec = Record<string, unknown> & { id: number | string };
const names = new Map<string, Map<string, string>>();

const bin = (args: string[]) => runBin(args, { env: fx.env });
const sent = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}${r.query && Object.keys(r.query).length ? `?${new URLSearchParams(r.query as Record<string, string>).toString()}` : ''}`);
const paths = async () => (await fx.requests()).map((r) => `${r.method} ${r.path}`);
const nameOf = (kind: string, id: unknown): string => (id === null || id === undefined ? '' : (names.get(kind)?.get(String(id)) ?? String(id)));

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
  for (const [kind, label] of [['users', 'name'], ['organizations', 'name'], ['persons', 'name'], ['deals', 'title']] as const) {
    names.set(kind, new Map((await fx.collection<Rec>(kind)).map((r) => [String(r.id), String(r[label])])));
  }
}, 120_000);
afterAll(async () => fx?.close());
beforeEach(async () => fx.clearRequests());

async function firstPage(args: string[]): Promise<Rec[]> {
  const r = await bin([...args, '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Rec[];
}

describe('tables name linked records', () => {
  it('persons list: organization and owner by name; one read of organizations (by ids) and one of users', async () => {
    const recs = await firstPage(['persons', 'list', '--limit', '5']);
    fx.clearRequests();
    const r = await bin(['persons', 'list', '--limit', '5', '--fields', 'id,name,organization,owner', '-o', 'tsv']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const want = recs.map((p) => `${p.id}\t${p.name}\t${nameOf('organizations', p.org_id)}\t${nameOf('users', p.owner_id)}\n`).join('');
    expect(r.stdout).toBe(want);
    const orgIds = [...new Set(recs.map((p) => p.org_id).filter((v) => v !== null && v !== undefined))];
    expect(orgIds.length).toBeGreaterThan(0);
    expect((await paths()).sort()).toEqual(['GET /api/v1/users', 'GET /api/v2/organizations', 'GET /api/v2/persons']);
    expect((await sent()).find((s) => s.startsWith('GET /api/v2/organizations'))).toContain(`ids=${encodeURIComponent(orgIds.join(','))}`);
  });

  it('persons list default TSV columns show organization and owner by name where the ids were', async () => {
    const recs = await firstPage(['persons', 'list', '--limit', '2']);
    const r = await bin(['persons', 'list', '--limit', '2', '-o', 'tsv']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n').map((l) => l.split('\t'));
    expect(rows.map((c) => [c[0], c[4], c[5]])).toEqual(recs.map((p) => [String(p.id), nameOf('organizations', p.org_id), nameOf('users', p.owner_id)]));
  });

  it('organizations list: owner by name; only the users list is read beside it', async () => {
    const recs = await firstPage(['organizations', 'list', '--limit', '4']);
    fx.clearRequests();
    const r = await bin(['organizations', 'list', '--limit', '4', '--fields', 'id,name,owner', '-o', 'tsv']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${recs.map((o) => `${o.id}\t${o.name}\t${nameOf('users', o.owner_id)}\n`).join('')}`);
    expect((await paths()).sort()).toEqual(['GET /api/v1/users', 'GET /api/v2/organizations']);
  });

  it('activities list: deal, person, organization and owner by name; one read per linked kind', async () => {
    const recs = await firstPage(['activities', 'list', '--limit', '5']);
    fx.clearRequests();
    const r = await bin(['activities', 'list', '--limit', '5', '--fields', 'id,deal,person,organization,owner', '-o', 'tsv']);
    expect(r.code).toBe(0);
    const want = recs.map((a) => `${a.id}\t${nameOf('deals', a.deal_id)}\t${nameOf('persons', a.person_id)}\t${nameOf('organizations', a.org_id)}\t${nameOf('users', a.owner_id)}\n`).join('');
    expect(r.stdout).toBe(want);
    const kinds = [
      recs.some((a) => a.deal_id) ? 'GET /api/v2/deals' : undefined,
      recs.some((a) => a.person_id) ? 'GET /api/v2/persons' : undefined,
      recs.some((a) => a.org_id) ? 'GET /api/v2/organizations' : undefined,
      recs.some((a) => a.owner_id) ? 'GET /api/v1/users' : undefined,
    ].filter((k): k is string => k !== undefined);
    expect((await paths()).sort()).toEqual(['GET /api/v2/activities', ...kinds].sort());
  });

  it('leads list: person, organization and owner by name (CSV too)', async () => {
    const recs = await firstPage(['leads', 'list', '--limit', '5']);
    fx.clearRequests();
    const r = await bin(['leads', 'list', '--limit', '5', '--fields', 'title,person,organization,owner', '-o', 'tsv']);
    expect(r.code).toBe(0);
    const want = recs.map((l) => `${l.title}\t${nameOf('persons', l.person_id)}\t${nameOf('organizations', l.organization_id)}\t${nameOf('users', l.owner_id)}\n`).join('');
    expect(r.stdout).toBe(want);
    const kinds = [
      recs.some((l) => l.person_id) ? 'GET /api/v2/persons' : undefined,
      recs.some((l) => l.organization_id) ? 'GET /api/v2/organizations' : undefined,
      recs.some((l) => l.owner_id) ? 'GET /api/v1/users' : undefined,
    ].filter((k): k is string => k !== undefined);
    expect((await paths()).sort()).toEqual(['GET /api/v1/leads', ...kinds].sort());
    const csv = await bin(['leads', 'list', '--limit', '1', '--fields', 'owner,organization', '-o', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toBe('owner,organization');
  });

  it('--json sends only the list request and keeps the ids', async () => {
    for (const [args, path] of [
      [['persons', 'list'], 'GET /api/v2/persons'],
      [['organizations', 'list'], 'GET /api/v2/organizations'],
      [['activities', 'list'], 'GET /api/v2/activities'],
      [['leads', 'list'], 'GET /api/v1/leads'],
    ] as const) {
      fx.clearRequests();
      const recs = await firstPage([...args, '--limit', '3']);
      expect(recs.length).toBeGreaterThan(0);
      expect(recs[0]).toHaveProperty('owner_id');
      expect(recs[0]).not.toHaveProperty('owner');
      expect(await paths()).toEqual([path]);
    }
  });

  it('--fields owner,organization with --json is refused (a table column), exit 2, nothing sent', async () => {
    const r = await bin(['persons', 'list', '--fields', 'owner,organization', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fields: owner, organization are table columns');
    expect(await paths()).toEqual([]);
  });
});
