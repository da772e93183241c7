// `sandbox start --from DIR` with a backup (issue 30.5): the demo account backed up, then loaded whole into a
// new sandbox started by the CLI (configuration, records with links, archived records archived), and
// `diff DIR` against that sandbox says identical; with --anonymize no name, e-mail or phone of the demo's
// persons is in the new sandbox. Also: restore's configuration step says one line on stderr (stdout is the
// restore's summary alone), and the refusals of --from with a backup (exit 2, nothing started).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, spawnCli } from '../helpers/cli.js';
import { sandboxState, startSandboxFrom, stopStartedSandboxes } from '../helpers/sandbox-from.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { workDir } from '../automation/helpers.js';

type Rec = Record<string, any>;
let a: SandboxFixture;
const dir = join(workDir(), 'acme');
const ndjson = (file: string): Rec[] => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** Env acting as the admin of a sandbox the CLI started (a token from its control endpoint). */
async function envOf(url: string): Promise<Record<string, string>> {
  const t = (await (await fetch(`${url}/__sandbox/tokens`, { method: 'POST' })).json()) as { data: { access_token: string } };
  return { CRMCTL_API_DOMAIN: url, CRMCTL_ACCESS_TOKEN: t.data.access_token, CRMCTL_CONFIG_DIR: join(workDir(), 'cfg') };
}

beforeAll(async () => {
  a = await startFixture({ seed: 'demo' });
  const r = await runBin(['backup', '--out', dir], { env: a.env });
  expect(r.code, r.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  stopStartedSandboxes();
  await a?.close();
});

describe('sandbox start --from a backup', () => {
  it('loads the whole account (links kept, archived records archived); diff DIR against it says identical', async () => {
    const sb = await startSandboxFrom(['--from', dir]);
    try {
      const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      expect(sb.info.loaded?.records).toMatchObject({ organizations: 8, persons: 14, deals: 17, 'deals-archived': 1, leads: 4, 'leads-archived': 1, notes: 8, 'note-comments': 3 });
      expect(sb.stderr()).toMatch(new RegExp(`^Loaded ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(a backup of Sandbox Trading Ltd, ${m.finished_at}\\): its configuration, then 109 records \\(8 organizations, 14 persons, `, 'm'));
      expect(sb.stderr()).not.toMatch(/not restored/);
      // Archived records are archived there; a deal still points at its organization and person by their new ids.
      const deals = await sandboxState<Rec>(sb.info.url, 'deals');
      expect(deals.filter((d) => d.is_archived).map((d) => d.title)).toEqual(ndjson(join(dir, 'records', 'deals-archived.ndjson')).map((d) => d.title));
      const leads = await sandboxState<Rec>(sb.info.url, 'leads');
      expect(leads.filter((l) => l.is_archived).length).toBe(1);
      const deal = deals.find((d) => d.title === 'Acme annual licence')!;
      const orgs = await sandboxState<Rec>(sb.info.url, 'organizations');
      const persons = await sandboxState<Rec>(sb.info.url, 'persons');
      expect([orgs.find((o) => o.id === deal.org_id)?.name, persons.find((p) => p.id === deal.person_id)?.name]).toEqual(['Acme Corporation', 'Alice Andersson']);
      // The demo company has contact sync: so does the copy (a person's address travelled).
      expect(persons.find((p) => p.name === 'Alice Andersson')?.postal_address?.value).toBe('1 Harbour Street, Tallinn, Estonia');

      const d = await runBin(['diff', dir], { env: await envOf(sb.info.url) });
      expect(d.code, d.stdout + d.stderr).toBe(0);
      for (const kind of ['organizations', 'persons', 'products', 'deals', 'deals-archived', 'deal-products', 'deal-participants', 'leads', 'leads-archived', 'projects', 'projects-archived', 'tasks', 'activities', 'notes', 'note-comments']) {
        expect(d.stdout, kind).toMatch(new RegExp(`^ {2}${kind} +identical \\(\\d+\\)$`, 'm'));
      }
      // What differs by design is named, not compared: kinds restore does not write, fields it cannot carry.
      expect(d.stdout).toMatch(/^ {2}not compared: persons fields: first_name, last_name: not carried by the restore/m);
      for (const kind of ['deal-installments', 'person-followers', 'files']) expect(d.stdout, kind).toMatch(new RegExp(`^ {2}${kind} +identical \\(4\\)$`, 'm'));
      expect(d.stdout).toMatch(/^Identical\.$/m);
    } finally {
      sb.child.kill('SIGTERM');
    }
    expect(await sb.closed).toBe(0);
  }, 120_000);

  it('--anonymize: no name, e-mail or phone of the demo\'s persons or organizations is in the sandbox; links and shape kept', async () => {
    const sb = await startSandboxFrom(['--from', dir, '--anonymize']);
    try {
      expect(sb.stderr()).toMatch(/; people's data replaced \(--anonymize\)$/m);
      const persons = await sandboxState<Rec>(sb.info.url, 'persons');
      const orgs = await sandboxState<Rec>(sb.info.url, 'organizations');
      const notes = await sandboxState<Rec>(sb.info.url, 'notes');
      expect(persons).toHaveLength(14);
      const real = ndjson(join(dir, 'records', 'persons.ndjson'));
      const secrets = [
        ...real.flatMap((p) => [p.name, p.first_name, p.last_name, ...(p.emails ?? []).map((e: Rec) => e.value), ...(p.phones ?? []).map((e: Rec) => e.value)]),
        ...ndjson(join(dir, 'records', 'organizations.ndjson')).map((o) => o.name),
      ].filter((v) => typeof v === 'string' && v.length > 2);
      expect(secrets.length).toBeGreaterThan(40);
      const held = JSON.stringify({ persons, orgs, notes, users: await sandboxState<Rec>(sb.info.url, 'users') }).toLowerCase();
      // Whole words ("Eve" is a name; "every" is not).
      const word = (v: string) => new RegExp(`(?<![\\p{L}\\p{N}])${v.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u');
      expect(secrets.filter((s) => word(String(s)).test(held))).toEqual([]);
      expect(persons.every((p) => /^Person [0-9a-f]{8}$/.test(p.name))).toBe(true);
      expect(persons.flatMap((p) => p.emails.map((e: Rec) => e.value)).every((e: string) => e.endsWith('@example.invalid'))).toBe(true);
      // Links survive: every person with an organization in the backup points at one in the sandbox.
      const orgIds = new Set(orgs.map((o) => o.id));
      expect(persons.filter((p) => p.org_id != null).length).toBe(real.filter((p) => p.org_id != null).length);
      expect(persons.filter((p) => p.org_id != null).every((p) => orgIds.has(p.org_id))).toBe(true);
    } finally {
      sb.child.kill('SIGTERM');
    }
    expect(await sb.closed).toBe(0);
  }, 120_000);

  it('refusals before anything starts (exit 2): --anonymize without a backup, --seed demo with one, an unfinished backup', async () => {
    const pulled = join(workDir(), 'pulled');
    mkdirSync(pulled, { recursive: true });
    writeFileSync(join(pulled, 'labels.yaml'), 'config: labels\nrecords: []\n');
    const env = { CRMCTL_CONFIG_DIR: join(workDir(), 'cfg2') };
    const anon = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', pulled, '--anonymize'], { env });
    expect(anon.code).toBe(2);
    expect(anon.stderr).toContain('--anonymize: only with a backup in --from');
    const demo = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', dir, '--seed', 'demo'], { env });
    expect(demo.code).toBe(2);
    expect(demo.stderr).toContain(`--seed demo: ${dir} is a backup (a whole account); it loads into an empty sandbox`);
    const unfinished = join(workDir(), 'unfinished');
    mkdirSync(join(unfinished, '.run'), { recursive: true });
    writeFileSync(join(unfinished, '.run', 'journal.ndjson'), '');
    const u = await spawnCli(['sandbox', 'start', '--port', '0', '--no-profile', '--from', unfinished], { env });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain(`--from ${unfinished}: is an unfinished backup (it has no manifest.json yet)`);
    expect(anon.stdout + demo.stdout + u.stdout).toBe('');
  }, 60_000);
});

describe('restore: the configuration step', () => {
  it('says one line on stderr; stdout is the restore summary alone', async () => {
    const b = await startFixture({ seed: 'empty' });
    try {
      const r = await runBin(['restore', dir], { env: b.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\n')[0]).toMatch(/^Restore of .*acme into company 1 \(user 1\) at http:\/\/127\.0\.0\.1:\d+:$/);
      expect(r.stdout).not.toMatch(/unchanged|activity-type/);
      expect(r.stderr).toMatch(new RegExp(`^Configuration \\(${join(dir, 'config').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): [1-9]\\d* created, \\d+ updated, 0 replaced, 0 deleted, \\d+ unchanged; cost [1-9]\\d*\\.$`, 'm'));
    } finally {
      await b.close();
    }
  }, 120_000);
});
