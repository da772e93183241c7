// Issue 29.12: the v1 forms of operations that have v2 forms are out of support since 2026-08-01
// (deprecated 2026-01-01). Every command that calls one says so in --help, and once on stderr when it
// runs (never in --json stdout), naming the v2 way.
import { describe, expect, it } from 'vitest';
import { demoSandboxPerTest } from '../automation/helpers.js';
import type { SandboxFixture } from '../helpers/sandbox.js';
import { tools } from './helpers.js';

let fx: SandboxFixture;
const { run } = tools(() => fx);
demoSandboxPerTest((f) => {
  fx = f;
});

const notice = (call: string, use: string) => `notice: ${call} is a v1 endpoint out of support since 2026-08-01; use ${use} (v2)\n`;

/** Each command, the v1 call it makes, and the v2 way the notice names. */
const CASES: Array<[string[], string, string, string]> = [
  [['persons', 'list', '--v1'], 'GET /v1/persons', '/v1/persons', 'crmctl persons list'],
  [['persons', 'get', '2', '--v1'], 'GET /v1/persons/{id}', '/v1/persons/2', 'crmctl persons get'],
  [['persons', 'collection'], 'GET /v1/persons/collection', '/v1/persons/collection', 'crmctl persons list'],
  [['persons', 'activities', '4'], 'GET /v1/persons/{id}/activities', '/v1/persons/4/activities', 'crmctl activities list --person-id ID'],
  [['persons', 'deals', '2'], 'GET /v1/persons/{id}/deals', '/v1/persons/2/deals', 'crmctl deals list --person-id ID'],
];

describe('v1 persons commands out of support', () => {
  it.each(CASES)('%j says so once on stderr, and --json stdout stays the records', async (args, call, sent, use) => {
    const r = await run([...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(notice(call, use));
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    expect(r.stdout).not.toContain('notice');
    expect((await fx.requests()).map((q) => q.path)).toEqual([sent]);
  });

  it.each(CASES)('%j says so in --help, with the v2 way', async (args, call, _sent, use) => {
    const r = await run([...args.filter((a) => !/^\d+$/.test(a)), '--help']);
    expect(r.code).toBe(0);
    const [method, path] = call.split(' ');
    expect(r.stdout).toContain(`  ${method} ${path}  (cost not stated; scopes: contacts:read | contacts:full${path === '/v1/persons/collection' ? '; beta' : ''})\n    deprecated: a v1 endpoint out of support since 2026-08-01 (deprecated 2026-01-01); use ${use} (v2)\n`);
  });

  it('said once per run however many pages it reads; the v2 forms say nothing', async () => {
    const all = await run(['api', '/v1/persons/collection', '-F', 'limit=3', '--paginate', '--output', 'ndjson']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toBe(notice('GET /v1/persons/collection', 'crmctl persons list'));
    expect((await fx.requests()).filter((q) => q.path === '/v1/persons/collection').length).toBeGreaterThan(1);
    for (const args of [['persons', 'list'], ['persons', 'get', '2'], ['persons', 'files', '1', '--v1']]) {
      const r = await run([...args, '--json']);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stderr, args.join(' ')).toBe('');
    }
  });

  it('crmctl api and crmctl export say it too when they reach such a path', async () => {
    const api = await run(['api', 'GET', '/v1/persons/2/deals']);
    expect(api.code, api.stderr).toBe(0);
    expect(api.stderr).toBe(notice('GET /v1/persons/{id}/deals', 'crmctl deals list --person-id ID'));
    const exp = await run(['export', 'persons-collection', '--format', 'ndjson']);
    expect(exp.code, exp.stderr).toBe(0);
    expect(exp.stderr).toBe(notice('GET /v1/persons/collection', 'crmctl persons list'));
  });
});
