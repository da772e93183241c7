// Export → import between two accounts (issue 18 point 4): every kind that exports and imports is
// exported as CSV from sandbox A and imported as is into sandbox B, whose ids differ (B has records
// of its own first); then every field of each record is compared, links by the name of what they
// point to in their own account. Both sandboxes start from the same users, pipelines and stages.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ndjson, workDir } from './helpers.js';

type Rec = Record<string, unknown>;
let a: SandboxFixture;
let b: SandboxFixture;
const dir = workDir();

const file = (name: string, rows: Rec[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return path;
};

async function importInto(fx: SandboxFixture, kind: string, path: string) {
  const r = await runCli(['import', kind, '--file', path], { env: fx.env });
  expect(r.code, `${kind}: ${r.stderr} ${r.code === 7 ? readFileSync(`${path}.results.ndjson`, 'utf8') : ''}`).toBe(0);
  return r;
}

async function exportAll(fx: SandboxFixture, kind: string): Promise<Rec[]> {
  const r = await runCli(['export', kind], { env: fx.env });
  expect(r.code, r.stderr).toBe(0);
  return ndjson(r.stdout);
}

// The kinds in the order their links need them.
const KINDS = ['organizations', 'persons', 'deals', 'activities', 'products', 'notes', 'leads'] as const;

/** What A holds: one record per kind with nested values (address, emails, phones, prices, money) and links. */
const SEED: Record<(typeof KINDS)[number], Rec[]> = {
  organizations: [
    { name: 'Acme RT', owner_id: 2, address: { value: '1 Harbour Street, Tallinn, Estonia', country: 'Estonia', locality: 'Tallinn' }, website: 'https://acme.example' },
    { name: 'Globex RT', owner_id: 3 },
  ],
  persons: [
    {
      name: 'Alice RT', organization: 'Acme RT', owner_id: 2,
      emails: [{ value: 'alice@acme.example', primary: true, label: 'work' }, { value: 'alice@home.example', primary: false, label: 'home' }],
      phones: [{ value: '+372 5550 1000', primary: true, label: 'mobile' }],
    },
    { name: 'Bob RT', organization: 'Globex RT' },
  ],
  deals: [
    { title: 'Deal RT', organization: 'Acme RT', person: 'Alice RT', owner_id: 3, pipeline_id: 2, stage_id: 7, value: 1000, currency: 'EUR', expected_close_date: '2026-03-01' },
    // "Qualified" is a stage of both pipelines (added below): the pipeline's name picks it.
    { title: 'Deal RT 2', organization: 'Globex RT', pipeline: 'Partnerships', stage: 'Qualified', value: 50, currency: 'USD' },
  ],
  activities: [{ subject: 'Call RT', type: 'call', due_date: '2026-02-01', due_time: '10:00', duration: '00:30', person: 'Alice RT', organization: 'Acme RT', owner_id: 2, note: 'Bring the quote' }],
  products: [{ name: 'Widget RT', code: 'W-RT', unit: 'piece', tax: 20, owner_id: 2, prices: [{ currency: 'EUR', price: 100, cost: 40 }] }],
  notes: [{ content: '<p>Note RT, with a comma</p>', organization: 'Acme RT', person: 'Bob RT', pinned_to_organization_flag: 1 }],
  leads: [{ title: 'Lead RT', organization: 'Globex RT', person: 'Bob RT', owner_id: 3, value: { amount: 500, currency: 'EUR' }, expected_close_date: '2026-04-01' }],
};

/** Fields that name this record or its moment, not its content: never compared. */
const NOT_CONTENT = new Set(['id', 'add_time', 'update_time', 'stage_change_time', 'cc_email', 'creator_user_id', 'creator_id', 'last_update_user_id', 'product_id', 'next_activity_id']);
/** Link fields, compared by the name of what they point to (in each account's own records). */
const LINKS: Record<string, string> = { org_id: 'organizations', organization_id: 'organizations', person_id: 'persons', owner_id: 'users', user_id: 'users', stage_id: 'stages', pipeline_id: 'pipelines' };
/** A stage as compared: its name and its pipeline's (names repeat across pipelines). */
const stageLabel = (s: Rec, pipelines: Map<string, string>) => `${String(s.name)} in ${pipelines.get(String(s.pipeline_id))}`;
/** Objects notes embed from their links (organization, person, user...): compared through the link ids. */
const EMBEDS = new Set(['deal', 'organization', 'person', 'project', 'task', 'user']);

async function namesOf(fx: SandboxFixture): Promise<Record<string, Map<string, string>>> {
  const out: Record<string, Map<string, string>> = {};
  for (const kind of ['organizations', 'persons', 'users', 'pipelines']) {
    const list = await exportAll(fx, kind);
    out[kind] = new Map(list.map((x) => [String(x.id), String(kind === 'users' ? x.email : x.name)]));
  }
  out.stages = new Map((await exportAll(fx, 'stages')).map((x) => [String(x.id), stageLabel(x, out.pipelines!)]));
  return out;
}

/** A record as compared: content fields as they are (ids of nested values dropped), links by name. */
function comparable(rec: Rec, names: Record<string, Map<string, string>>): Rec {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([k]) => !NOT_CONTENT.has(k)).map(([k, x]) => [k, strip(x)]));
    return v;
  };
  const out: Rec = {};
  for (const [k, v] of Object.entries(rec)) {
    if (NOT_CONTENT.has(k) || EMBEDS.has(k)) continue;
    out[k] = LINKS[k] && v != null ? `${LINKS[k]}:${names[LINKS[k]!]!.get(String(v)) ?? `unknown id ${String(v)}`}` : strip(v);
  }
  return out;
}

beforeAll(async () => {
  a = await startFixture();
  b = await startFixture();
  await a.reset('empty');
  await b.reset('empty');
  // A stage name both pipelines have; B gets one more stage first, so the ids differ.
  const stage = async (fx: SandboxFixture, name: string, pipeline: string) => {
    const r = await runCli(['stages', 'create', '--name', name, '--pipeline-id', pipeline], { env: fx.env });
    expect(r.code, r.stderr).toBe(0);
  };
  await stage(b, 'B only stage', '1');
  await stage(a, 'Qualified', '2');
  await stage(b, 'Qualified', '2');
  // B has records of its own, so the ids A's file carries name other records (or none) there.
  await importInto(b, 'organizations', file('b-orgs.ndjson', [{ name: 'B only 1' }, { name: 'B only 2' }, { name: 'B only 3' }]));
  await importInto(b, 'persons', file('b-persons.ndjson', [{ name: 'B person 1' }, { name: 'B person 2' }]));
  for (const kind of KINDS) await importInto(a, kind, file(`a-${kind}.ndjson`, SEED[kind]));
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('export from one account, import into another: every kind round-trips as is', () => {
  it('imports each CSV export unchanged, with one warning naming the columns it leaves out, and every field matches', async () => {
    for (const kind of KINDS) {
      const out = join(dir, `${kind}.csv`);
      const ex = await runCli(['export', kind, '--format', 'csv', '--out', out], { env: a.env });
      expect(ex.code, ex.stderr).toBe(0);
      const header = readFileSync(out, 'utf8').split('\r\n')[0]!.split(',');
      // Links carry their names beside their ids.
      for (const [id, name] of [['org_id', 'org_name'], ['organization_id', 'organization_name'], ['person_id', 'person_name'], ['owner_id', 'owner_email'], ['stage_id', 'stage_name'], ['pipeline_id', 'pipeline_name']]) {
        if (header.includes(id!)) expect(header[header.indexOf(id!) + 1], `${kind} ${id}`).toBe(name);
      }
      const im = await importInto(b, kind, out);
      const warnings = im.stderr.split('\n').filter((l) => l.startsWith('warning: '));
      expect(warnings.length, im.stderr).toBe(1);
      expect(warnings[0]).toMatch(/^warning: columns not imported: id, .*\(read-only\)/);
      if (kind === 'organizations') {
        // The columns issue 18 saw refused: read-only ones skipped, the address read back, the owner by email.
        expect(warnings[0]).toBe('warning: columns not imported: id, update_time, is_deleted (read-only); owner_id, label_ids (ids of the account the file came from; the name columns beside them are used)');
      }
    }
    const [namesA, namesB] = [await namesOf(a), await namesOf(b)];
    for (const kind of KINDS) {
      const fromA = (await exportAll(a, kind)).map((r) => comparable(r, namesA));
      const inB = (await exportAll(b, kind)).map((r) => comparable(r, namesB)).filter((r) => !/^B (only|person) /.test(String(r.name)));
      expect(inB, kind).toEqual(fromA);
      expect(fromA.length, kind).toBe(SEED[kind].length);
    }
  }, 120_000);
});
