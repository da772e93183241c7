import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { control, countIn, demoSandboxPerTest, killMidRun, ndjson, workDir } from './helpers.js';

// `crmctl import <kind> --upsert --match-on FIELD`, run as users run it (the bundle), against the sandbox.

let fx: SandboxFixture;
const run = (args: string[]) => spawnCli(args, { env: fx.env });
const writes = async () => (await fx.requests()).filter((r) => r.method !== 'GET');
const file = (name: string, text: string) => {
  const path = join(workDir(), name);
  writeFileSync(path, text);
  return path;
};
type Person = { id: number; name: string; owner_id: number; emails: Array<{ value: string }> };

demoSandboxPerTest((f) => {
  fx = f;
});

// Frank Fischer (6): a demo person whose email no other person shares (the demo's dirt duplicates Alice's).
const CSV = ['name,email,owner_id', 'Ann Import,ann@example.org,1', 'Ben Import,ben@example.org,2', 'Frank Fischer,frank.fischer@example.org,1', ''].join('\n');

describe('import --upsert --match-on email', () => {
  it('creates what is new and leaves what matches; run again: no write, every row "unchanged"', async () => {
    const f = file('people.csv', CSV);
    const first = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Upserted persons: 2 created, 0 updated, 1 unchanged; 0 failed, 0 skipped.');
    expect((await writes()).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v2/persons', 'POST /api/v2/persons']);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results.map((r) => [r.line, r.action])).toEqual([[2, 'created'], [3, 'created'], [4, 'unchanged']]);
    expect(results[2].id).toBe(6);

    // The same command again: the run is finished, nothing is read or sent (the run policy, src/runs).
    await fx.clearRequests();
    const done = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/^Import already done at .+: 2 created, 0 updated, 1 unchanged, 0 failed \(run [0-9a-f]{12}\); nothing sent\. --new-run to start again\.\n$/);
    expect((await fx.requests()).filter((r) => !r.path.includes('Fields'))).toEqual([]);

    // A new run (a sync again) matches every row and writes nothing.
    const second = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email', '--new-run']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Upserted persons: 0 created, 0 updated, 3 unchanged; 0 failed, 0 skipped.');
    expect(await writes()).toEqual([]);
    const again = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(again.map((r) => [r.line, r.action, r.id])).toEqual([[2, 'unchanged', results[0].id], [3, 'unchanged', results[1].id], [4, 'unchanged', 6]]);
    // One paged read of the persons list, no search per row.
    const reads = (await fx.requests()).map((r) => r.path);
    expect(reads.filter((p) => p === '/api/v2/persons')).toHaveLength(1);
    expect(reads.filter((p) => p.includes('/search'))).toEqual([]);
  });

  it('a row changed between runs: exactly one PATCH, with only what changed', async () => {
    const f = file('people.csv', CSV);
    expect((await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email'])).code).toBe(0);
    const ben = (await fx.collection<Person>('persons')).find((p) => p.name === 'Ben Import')!;
    writeFileSync(f, CSV.replace('Ben Import,ben@example.org,2', 'Ben Import,ben@example.org,3'));
    // The file changed: its journal is not continued, a new run is asked for.
    const refused = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${f} changed since that run started (its content hash differs)`);
    await fx.clearRequests();
    const r = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email', '--new-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Upserted persons: 0 created, 1 updated, 2 unchanged;');
    const w = await writes();
    expect(w.map((x) => `${x.method} ${x.path}`)).toEqual([`PATCH /api/v2/persons/${ben.id}`]);
    expect(w[0]!.body).toEqual({ owner_id: 3 });
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results[1]).toEqual({ line: 3, id: ben.id, action: 'updated', changed: ['owner_id'] });
  });

  it('--dry-run says per row what would happen and sends nothing', async () => {
    const f = file('people.csv', CSV.replace('Frank Fischer,frank.fischer@example.org,1', 'Frank Fischer,frank.fischer@example.org,2'));
    const r = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Dry run: nothing was sent. persons matched on email: 2 to create, 1 to update, 0 unchanged');
    expect(r.stdout).toContain('  cost 25: GET /api/v2/persons read once (10), writes 15\n  line 2: create\n  line 3: create\n  line 4: update person 6 (owner_id)');
    expect(await writes()).toEqual([]);
  });

  it('two rows matching one person are refused by line; nothing is sent', async () => {
    const f = file('twice.csv', ['name,emails', 'Frank A,frank.fischer@example.org', 'Someone,new@example.org', 'Frank B,FRANK.FISCHER@example.org', ''].join('\n'));
    const r = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 2: email: lines 2, 4 match the same person (id 6); keep one row per person');
    expect(r.stderr).toContain('line 4: email: lines 2, 4 match the same person (id 6)');
    expect(r.stderr).not.toContain('line 3:');
    expect(await writes()).toEqual([]);
  });

  it('--match-on a monetary field, or --upsert of a kind it does not cover, is refused (exit 2)', async () => {
    const f = file('deals.csv', 'title,value,currency\nX,10,EUR\n');
    const money = await run(['import', 'deals', '--file', f, '--upsert', '--match-on', 'value']);
    expect(money.code).toBe(2);
    expect(money.stderr).toContain('--match-on: value is a monetary field and cannot identify a record');
    const leads = await run(['import', 'leads', '--file', f, '--upsert', '--match-on', 'title']);
    expect(leads.code).toBe(2);
    expect(leads.stderr).toContain('--upsert: leads cannot be upserted; it works for persons, organizations, deals, products');
    expect(await writes()).toEqual([]);
  });
});

describe('import --upsert after kill -9', () => {
  it('--resume finishes the run: every person once, every change once, no write twice', async () => {
    const n = 60;
    const people = (owner: (i: number) => number, count: number) =>
      ['name,email,owner_id', ...Array.from({ length: count }, (_, k) => `Kill ${k + 1},kill${k + 1}@example.org,${owner(k + 1)}`), ''].join('\n');
    // Half of them exist already (owner 1); the file changes their owner and adds as many new ones.
    const seed = file('seed.csv', people(() => 1, n));
    expect((await run(['import', 'persons', '--file', seed])).code).toBe(0);
    const f = file('kill.csv', people((i) => (i % 2) + 2, 2 * n));
    await fx.clearRequests();
    await control(fx, 'PUT', 'faults', { latencyMs: 15, seed: 1 });
    const journal = `${f}.import-state.json`;
    await killMidRun(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email', '--concurrency', '4'], fx.env, () => countIn(journal, '"id"') >= 40);
    await control(fx, 'PUT', 'faults', {});
    const r = await run(['import', 'persons', '--file', f, '--upsert', '--match-on', 'email', '--resume']);
    expect(r.code, r.stderr).toBe(0);

    const persons = (await fx.collection<Person>('persons')).filter((p) => p.name.startsWith('Kill '));
    expect(persons.map((p) => p.emails[0]!.value).sort()).toEqual(Array.from({ length: 2 * n }, (_, k) => `kill${k + 1}@example.org`).sort());
    for (const p of persons) expect(p.owner_id).toBe((Number(p.name.split(' ')[1]) % 2) + 2);
    const w = await writes();
    const posted = w.filter((x) => x.method === 'POST').map((x) => (x.body as { name: string }).name);
    const patched = w.filter((x) => x.method === 'PATCH').map((x) => x.path);
    expect(new Set(posted).size).toBe(posted.length);
    expect(new Set(patched).size).toBe(patched.length);
    // Every seeded person changes owner (1 → 2 or 3): n PATCHes, and n new persons.
    expect(posted.length).toBe(n);
    expect(patched.length).toBe(n);
    const results = ndjson(readFileSync(`${f}.results.ndjson`, 'utf8'));
    expect(results).toHaveLength(2 * n);
    // A write the kill left in flight is reported as what it was (created or updated), not as "unchanged".
    expect(results.filter((x) => x.action === 'created')).toHaveLength(n);
    expect(results.filter((x) => x.action === 'updated')).toHaveLength(n);
  });
});
