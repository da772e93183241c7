// Automation over the new resources: fixtures that build a pipeline with stages, products, an
// organization, a person, deals with products and an activity; import that maps organizations,
// persons and owners by name; export of deals; the deal table with names. Each test checks what
// reached the sandbox and the state left behind.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { copyExample, readJson } from '../fixtures/helpers.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { tools } from '../persons/helpers.js';
import { runWithPrompts, type Asked } from '../ux/helpers.js';

let fx: SandboxFixture;
const { run, json, api } = tools(() => fx);
const tmp = () => mkdtempSync(join(tmpdir(), 'crmctl-deals-auto-'));
const writesOf = async () => (await fx.requests()).filter((r) => r.method !== 'GET');

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());
beforeEach(async () => {
  await fx.reset('demo');
  await fx.clearRequests();
});

describe('fixtures: a pipeline with stages, products, an organization, deals and an activity (docs/fixtures/sales.yaml)', () => {
  it('apply creates them in dependency order with references resolved; destroy removes them in reverse', async () => {
    const dir = copyExample();
    const r = await run(['apply', '-f', join(dir, 'sales.yaml')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Done: 13 created, 0 updated, 0 replaced, 0 deleted, 0 unchanged\. Cost: 65\./m);
    const state = readJson(join(dir, '.crmctl-state.json'));
    const id = (name: string) => state.records[name].id as number;

    const posts = (await writesOf()).map((q) => q.path);
    expect(posts).toEqual([
      '/api/v2/pipelines', '/api/v2/stages', '/api/v2/stages', '/api/v2/stages', '/api/v2/products', '/api/v2/products',
      '/api/v2/organizations', '/api/v2/persons', '/api/v2/deals', `/api/v2/deals/${id('initech-rollout')}/products`,
      `/api/v2/deals/${id('initech-rollout')}/products`, '/api/v2/deals', '/api/v2/activities',
    ]);
    const stages = (await api(`/api/v2/stages?pipeline_id=${id('partner-pipeline')}`)).body.data;
    expect(stages.map((s: { name: string; deal_probability: number }) => [s.name, s.deal_probability])).toEqual([['Qualified', 20], ['Proposal sent', 60], ['Contract', 90]]);
    const rollout = (await api(`/api/v2/deals/${id('initech-rollout')}`)).body.data;
    // 40 seats at 480 plus onboarding 2500 less 10 %: the deal value follows its products.
    expect(rollout).toMatchObject({ stage_id: id('partner-proposal'), pipeline_id: id('partner-pipeline'), org_id: id('initech'), person_id: id('bill-lumbergh'), value: 21450, currency: 'EUR' });
    expect((await api(`/api/v2/deals/${id('initech-pilot')}`)).body.data).toMatchObject({ status: 'won', stage_id: id('partner-contract') });
    expect((await api(`/api/v2/activities/${id('initech-kickoff')}`)).body.data).toMatchObject({ type: 'call', deal_id: id('initech-rollout'), due_date: '2027-01-15', due_time: '09:30' });

    await fx.clearRequests();
    const again = await run(['apply', '-f', join(dir, 'sales.yaml')]);
    expect(again.stdout).toMatch(/^Done: 0 created, 0 updated, 0 replaced, 0 deleted, 13 unchanged\./m);
    expect(await writesOf()).toEqual([]);

    const d = await run(['destroy', '--state', join(dir, '.crmctl-state.json'), '--yes']);
    expect(d.code, d.stderr).toBe(0);
    const deletes = (await writesOf()).map((q) => `${q.method} ${q.path} ${q.status}`);
    expect(deletes).toEqual([
      `DELETE /api/v2/activities/${id('initech-kickoff')} 200`, `DELETE /api/v2/deals/${id('initech-pilot')} 200`,
      `DELETE /api/v2/deals/${id('initech-rollout')}/products/${id('initech-onboarding')} 200`, `DELETE /api/v2/deals/${id('initech-rollout')}/products/${id('initech-seats')} 200`,
      `DELETE /api/v2/deals/${id('initech-rollout')} 200`, `DELETE /api/v2/persons/${id('bill-lumbergh')} 200`, `DELETE /api/v2/organizations/${id('initech')} 200`,
      `DELETE /api/v2/products/${id('onboarding')} 200`, `DELETE /api/v2/products/${id('seat-licence')} 200`,
      `DELETE /api/v2/stages/${id('partner-contract')} 200`, `DELETE /api/v2/stages/${id('partner-proposal')} 200`, `DELETE /api/v2/stages/${id('partner-qualified')} 200`,
      `DELETE /api/v2/pipelines/${id('partner-pipeline')} 200`,
    ]);
    expect((await api(`/api/v2/pipelines/${id('partner-pipeline')}`)).status).toBe(404);
  });

  it('a stage that refers to a pipeline name that is not in the files stops the run before anything is sent', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'bad.yaml'), '- kind: stage\n  name: s1\n  spec:\n    name: Lonely\n    pipeline_id: ${ref:nowhere.id}\n');
    const r = await run(['apply', '-f', join(dir, 'bad.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('s1.spec.pipeline_id');
    expect(r.stderr).toContain('nowhere');
    expect(await fx.requests()).toEqual([]);
  });
});

describe('import: organizations, persons and owners by name', () => {
  const csv = (rows: string[]) => {
    const file = join(tmp(), 'deals.csv');
    writeFileSync(file, `${['title,value,currency,organization,person,owner,stage_id', ...rows].join('\n')}\n`);
    return file;
  };

  it('names become ids (case-insensitive; a user by name or email); a number stays an id', async () => {
    const file = csv(['Acme upsell,1000,EUR,acme corporation,Alice Andersson,Sam Seller,2', 'By id,700,EUR,2,,ada.admin@example.com,3']);
    const r = await run(['import', 'deals', '--file', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Imported 2 deals; 0 failed, 0 skipped. Results: ${file}.results.ndjson\n`);
    const posts = (await writesOf()).map((q) => q.body);
    expect(posts).toEqual([
      { title: 'Acme upsell', value: 1000, currency: 'EUR', org_id: 1, person_id: 1, owner_id: 3, stage_id: 2 },
      { title: 'By id', value: 700, currency: 'EUR', org_id: 2, owner_id: 1, stage_id: 3 },
    ]);
    // One read of each list the names needed, not one per row.
    const reads = (await fx.requests()).filter((q) => q.method === 'GET').map((q) => q.path);
    expect(reads.filter((p) => p === '/api/v2/organizations')).toHaveLength(1);
    expect(reads.filter((p) => p === '/api/v2/persons')).toHaveLength(1);
    expect(reads.filter((p) => p === '/api/v1/users')).toHaveLength(1);
  });

  it('rows whose names match nothing are listed by line and nothing is sent; --skip-invalid imports the others', async () => {
    const file = csv(['Good,1,EUR,Globex Industries,,,2', 'Lost org,1,EUR,Nowhere Ltd,,,2', 'Lost owner,1,EUR,,,Nobody,2']);
    const r = await run(['import', 'deals', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: line 3: organization: no organization "Nowhere Ltd"\nline 4: owner: no user "Nobody"; give a name, an email or an id (crmctl users list)\n' +
        `hint: 2 rows of ${file} broke a rule; nothing was sent. Fix them, or pass --skip-invalid to import the others (skipped rows are listed in the results file).\n`,
    );
    expect(await writesOf()).toEqual([]);

    const s = await run(['import', 'deals', '--file', file, '--skip-invalid']);
    expect(s.code, s.stderr).toBe(0);
    const results = readFileSync(`${file}.results.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(results.map((x) => [x.line, x.id !== undefined, x.error ?? null])).toEqual([
      [2, true, null],
      [3, false, 'organization: no organization "Nowhere Ltd"'],
      [4, false, 'owner: no user "Nobody"; give a name, an email or an id (crmctl users list)'],
    ]);
    expect((await writesOf()).map((q) => q.body)).toEqual([{ title: 'Good', value: 1, currency: 'EUR', org_id: 2, stage_id: 2 }]);
  });

  it('a name shared by two organizations is refused with both ids', async () => {
    await json(['organizations', 'create', '--name', 'Acme Corporation']);
    await fx.clearRequests();
    const file = join(tmp(), 'persons.ndjson');
    writeFileSync(file, `${JSON.stringify({ name: 'Wile E.', organization: 'Acme Corporation' })}\n`);
    const r = await run(['import', 'persons', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: line 1: organization: 2 organizations are called "Acme Corporation" \(ids 1, \d+\): give the id\n/);
    expect(await writesOf()).toEqual([]);
  });

  it('organizations, products and activities import from CSV with the create rules', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'orgs.csv'), 'name,website\nHooli,https://hooli.example.com\nPied Piper,\n');
    writeFileSync(join(dir, 'products.csv'), 'name,code,unit\nWidget,W-1,piece\n');
    writeFileSync(join(dir, 'activities.csv'), 'subject,type,due_date,organization\nIntro call,call,2027-02-01,Hooli\n');
    for (const [resource, file] of [['organizations', 'orgs.csv'], ['products', 'products.csv']] as const) {
      const r = await run(['import', resource, '--file', join(dir, file)]);
      expect(r.code, r.stderr).toBe(0);
    }
    const a = await run(['import', 'activities', '--file', join(dir, 'activities.csv')]);
    expect(a.code, a.stderr).toBe(0);
    const hooli = (await fx.collection<{ id: number; name: string; website?: string }>('organizations')).find((o) => o.name === 'Hooli')!;
    expect((await writesOf()).map((q) => [q.path, q.body])).toEqual([
      ['/api/v2/organizations', { name: 'Hooli', website: 'https://hooli.example.com' }],
      ['/api/v2/organizations', { name: 'Pied Piper' }],
      ['/api/v2/products', { name: 'Widget', code: 'W-1', unit: 'piece' }],
      ['/api/v2/activities', { subject: 'Intro call', type: 'call', due_date: '2027-02-01', org_id: hooli.id }],
    ]);
  });

  it('a bad value is refused by line before the names are looked up or anything is sent', async () => {
    const file = csv(['Bad,-5,EUR,Acme Corporation,,,2']);
    const r = await run(['import', 'deals', '--file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 2: value: must be at least 0');
    expect(await writesOf()).toEqual([]);
  });
});

describe('export of deals and organizations', () => {
  it('exports every deal as ndjson, the same records the list returns', async () => {
    const out = join(tmp(), 'deals.ndjson');
    const r = await run(['export', 'deals', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const exported = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // The plain list leaves archived deals out (the demo seed has one).
    const live = (await fx.collection<{ id: number; is_deleted: boolean; is_archived: boolean }>('deals')).filter((d) => !d.is_deleted && !d.is_archived);
    expect(exported.map((d) => d.id).sort((a, b) => a - b)).toEqual(live.map((d) => d.id).sort((a, b) => a - b));
    // Besides the pages, each linked list whose names travel beside the ids is read once.
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v2/dealFields', '/api/v2/deals', '/api/v2/organizations', '/api/v2/persons', '/api/v1/users', '/api/v2/stages', '/api/v2/pipelines']);
  });

  it('organizations as CSV with chosen columns', async () => {
    const r = await run(['export', 'organizations', '--format', 'csv', '--columns', 'id,name']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('id,name');
    expect(lines[1]).toBe('1,Acme Corporation');
  });
});

describe('the deal table and the TTY prompts of deals create', () => {
  it('piped rows show value with currency, stage and owner by name; --json keeps the records', async () => {
    const r = await run(['deals', 'list', '--limit', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('1\tAcme annual licence\t24000 EUR\tDemo Scheduled\topen\tAda Admin\n2\tGlobex onboarding\t8000 EUR\tQualified\topen\tReggie Regular\n');
    expect((await fx.requests()).map((q) => q.path).sort()).toEqual(['/api/v1/users', '/api/v2/deals', '/api/v2/stages']);
    await fx.clearRequests();
    const [first] = await json(['deals', 'list', '--limit', '1']);
    expect(first).toMatchObject({ id: 1, value: 24000, currency: 'EUR', stage_id: 3, owner_id: 1 });
    expect(first.stage).toBeUndefined();
    expect((await fx.requests()).map((q) => q.path)).toEqual(['/api/v2/deals']);
  });

  it('without the users scope the table keeps owner ids (names are a nicety, never a failure)', async () => {
    const token = fx.sandbox.issueToken({ scopes: ['deals:read'] }).access_token;
    const r = await run(['deals', 'list', '--limit', '1'], { CRMCTL_ACCESS_TOKEN: token });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('1\tAcme annual licence\t24000 EUR\tDemo Scheduled\topen\t1\n');
  });

  it('deals create asks for a pipeline, then offers only the stages of that pipeline', async () => {
    const pipelines = (await api('/api/v2/pipelines')).body.data as Array<{ id: number; name: string }>;
    const second = pipelines[1]!;
    const stages = ((await api(`/api/v2/stages?pipeline_id=${second.id}`)).body.data as Array<{ id: number; name: string; deal_probability: number }>);
    await fx.clearRequests();
    const r = await runWithPrompts(['deals', 'create'], [], { title: 'Prompted deal' }, fx.env, [
      (q: Asked) => {
        expect(q.message).toBe('pipeline (the deal goes to its first stage unless a stage is given):');
        expect(q.choices!.map((c) => c.name)).toEqual(['None (the default)', ...pipelines.map((p) => p.name), 'Other (type the id)']);
        return q.choices!.find((c) => c.name === second.name)!.value;
      },
      (q: Asked) => {
        expect(q.message).toBe('stage (the pipeline follows the stage; default: first stage of the default pipeline):');
        expect(q.choices!.map((c) => c.name)).toEqual(['None (the default)', ...stages.map((s) => `${s.name} (${s.deal_probability}%)`), 'Other (type the id)']);
        return q.choices!.find((c) => c.name === `${stages[1]!.name} (${stages[1]!.deal_probability}%)`)!.value;
      },
    ]);
    expect(r.error).toBeUndefined();
    expect(r.left).toBe(0);
    expect((await writesOf()).map((q) => q.body)).toEqual([{ title: 'Prompted deal', pipeline_id: second.id, stage_id: stages[1]!.id }]);
    expect((await fx.requests()).find((q) => q.path === '/api/v2/stages')!.query).toMatchObject({ pipeline_id: String(second.id) });
  });

  it('both questions can be skipped: the deal goes to the default pipeline', async () => {
    const r = await runWithPrompts(['deals', 'create'], [], { title: 'Default placed' }, fx.env, ['None (the default)', 'None (the default)']);
    expect(r.error).toBeUndefined();
    expect((await writesOf()).map((q) => q.body)).toEqual([{ title: 'Default placed' }]);
    expect(JSON.parse(r.stdout)).toMatchObject({ pipeline_id: 1, stage_id: 1 });
  });
});
