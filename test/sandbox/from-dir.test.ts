import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRows } from '../../src/automation/rows.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { sandboxState, startSandboxFrom, stopStartedSandboxes } from '../helpers/sandbox-from.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

const FIXTURES = fileURLToPath(new URL('../../docs/fixtures', import.meta.url));
const KINDS = ['organizations', 'persons', 'deals', 'activities'] as const;
type Row = Record<string, string>;

async function readCsv(file: string): Promise<Row[]> {
  let header: string[] = [];
  const rows: Row[] = [];
  for await (const r of readRows(file, 'csv', (h) => (header = h))) {
    if (r.kind === 'csv') rows.push(Object.fromEntries(header.map((h, i) => [h, r.cells[i] ?? ''])));
  }
  return rows;
}

afterAll(stopStartedSandboxes);

describe('crmctl sandbox start --from <dir>', () => {
  it('docs/fixtures: applies every record through the apply engine, says what it loaded on stderr, then the usual start line', async () => {
    const sb = await startSandboxFrom(['--from', FIXTURES]);
    try {
      const records = { role: 2, 'role-setting': 1, 'role-assignment': 1, webhook: 1, 'lead-label': 2, lead: 2, note: 2, 'note-comment': 1, pipeline: 1, stage: 3, product: 2, organization: 1, person: 1, deal: 2, 'deal-product': 2, activity: 1 };
      expect(sb.info).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), profile: null, loaded: { records, sample: {} } });
      expect(sb.stderr()).toBe(`Loaded ${FIXTURES}: 25 configuration records from 4 files (${Object.entries(records).map(([k, n]) => `${n} ${k}`).join(', ')})\n`);
      const pipeline = (await sandboxState<{ id: number; name: string }>(sb.info.url, 'pipelines')).find((p) => p.name === 'Partner channel');
      expect(pipeline).toBeDefined();
      const stages = (await sandboxState<{ name: string; pipeline_id: number }>(sb.info.url, 'stages')).filter((s) => s.pipeline_id === pipeline!.id);
      expect(stages.map((s) => s.name)).toEqual(['Qualified', 'Proposal sent', 'Contract']);
      const labels = await sandboxState<{ id: string; name: string }>(sb.info.url, 'leadLabels');
      const vip = labels.find((l) => l.name === 'VIP');
      const lead = (await sandboxState<{ title: string; label_ids: string[] }>(sb.info.url, 'leads')).find((l) => l.title === 'Acme expansion to the Riga office');
      expect(lead?.label_ids).toEqual([vip!.id]);
      expect((await sandboxState<{ name: string }>(sb.info.url, 'persons')).map((p) => p.name)).toContain('Bill Lumbergh');
    } finally {
      sb.child.kill('SIGTERM');
    }
    expect(await sb.closed).toBe(0);
  });

  it('users a real account has and the sandbox has not: their records get the sandbox\'s admin, said in one warning line; apply to an account still refuses them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-from-users-'));
    writeFileSync(join(dir, 'teams.yaml'), [
      'config: teams',
      'records:',
      '  - kind: team',
      '    name: team-imports',
      '    spec:',
      '      name: Imports',
      '      manager_id: ${user:bob@real.example}',
      '      users:',
      '        - ${user:ada.admin@example.com}',
      '        - ${user:carol@real.example}',
      '        - ${user:bob@real.example}',
      '',
    ].join('\n'));
    const sb = await startSandboxFrom(['--from', dir]);
    try {
      expect(sb.stderr()).toBe(`warning: 2 users of the files are not in the sandbox; their records use its admin ada.admin@example.com: bob@real.example, carol@real.example\nLoaded ${dir}: 1 configuration record from 1 file (1 team)\n`);
      const admin = (await sandboxState<{ id: number; email: string }>(sb.info.url, 'users')).find((u) => u.email === 'ada.admin@example.com')!;
      const team = (await sandboxState<{ name: string; manager_id: number; users?: number[] }>(sb.info.url, 'legacyTeams')).find((t) => t.name === 'Imports');
      expect(team?.manager_id).toBe(admin.id);
    } finally {
      sb.child.kill('SIGTERM');
    }
    expect(await sb.closed).toBe(0);

    // Against an account (here a sandbox started on its own), an unknown user stays exit 2, nothing sent.
    const fx: SandboxFixture = await startFixture({ seed: 'demo' });
    try {
      const r = await spawnCli(['apply', '-f', dir], { env: fx.env });
      expect(r.code).toBe(2);
      const f = join(dir, 'teams.yaml');
      expect(r.stderr).toBe([
        `error: ${f}:7 team-imports.spec.manager_id: \${user:bob@real.example}: the account has no user with that e-mail`,
        `${f}:10 team-imports.spec.users.1: \${user:carol@real.example}: the account has no user with that e-mail`,
        `${f}:11 team-imports.spec.users.2: \${user:bob@real.example}: the account has no user with that e-mail`,
        'hint: Nothing was sent. See docs/fixtures.md for the file format.',
        '',
      ].join('\n'));
      expect((await fx.requests()).filter((x) => x.method !== 'GET')).toEqual([]);
    } finally {
      await fx.close();
    }
  });

  it('a bad configuration file: exit 2 naming file and line, before any sandbox starts (reference.yaml is never read)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-from-bad-'));
    writeFileSync(join(dir, 'labels.yaml'), '- kind: lead-label\n  name: ok-label\n  spec:\n    name: OK\n    color: green\n\n- kind: lead\n  name: bad-lead\n  spec:\n    title: Bad\n    label_ids: ["${ref:missing-label.id}"]\n');
    writeFileSync(join(dir, 'reference.yaml'), 'not: [valid yaml');
    const r = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', dir], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${join(dir, 'labels.yaml')}:11 bad-lead.spec.label_ids.0: \${ref:missing-label.id} refers to an unknown record "missing-label" (not in the fixture files)\nhint: Nothing was sent. See docs/fixtures.md for the file format.\n`);
    expect(r.code).toBe(2);
  });

  it('a sample row the sandbox cannot link: exit 2 naming file and line, the sandbox stopped and its new data file removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-from-bad-'));
    mkdirSync(join(dir, 'sample'));
    writeFileSync(join(dir, 'sample', 'deals.csv'), 'title,stage_name\nFine deal,Qualified\nBroken deal,No such stage\n');
    const data = join(dir, 'state.json');
    // The process ends only when its server is closed: a sandbox left listening would time the run out.
    const r = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', dir, '--data', data], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${join(dir, 'sample', 'deals.csv')}:3 stage_name: no stage "No such stage"; stages: Sales/Qualified, Sales/Contact Made, Sales/Demo Scheduled, Sales/Proposal Made, Sales/Negotiations Started, Partnerships/Intro, Partnerships/Evaluation, Partnerships/Agreement\nhint: The sandbox was stopped; fix the file and start it again.\n`);
    expect(r.code).toBe(2);
    expect(existsSync(data)).toBe(false);
  });

  it('a refused activity names the user\'s file and line (rows spanning lines counted), not the copy with the deal ids mapped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-from-bad-'));
    mkdirSync(join(dir, 'sample'));
    writeFileSync(join(dir, 'sample', 'deals.csv'), 'id,title,stage_name\n41,Fine deal,Qualified\n');
    // The first row spans two lines: the second row starts on line 4 of the file.
    writeFileSync(join(dir, 'sample', 'activities.csv'), 'id,subject,type,deal_id\n1,"Call,\nwith a second line",call,41\n2,Bad one,no-such-type,41\n');
    const r = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', dir], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.stdout).toBe('');
    const file = join(dir, 'sample', 'activities.csv');
    expect(r.stderr.startsWith(`error: ${file}:4: refused by the sandbox: The service answered 400 for POST /api/v2/activities: type: must be the key_string of an active activity type`), r.stderr).toBe(true);
    expect(r.code).toBe(2);
  });

  it('--from with a data file that exists is refused: it would load twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crmctl-from-data-'));
    writeFileSync(join(dir, 'state.json'), '{}');
    const r = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', FIXTURES, '--data', join(dir, 'state.json')], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: --from: loads into a new sandbox, and ${join(dir, 'state.json')} (--data) exists already\nhint: Remove the data file, or start without --from to keep using it.\n` });
  });
});

describe('crmctl pull --sample N, then sandbox start --from', () => {
  let fx: SandboxFixture;
  let dir: string;
  let files: Record<(typeof KINDS)[number], Row[]>;

  beforeAll(async () => {
    fx = await startFixture({ seed: 'demo' });
    dir = mkdtempSync(join(tmpdir(), 'crmctl-pull-sample-'));
    const r = await spawnCli(['pull', '--out', dir, '--sample', '5'], { env: fx.env });
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: '', stderr: '' });
    files = Object.fromEntries(await Promise.all(KINDS.map(async (k) => [k, await readCsv(join(dir, 'sample', `${k}.csv`))]))) as typeof files;
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('writes the four CSVs, at most 5 of each, 5 deals, every link inside the sample', () => {
    expect(readdirSync(join(dir, 'sample')).sort()).toEqual(['activities.csv', 'deals.csv', 'organizations.csv', 'persons.csv']);
    for (const k of KINDS) expect(files[k].length, k).toBeLessThanOrEqual(5);
    expect(files.deals).toHaveLength(5);
    const orgNames = new Set(files.organizations.map((o) => o.name));
    const personNames = new Set(files.persons.map((p) => p.name));
    const dealIds = new Set(files.deals.map((d) => d.id));
    for (const p of files.persons) if (p.org_name) expect(orgNames).toContain(p.org_name);
    for (const d of [...files.deals, ...files.activities]) {
      if (d.org_name) expect(orgNames).toContain(d.org_name);
      if (d.person_name) expect(personNames).toContain(d.person_name);
    }
    for (const a of files.activities) if (a.deal_id) expect(dealIds).toContain(a.deal_id);
    expect(files.deals.every((d) => d.stage_name && d.pipeline_name)).toBe(true);
    expect(Object.keys(files.deals[0]!)).not.toContain('owner_id');
    expect(Object.keys(files.persons[0]!)).toEqual(expect.arrayContaining(['name', 'org_name', 'emails', 'phones']));
  });

  it('holds no name, email or phone of the account, nor deal titles, activity subjects or users', async () => {
    const text = KINDS.map((k) => readFileSync(join(dir, 'sample', `${k}.csv`), 'utf8')).join('\n');
    const originals: string[] = [];
    for (const p of await fx.collection<{ name: string; last_name?: string; emails?: Array<{ value: string }>; phones?: Array<{ value: string }> }>('persons')) {
      originals.push(p.name, p.last_name ?? '', ...(p.emails ?? []).map((e) => e.value), ...(p.phones ?? []).map((e) => e.value));
    }
    for (const o of await fx.collection<{ name: string }>('organizations')) originals.push(o.name);
    for (const d of await fx.collection<{ title: string }>('deals')) originals.push(d.title);
    for (const a of await fx.collection<{ subject: string }>('activities')) originals.push(a.subject);
    for (const u of await fx.collection<{ name: string; email: string }>('users')) originals.push(u.name, u.email);
    const checked = originals.filter((v) => v && v.length >= 5);
    expect(checked.length).toBeGreaterThan(40);
    expect(checked.filter((v) => text.includes(v))).toEqual([]);
    expect(files.persons[0]!.name).toMatch(/^Person [0-9a-f]{8}$/);
    expect(files.organizations[0]!.name).toMatch(/^Organization [0-9a-f]{8}$/);
    expect(JSON.parse(files.persons[0]!.emails!)[0].value).toMatch(/^p-[0-9a-f]{10}@example\.invalid$/);
    expect(JSON.parse(files.persons[0]!.phones!)[0].value).toMatch(/^\+1 \d{3} 555 01\d\d$/);
  });

  it('is deterministic: a second pull writes identical files (and only reads)', async () => {
    const again = mkdtempSync(join(tmpdir(), 'crmctl-pull-sample-'));
    await fx.clearRequests();
    const r = await spawnCli(['pull', '--out', again, '--sample', '5'], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
    const sent = await fx.requests();
    expect(sent.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(sent.filter((q) => /^\/api\/v2\/persons\/\d+$/.test(q.path)).length).toBeLessThanOrEqual(5);
    for (const k of KINDS) expect(readFileSync(join(again, 'sample', `${k}.csv`), 'utf8'), k).toBe(readFileSync(join(dir, 'sample', `${k}.csv`), 'utf8'));
  });

  it('CRMCTL_SAMPLE_KEY gives other fakes for the same records', async () => {
    const keyed = mkdtempSync(join(tmpdir(), 'crmctl-pull-sample-'));
    const r = await spawnCli(['pull', '--out', keyed, '--sample', '5'], { env: { ...fx.env, CRMCTL_SAMPLE_KEY: 'our-own-secret' } });
    expect(r.code, r.stderr).toBe(0);
    const persons = await readCsv(join(keyed, 'sample', 'persons.csv'));
    expect(persons.map((p) => p.id)).toEqual(files.persons.map((p) => p.id));
    expect(persons.map((p) => p.job_title)).toEqual(files.persons.map((p) => p.job_title));
    for (const [i, p] of persons.entries()) {
      expect(p.name).toMatch(/^Person [0-9a-f]{8}$/);
      expect(p.name).not.toBe(files.persons[i]!.name);
    }
  });

  it('sandbox start --from loads the sample into a second sandbox with its links intact; --faults start after the load', async () => {
    // Every API call would fail with 5xx=1: the load succeeding shows the faults were armed after it.
    const sb = await startSandboxFrom(['--from', dir, '--faults', '5xx=1']);
    try {
      expect(await (await fetch(`${sb.info.url}/__sandbox/faults`)).json()).toMatchObject({ data: { rate5xx: 1 } });
      const counts = Object.fromEntries(KINDS.map((k) => [k, files[k].length]));
      // pull writes the configuration beside the sample: applied to the new sandbox first (matched by name).
      const configured = sb.info.loaded?.records ?? {};
      expect(Object.keys(configured)).toEqual(expect.arrayContaining(['pipeline', 'stage', 'lead-label']));
      expect(sb.info.loaded?.sample).toEqual(counts);
      const total = Object.values(configured).reduce((a, b) => a + b, 0);
      expect(sb.stderr()).toContain(`Loaded ${dir}: ${total} configuration records from `);
      expect(sb.stderr()).toContain(`\n  sample: ${KINDS.map((k) => `${counts[k]} ${k}`).join(', ')}\n`);
      const [orgs, persons, deals, activities] = await Promise.all(['organizations', 'persons', 'deals', 'activities'].map((n) => sandboxState<Record<string, unknown>>(sb.info.url, n)));
      const one = (list: Array<Record<string, unknown>>, key: string, value: unknown) => {
        const hits = list.filter((x) => x[key] === value);
        expect(hits, `${key} = ${String(value)}`).toHaveLength(1);
        return hits[0]!;
      };
      const nameOf = (list: Array<Record<string, unknown>>, id: unknown) => (id === null || id === undefined ? '' : (list.find((x) => x.id === id)?.name ?? '?'));
      for (const row of files.persons) expect(nameOf(orgs!, one(persons!, 'name', row.name).org_id)).toBe(row.org_name);
      for (const row of files.deals) {
        const deal = one(deals!, 'title', row.title);
        expect([nameOf(persons!, deal.person_id), nameOf(orgs!, deal.org_id)]).toEqual([row.person_name, row.org_name]);
      }
      for (const row of files.activities) {
        const act = one(activities!, 'subject', row.subject);
        expect([nameOf(persons!, act.person_id), nameOf(orgs!, act.org_id)]).toEqual([row.person_name, row.org_name]);
        const title = row.deal_id ? files.deals.find((d) => d.id === row.deal_id)!.title : undefined;
        expect(act.deal_id === null || act.deal_id === undefined ? undefined : deals!.find((d) => d.id === act.deal_id)?.title).toBe(title);
      }
      expect(files.activities.some((a) => a.deal_id)).toBe(true);
    } finally {
      sb.child.kill('SIGTERM');
    }
    expect(await sb.closed).toBe(0);
  });
});
