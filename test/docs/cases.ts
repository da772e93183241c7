// How each runnable shell block of README.md and docs/*.md is run, per document, in the document's
// order (a later block may use what an earlier one made, as a reader going through the page would).
// A block is claimed by its first line; test/docs/shell-blocks.test.ts fails on a block that no case
// claims and that has no `<!-- not run: REASON -->` marker, and on a case whose block is gone.
// By default a block runs against the document's own sandbox (demo seed) through CRMCTL_ACCESS_TOKEN
// and CRMCTL_API_DOMAIN, as a CI job would; every command must exit 0 and no stack trace may show.
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { accountSnapshot } from '../fixtures/helpers.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ROOT } from './blocks.js';
import { type BlockEnv, type BlockResult, runBlock } from './run-block.js';

export interface CaseContext extends BlockEnv {
  /** The document's sandbox (demo seed), shared by its blocks in order. */
  fx: SandboxFixture;
  /** Runs after the case (sandboxes a set-up started). */
  onClose(fn: () => Promise<void>): void;
  /** Whatever a set-up hands to its check. */
  state: Record<string, unknown>;
}

export interface BlockCase {
  /** The block's first line as written: the claim. */
  first: string;
  /**
   * The account the block talks to: `demo` (default) the document's sandbox through the environment;
   * `own` nothing (the block starts its sandbox itself, or set-up writes profiles).
   */
  account?: 'demo' | 'own';
  /** Tools the block calls besides crmctl; when one is missing the case skips, naming it. */
  needs?: readonly string[];
  /** Files and records the block takes for granted (what the surrounding text says exists). */
  setup?: (t: CaseContext) => Promise<void> | void;
  /** Text replaced before the run, each pair justified where it is written (a fixed port → a free one). */
  replace?: (t: CaseContext) => Array<[string, string]>;
  /** Commands expected to exit non-zero, by a fragment of their text, with the exit code. */
  exits?: Array<[string, number]>;
  /** The block ends in a server: stop it (SIGINT) once the output matches. */
  until?: RegExp;
  /** What the user sees and what the account holds afterwards. */
  check?: (r: BlockResult, t: CaseContext) => Promise<void> | void;
  /** Extra environment (e.g. CI=true where the text says the commands run in CI). */
  env?: Record<string, string>;
}

/** A port nothing listens on right now (for blocks that name a fixed one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Writes profiles (an admin token each, secrets in the file) into the block's config directory. */
function writeProfiles(t: CaseContext, profiles: Record<string, SandboxFixture>): void {
  const entries = Object.entries(profiles).map(([name, fx]) => [
    name,
    { kind: 'oauth', authUrl: fx.sandbox.url, clientId: fx.sandbox.clientId, clientSecret: fx.sandbox.clientSecret, callbackPort: 8250, apiDomain: fx.sandbox.url, accessToken: fx.env.CRMCTL_ACCESS_TOKEN, refreshToken: 'r', expiresAt: Date.now() + 3_600_000, scopes: ['base', 'admin'] },
  ]);
  writeFileSync(join(t.configDir, 'config.json'), `${JSON.stringify({ defaultProfile: entries[0]![0], profiles: Object.fromEntries(entries) }, null, 2)}\n`, { mode: 0o600 });
}

/** A write to the sandbox's API as its admin (set-up of records the text takes for granted). */
async function apiPost(fx: SandboxFixture, path: string, body: unknown, method = 'POST'): Promise<void> {
  const res = await fetch(`${fx.sandbox.url}${path}`, { method, headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`set-up ${method} ${path}: ${res.status} ${await res.text()}`);
}

const labelNames = async (fx: SandboxFixture) => (await fx.collection<{ name: string }>('leadLabels')).map((l) => l.name);

/**
 * Promote from one account to another (README and docs/config-as-code.md): `staging` is a second
 * sandbox with one lead label more than `prod` (the document's sandbox); both are profiles.
 */
const promote: BlockCase['setup'] = async (t) => {
  const staging = await startFixture({ seed: 'demo' });
  t.onClose(() => staging.close());
  await apiPost(staging, '/api/v1/leadLabels', { name: 'Partner', color: 'purple' });
  writeProfiles(t, { staging, prod: t.fx });
};
const promoted: BlockCase['check'] = async (r, t) => {
  expect(r.stdout).toContain('+ lead-label Partner');
  expect(await labelNames(t.fx)).toContain('Partner');
};

/** A CSV of persons keyed by email (the upsert examples' people.csv). */
// Frank Fischer: a demo person whose email no other shares (the demo's dirt has a second Alice with hers).
const PEOPLE_CSV = 'name,email\nFrank Fischer,frank.fischer@example.org\nBo Berg,bo@example.org\n';

export const CASES: Record<string, BlockCase[]> = {
  'README.md': [
    {
      // The CI example: the repository's docs/fixtures/ and docs/examples/ where a checkout has them.
      first: 'crmctl apply -f docs/fixtures/ --state .crmctl-state.json      # seed labels, leads, roles, a webhook, a pipeline with deals',
      env: { CI: 'true' },
      async setup(t) {
        cpSync(join(ROOT, 'docs/fixtures'), join(t.cwd, 'docs/fixtures'), { recursive: true });
        cpSync(join(ROOT, 'docs/examples'), join(t.cwd, 'docs/examples'), { recursive: true });
        t.state.before = await accountSnapshot(t.fx);
      },
      async check(r, t) {
        // apply + destroy leave the account as it was; export and a dry-run import write nothing. The export
        // says that archived leads are in it (--include-archived).
        expect(r.stderr).toBe('note: archived leads included: read after the others from GET /api/v1/leads/archived (cost 40 a page).\n');
        expect(await accountSnapshot(t.fx)).toEqual(t.state.before);
        expect(readFileSync(join(t.cwd, 'leads.ndjson'), 'utf8').split('\n').filter(Boolean).length).toBe((await t.fx.collection<{ is_archived: boolean }>('leads')).length);
      },
    },
    { first: 'crmctl pull --profile staging --out config/   # pipelines, fields, labels, roles, webhooks... as YAML, refs by name', account: 'own', setup: promote, exits: [['crmctl plan --profile prod', 8]], check: promoted },
    {
      first: 'crmctl budget --min 5000                                        # a CI gate: exit 6 when fewer tokens are left today (docs/budget.md)',
      async check(r, t) {
        expect(r.stdout).toContain('Dry run: nothing was written.');
        expect((await t.fx.collection<{ name: string }>('persons')).map((p) => p.name)).toContain('Ana Silva');
        expect(existsSync(join(t.cwd, 'deals.ndjson'))).toBe(true);
      },
    },
  ],
  'docs/agents.md': [
    {
      first: 'crmctl commands --json                    # every command: one JSON document',
      check(r) {
        expect(r.stdout).toContain('"schema_version": 1');
        expect(r.stdout).toMatch(/^\{"path":\["leads","list"\]/m); // the ndjson form: one command per line
      },
    },
  ],
  'docs/bulk.md': [
    {
      first: 'crmctl deals bulk-update --owner-id 5 --status open --field owner_id=2 --dry-run   # the plan, nothing written',
      check(r) {
        expect(r.stderr).toContain('Bulk update of deals selected by --owner-id 5 --status open');
      },
    },
    {
      // Off a terminal the plan is shown and the write needs --yes (the text: "then confirm").
      first: 'crmctl deals bulk-update --where "Owner = Ada Admin" --where "Status = open" --field owner_id=2',
      exits: [['bulk-update --where', 2]],
      check(r) {
        expect(r.stderr).toContain('Bulk update of deals selected by --where "Owner = Ada Admin" --where "Status = open": ');
        expect(r.stderr).toMatch(/Pass --yes to confirm/);
      },
    },
  ],
  'docs/changes.md': [
    {
      first: 'crmctl changes --since 24h                       # first run: everything since a time; sets the watermark',
      // Something changed today (the seed's records are older than 24 hours).
      setup: (t) => apiPost(t.fx, '/api/v2/deals/1', { title: 'Acme annual licence (renewed)' }, 'PATCH'),
      check(r, t) {
        // The first run prints the change; the second (since the first) has nothing new.
        expect(r.stdout.match(/^\{"type":"deals","action":"updated","id":1,/gm)).toHaveLength(1);
        expect(existsSync(join(t.cwd, 'recent.ndjson'))).toBe(true);
        expect(readFileSync(join(t.cwd, 'deals.ndjson'), 'utf8')).toMatch(/"title"/);
      },
    },
  ],
  'docs/config-as-code.md': [
    {
      // config/ is kept in git: an earlier pull is committed, then the account gains a label.
      first: 'crmctl pull --out config/                 # the account\'s configuration as YAML files',
      needs: ['git'],
      async setup(t) {
        // Not spawnSync: the sandbox runs in this process and must answer the pull.
        const r = await runBlock('set -e\ngit init -q\ncrmctl pull --out config/\ngit add config\ngit -c user.name=docs -c user.email=docs@example.invalid commit -qm "last pull"', t);
        if (r.code !== 0) throw new Error(`set-up: ${r.stderr}`);
        await apiPost(t.fx, '/api/v1/leadLabels', { name: 'Made in the web app', color: 'green' });
      },
      check(r) {
        expect(r.stdout).toMatch(/^\+.*Made in the web app/m); // git diff shows the account's change
        expect(r.stdout).toContain('No changes'); // the files were just pulled: plan and apply find nothing to do
      },
    },
    { first: 'crmctl pull --profile staging --out config/', account: 'own', setup: promote, exits: [['crmctl plan --profile prod', 8]], check: promoted },
  ],
  'docs/custom-fields.md': [
    {
      first: 'crmctl deals update 12 --field "Budget=5000 EUR" --field Segment=Enterprise --field "Lead score=40"',
      async check(_r, t) {
        const persons = await t.fx.collection<{ name: string }>('persons');
        expect(persons.map((p) => p.name)).toContain('Ada');
      },
    },
    {
      first: 'crmctl filters create --name "Big enterprise deals" --type deals --where "Budget > 1000" --where "Segment = Enterprise" --where "Stage = Qualified"',
      async check(_r, t) {
        const names = (await t.fx.collection<{ name: string }>('filters')).map((f) => f.name);
        expect(names).toEqual(expect.arrayContaining(['Big enterprise deals', 'Mine or unassigned']));
      },
    },
  ],
  'docs/fixtures.md': [
    {
      first: 'export WEBHOOK_URL=http://127.0.0.1:8787/crm  # optional (default: loopback port 9, which discards); a real account needs a public URL',
      async setup(t) {
        cpSync(join(ROOT, 'docs/fixtures'), join(t.cwd, 'docs/fixtures'), { recursive: true });
        t.state.before = await accountSnapshot(t.fx);
      },
      async check(_r, t) {
        expect(await accountSnapshot(t.fx)).toEqual(t.state.before);
      },
    },
  ],
  'docs/migrations.md': [
    { first: 'crmctl export leads --out leads.ndjson                  # format from the extension' },
    { first: 'crmctl export leads --out leads.ndjson            # stopped part-way (Ctrl-C, kill -9, a spent budget)' },
    {
      first: 'crmctl import leads --file leads.csv --dry-run    # plan: rows, cost, time at the current budget',
      setup(t) {
        cpSync(join(ROOT, 'docs/examples/leads.csv'), join(t.cwd, 'leads.csv'));
        writeFileSync(join(t.cwd, 'people.csv'), PEOPLE_CSV);
      },
      async check(_r, t) {
        const titles = (await t.fx.collection<{ title: string }>('leads')).map((l) => l.title);
        expect(titles.filter((x) => x === 'Acme renewal 2027')).toHaveLength(1); // imported once, not again by --resume
        expect((await t.fx.collection<{ name: string }>('persons')).map((p) => p.name)).toContain('Bo Berg');
      },
    },
  ],
  'docs/sandbox.md': [
    {
      // A sample of the demo account (its dirt included: an amount kept without a currency is written
      // with the account's, persons with a job title turn contact sync on) loads into an empty sandbox.
      first: 'crmctl pull --out ./acct --sample 20 --profile prod    # configuration files + acct/sample/*.csv',
      account: 'own',
      setup: (t) => writeProfiles(t, { prod: t.fx }),
      // Port 4010 (the default) may be taken on the machine that runs the tests; the sandbox is stopped once it has loaded.
      replace: () => [[
        'crmctl sandbox start --from ./acct --seed empty',
        `crmctl sandbox start --from ./acct --seed empty --port 0 > started.json & sb=$!; until grep -q '"url"' started.json; do kill -0 $sb || exit 1; sleep 0.2; done; kill $sb`,
      ]],
      check(r, t) {
        const started = JSON.parse(readFileSync(join(t.cwd, 'started.json'), 'utf8')) as { loaded: { sample: Record<string, number> } };
        expect(started.loaded.sample).toEqual({ organizations: 8, persons: 14, deals: 17, activities: 14 });
        expect(r.stderr).toContain('  sample: 8 organizations, 14 persons, 17 deals, 14 activities');
        const orgs = readFileSync(join(t.cwd, 'acct/sample/organizations.csv'), 'utf8');
        expect(orgs.split('\n').filter((l) => /,250000,EUR,/.test(l))).toHaveLength(1);
      },
    },
    {
      first: '# CI: a sandbox in the background, a token without a browser',
      account: 'own',
      needs: ['jq', 'curl'],
      check(r) {
        const leads = JSON.parse(r.stdout) as Array<{ title: string }>;
        expect(leads.length).toBeGreaterThan(0);
        expect(r.stderr).toBe('');
      },
    },
    {
      first: 'crmctl webhooks listen --port 8788 &',
      // 8788 may be taken on the machine that runs the tests: the same block on a free port.
      replace: (t) => [['8788', String(t.state.port)]],
      async setup(t) {
        t.state.port = await freePort();
      },
      // The listener's line (piped: the delivery's JSON), not the create's own output, ends the block.
      until: /"title":"Ping"/,
      check(r) {
        const event = JSON.parse(r.stdout.split('\n').find((l) => l.includes('"title":"Ping"'))!) as { meta: { action: string; entity: string } };
        expect(event.meta).toMatchObject({ action: 'create', entity: 'lead' });
      },
    },
  ],
  'docs/subscriptions.md': [
    {
      first: 'crmctl subscriptions create-recurring --deal-id 5 --currency EUR --cadence-type monthly \\',
      async check(_r, t) {
        const subs = await t.fx.collection<{ deal_id: number }>('subscriptions');
        expect(subs.map((s) => s.deal_id)).toContain(5);
      },
    },
    { first: 'crmctl subscriptions update-recurring 1 --effective-date 2026-06-30 --cycle-amount 500 --update-deal-value' },
    { first: 'crmctl subscriptions cancel 1 --end-date 2026-06-30 --yes' },
    {
      first: 'crmctl subscriptions create-installment --deal-id 7 --currency EUR \\',
      setup(t) {
        writeFileSync(join(t.cwd, 'new-schedule.json'), JSON.stringify([{ amount: 6000, due_at: '2026-02-01', description: 'First half' }, { amount: 6000, due_at: '2026-08-01', description: 'Second half' }]));
      },
    },
    { first: 'crmctl deal-installments list --deal-ids 1,6 --sort-by billing_date --sort-direction desc' },
  ],
  'docs/undo.md': [
    {
      first: 'crmctl import persons --file people.csv          # a run: 3 persons created',
      setup(t) {
        writeFileSync(join(t.cwd, 'people.csv'), 'name,email\nDoc One,one@example.org\nDoc Two,two@example.org\nDoc Three,three@example.org\n');
      },
      check(r) {
        expect(r.stdout).toContain('Imported 3 persons; 0 failed, 0 skipped. Results: people.csv.results.ndjson\n');
        expect(r.stdout).toMatch(/\tscript\t.*\tcrmctl import persons --file people\.csv\t3\t\d+\tdone\n/);
        expect(r.stdout).toMatch(/^2\tcreate\t\tdone\t\t\d+\t$/m);
      },
    },
    {
      first: 'crmctl deals update 1 --title "Renamed by hand"   # one write: a run of kind command',
      async check(r, t) {
        expect(r.stdout).toMatch(/\nUndo of run \w+: 0 deleted, 1 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed \(undo run \w+\)\.\n$/);
        expect(r.stderr).toContain('  1 deals to set back (fields the run changed)\n');
        expect((await t.fx.collection<{ id: number; title: string }>('deals')).find((d) => d.id === 1)?.title).not.toBe('Renamed by hand');
      },
    },
    {
      first: 'crmctl import persons --file more-people.csv     # another run',
      setup(t) {
        writeFileSync(join(t.cwd, 'more-people.csv'), 'name,email\nUndo Doc One,one@example.org\nUndo Doc Two,two@example.org\nUndo Doc Three,three@example.org\n');
      },
      async check(r, t) {
        expect(r.stderr).toContain('  3 persons to delete (the run created them)\n');
        expect(r.stdout).toMatch(/^Imported 3 persons; 0 failed, 0 skipped\. Results: more-people\.csv\.results\.ndjson\nDry run: nothing was written\.\nUndo of run \w+: 3 deleted, 0 set back, 0 created again, 0 already undone; 0 conflicts, 0 failed \(undo run \w+\)\.\n$/);
        expect((await t.fx.collection<{ name: string }>('persons')).filter((p) => p.name.startsWith('Undo Doc'))).toEqual([]);
      },
    },
    {
      first: 'crmctl deals bulk-update --ids 1 --field owner_id=2 --yes   # a run: a bulk update',
      check(r) {
        // Piped: TSV (time, field, old, new, user, made by); the owner change is the bulk update's.
        expect(r.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\towner_id\t\d+\t2\t1\tcrmctl bulk update \(run \w+\)$/m);
      },
    },
  ],
  'docs/upsert.md': [
    {
      first: 'crmctl persons upsert --by email --name "Frank Fischer" --emails frank.fischer@example.org --owner-id 2',
      setup(t) {
        writeFileSync(join(t.cwd, 'people.csv'), PEOPLE_CSV);
      },
      async check(_r, t) {
        // The demo seed's Frank (person 6, that email) changed owner; the file's Frank matched him too.
        const persons = await t.fx.collection<{ id: number; name: string; owner_id: number }>('persons');
        expect(persons.filter((p) => p.name === 'Frank Fischer')).toEqual([expect.objectContaining({ id: 6, owner_id: 2 })]);
        expect(persons.map((p) => p.name)).toContain('Bo Berg');
        expect((await t.fx.collection<{ name: string }>('organizations')).filter((o) => o.name === 'Northwind Traders')).toHaveLength(1);
      },
    },
  ],
};
