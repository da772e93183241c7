// For agents and scripts at the shell: `crmctl commands --json` prints the whole command tree from the
// same specs as --help and docs/commands/, and with json/ndjson output a failure is one JSON line on
// stderr (docs/agents.md).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import { commandTree } from '../../src/program.js';
import { flatten } from '../../src/docs/tree.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { EXIT_DESCRIPTIONS } from '../../src/core/exit-codes.js';
import type { CommandsJson, CommandJson } from '../../src/docs/command-json.js';
import { runBin, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ROOT, ensureBuilt } from './built.js';

let doc: CommandsJson;
beforeAll(async () => {
  ensureBuilt();
  const r = await runBin(['commands', '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  doc = JSON.parse(r.stdout) as CommandsJson;
}, 120_000);

const byPath = (path: string): CommandJson => {
  const c = doc.commands.find((x) => x.path.join(' ') === path);
  if (!c) throw new Error(`no command ${path}`);
  return c;
};
const flag = (path: string, name: string) => {
  const f = byPath(path).flags.find((x) => x.name === name);
  if (!f) throw new Error(`no flag ${name} on ${path}`);
  return f;
};

describe('crmctl commands --json: the whole tree', () => {
  it('lists every command and group of the docs, with their summaries and aliases', async () => {
    const nodes = flatten(await commandTree()).filter((n) => n.path.length > 0);
    expect(doc.commands.map((c) => c.path.join(' '))).toEqual(nodes.map((n) => n.path.join(' ')));
    for (const n of nodes) {
      const c = byPath(n.path.join(' '));
      expect(c.summary).toBe(n.summary);
      expect(c.aliases).toEqual(n.aliases);
      expect(c.runnable).toBe(Boolean(n.spec));
      if (n.spec) expect(c.examples).toEqual(n.spec.examples);
    }
  });

  it('matches docs/command-tree.schema.json', () => {
    const schema = JSON.parse(readFileSync(`${ROOT}docs/command-tree.schema.json`, 'utf8')) as object;
    const validate = new Ajv2020.default({ strict: true, allErrors: true }).compile(schema);
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
  });

  it('gives flags their type, enum choices, required and repeatable', () => {
    expect(flag('leads create', '--title')).toMatchObject({ type: 'string', value_name: 'text', required: true, repeatable: false, enum: null });
    expect(flag('leads create', '--value-amount')).toMatchObject({ type: 'number', required: false });
    expect(flag('leads create', '--person-id')).toMatchObject({ type: 'integer', required: false });
    expect(flag('leads create', '--label-ids')).toMatchObject({ type: 'array', repeatable: true });
    expect(flag('leads create', '--was-seen')).toMatchObject({ type: 'boolean', value_name: 'bool' });
    expect(flag('leads create', '--visible-to')).toMatchObject({ type: 'enum', enum: ['1', '3', '5', '7'] });
    expect(flag('webhooks create', '--action')).toMatchObject({ type: 'enum', enum: ['create', 'change', 'delete', '*'], required: true });
    expect(flag('webhooks create', '--auth-password-stdin')).toMatchObject({ type: 'switch', value_name: null, required: false });
    expect(flag('api', '--field')).toMatchObject({ short: '-F', type: 'string', repeatable: true });
    expect(flag('destroy', '--state')).toMatchObject({ type: 'string', required: true });
    expect(doc.global_flags.find((g) => g.name === '--output')).toMatchObject({ short: '-o', type: 'enum', enum: ['table', 'json', 'ndjson', 'csv', 'tsv'] });
  });

  it('names the operations each command calls, with cost and scopes', () => {
    expect(byPath('leads create').operations).toEqual([{ id: 'leads.create', method: 'POST', path: '/api/v1/leads', cost: 10, scopes: ['leads:full'], beta: false, deprecated: null }]);
    expect(byPath('webhooks create').operations).toEqual([{ id: 'webhooks.create', method: 'POST', path: '/api/v1/webhooks', cost: 10, scopes: ['admin'], beta: false, deprecated: null }]);
    // A v1 endpoint out of support says so, with the v2 way.
    expect(byPath('persons deals').operations).toEqual([
      { id: 'persons.deals', method: 'GET', path: '/v1/persons/{id}/deals', cost: null, scopes: ['contacts:read', 'contacts:full'], beta: false, deprecated: { since: '2026-01-01', out_of_support: '2026-08-01', use: 'crmctl deals list --person-id ID' } },
    ]);
    expect(byPath('leads').operations).toEqual([]);
    expect(byPath('leads').runnable).toBe(false);
  });

  it('carries the exit codes of docs/exit-codes.md and an exit code for every error code', () => {
    expect(doc.exit_codes).toEqual(EXIT_DESCRIPTIONS.map((e) => ({ ...e })));
    const page = readFileSync(`${ROOT}docs/exit-codes.md`, 'utf8');
    for (const e of doc.exit_codes) expect(page).toContain(`  ${String(e.code).padEnd(3)} ${e.name.padEnd(13)} ${e.meaning}\n`);
    expect(doc.error_codes).toEqual(ERROR_CODES.map((e) => ({ ...e })));
    for (const e of doc.error_codes) expect(doc.exit_codes.map((x) => x.code)).toContain(e.exit_code);
  });

  it('docs/agents.md names every key of a command and of a flag, and every error code', () => {
    const page = readFileSync(`${ROOT}docs/agents.md`, 'utf8');
    const keys = [...Object.keys(byPath('leads create')), ...Object.keys(flag('leads create', '--title')), ...Object.keys(doc)];
    for (const k of keys) expect(page).toContain(`\`${k}\``);
    for (const e of ERROR_CODES) expect(page).toContain(`\`${e.code}\``);
  });

  it('prints a subtree (an alias works) and ndjson one command a line', async () => {
    const sub = await runBin(['commands', 'orgs', 'merge', '--json']);
    expect(sub.code).toBe(0);
    expect((JSON.parse(sub.stdout) as CommandsJson).commands.map((c) => c.command)).toEqual(['crmctl organizations merge']);
    const nd = await runBin(['commands', 'lead-labels', '-o', 'ndjson']);
    expect(nd.code).toBe(0);
    const lines = nd.stdout.trimEnd().split('\n').map((l) => (JSON.parse(l) as CommandJson).path.join(' '));
    expect(lines).toEqual(doc.commands.filter((c) => c.path[0] === 'lead-labels').map((c) => c.path.join(' ')));
  });

  it('refuses a path that names no command, as JSON when asked', async () => {
    const r = await runBin(['commands', 'deals', 'nope', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toEqual({
      error: { code: 'validation', exit_code: 2, message: "<path>: 'nope' is not a command of crmctl deals", issues: [{ field: '<path>', rule: "'nope' is not a command of crmctl deals" }], hint: 'See `crmctl commands deals`.', status: null, request_id: null },
    });
  });
});

describe('with json or ndjson output a failure is one JSON line on stderr', () => {
  let fx: SandboxFixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => fx.close());
  beforeEach(async () => fx.clearRequests());

  const oneLine = (stderr: string): unknown => {
    expect(stderr.endsWith('\n')).toBe(true);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    return JSON.parse(stderr);
  };

  it('a validation error names the field and the rule; nothing is sent', async () => {
    const r = await runBin(['leads', 'create', '--json'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    // Every input left out, in one error (issue 29.5).
    expect(oneLine(r.stderr)).toEqual({
      error: {
        code: 'validation', exit_code: 2, message: '--title: is required\n--person-id: a lead needs a person or an organization: give --person-id or --organization-id (or both)',
        issues: [{ field: '--title', rule: 'is required' }, { field: '--person-id', rule: 'a lead needs a person or an organization: give --person-id or --organization-id (or both)' }],
        hint: 'Not a terminal, so nothing is asked: give each of these flags (on a terminal crmctl asks for them).', status: null, request_id: null,
      },
    });
    expect(await fx.requests()).toEqual([]);
  });

  it("commander's usage errors too (unknown flag with its suggestion, missing argument)", async () => {
    const r = await runBin(['-o', 'ndjson', 'leads', 'list', '--state', 'x'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toEqual({
      error: { code: 'usage', exit_code: 2, message: "unknown option '--state'", issues: [{ field: '--state', rule: 'is not an option of this command' }], hint: 'Did you mean --start?', status: null, request_id: null },
    });
    const missing = await runBin(['completion', '--output=json']);
    expect(missing.code).toBe(2);
    expect(oneLine(missing.stderr)).toEqual({ error: { code: 'usage', exit_code: 2, message: "missing required argument 'shell'", issues: [{ field: '<shell>', rule: 'is required' }], hint: null, status: null, request_id: null } });
    expect(await fx.requests()).toEqual([]);
  });

  it('a 404 from the service', async () => {
    const r = await runBin(['deals', 'get', '999999', '--json'], { env: fx.env });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toEqual({ error: { code: 'not_found', exit_code: 5, message: 'Not found (404): Deal not found.', issues: [], hint: 'Object was not found.', status: null, request_id: null } });
    expect((await fx.requests()).map((q) => `${q.method} ${q.path} ${q.status}`)).toEqual(['GET /api/v2/deals/999999 404']);
  });

  it('an auth error', async () => {
    const r = await runBin(['leads', 'list', '--json'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toEqual({
      error: { code: 'auth', exit_code: 4, message: 'Not logged in: there is no profile "default".', issues: [], hint: 'Run `crmctl auth login --profile default` (or set CRMCTL_ACCESS_TOKEN and CRMCTL_API_DOMAIN in CI).', status: null, request_id: null },
    });
  });

  it('a refused token is not echoed back (redacted as in the text form)', async () => {
    const token = 'secret-token-that-must-not-show-0123456789';
    const r = await runBin(['leads', 'list', '--json', '--debug'], { env: { ...fx.env, CRMCTL_ACCESS_TOKEN: token } });
    expect(r.code).toBe(4);
    expect(r.stderr).not.toContain(token);
    const last = r.stderr.trimEnd().split('\n').pop()!;
    expect(JSON.parse(last)).toMatchObject({ error: { code: 'auth', exit_code: 4 } });
  });

  it('a service that cannot be reached, and a crash of crmctl itself (with its source lines)', async () => {
    const down = await runBin(['leads', 'list', '--json'], { env: { ...fx.env, CRMCTL_API_DOMAIN: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(1);
    expect(down.stdout).toBe('');
    expect(oneLine(down.stderr)).toEqual({
      error: { code: 'network', exit_code: 1, message: 'Could not reach the service for GET /api/v1/leads: ECONNREFUSED.', issues: [], hint: 'Nothing answers at http://127.0.0.1:9. If this profile points at the sandbox, start it with `crmctl sandbox start`.', status: null, request_id: null },
    });
    const crash = await runBin(['leads', 'list', '--json'], { env: { ...fx.env, CRMCTL_INTERNAL_CRASH: '1' } });
    expect(crash.code).toBe(1);
    const e = (oneLine(crash.stderr) as { error: Record<string, unknown> }).error;
    expect(e).toMatchObject({ code: 'internal', exit_code: 1, message: 'unexpected failure: internal crash requested by CRMCTL_INTERNAL_CRASH', issues: [] });
    expect(e.hint).toMatch(/^report it with this error and crmctl \d+\.\d+\.\d+ \(at src\/main\.ts:\d+/);
  });

  it('the text form is unchanged without json output', async () => {
    const r = await runBin(['leads', 'create'], { env: fx.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --title: is required\n--person-id: a lead needs a person or an organization: give --person-id or --organization-id (or both)\nhint: Not a terminal, so nothing is asked: give each of these flags (on a terminal crmctl asks for them).\n');
    const u = await runBin(['leads', 'list', '--bogus'], { env: fx.env });
    expect(u.stderr).toBe("error: unknown option '--bogus'\n");
  });
});
