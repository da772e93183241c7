// Secrets in records (a webhook's http_auth_password) are shown as ******** in every output format
// and every command that prints records, unless --show-secrets is given. Masking is output only: the
// service still receives and keeps the password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskSecrets } from '../../src/output/secrets.js';
import { runCli, runBin } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { ensureBuilt } from '../ux/built.js';

const SECRET = 'hunter2-basic-auth';
const MASK = '********';
let fx: SandboxFixture;
let id: number;

const bin = (args: string[], stdin?: string) => runBin(args, { env: fx.env, stdin });

beforeAll(async () => {
  ensureBuilt();
  fx = await startFixture();
  const r = await bin(['webhooks', 'create', '--url', 'http://127.0.0.1:9/crm', '--action', '*', '--object', '*', '--name', 'ops hook', '--auth-user', 'ops', '--auth-password-stdin', '--json'], `${SECRET}\n`);
  expect(r.code, r.stderr).toBe(0);
  const created = JSON.parse(r.stdout) as { id: number; http_auth_password: string };
  id = created.id;
  // The create's own answer is a record too.
  expect(created.http_auth_password).toBe(MASK);
}, 120_000);
afterAll(async () => fx?.close());

describe('webhook passwords are masked in every format', () => {
  it('the service got and keeps the password (masking is output only)', async () => {
    const stored = (await fx.collection<{ id: number; http_auth_password: string }>('webhooks')).find((w) => w.id === id)!;
    expect(stored.http_auth_password).toBe(SECRET);
  });

  it('json', async () => {
    const r = await bin(['webhooks', 'list', '--json']);
    expect(r.code).toBe(0);
    const mine = (JSON.parse(r.stdout) as Array<{ id: number; http_auth_user: string; http_auth_password: string }>).find((w) => w.id === id)!;
    expect(mine.http_auth_user).toBe('ops');
    expect(mine.http_auth_password).toBe(MASK);
    expect(r.stdout).not.toContain(SECRET);
  });

  // The demo seed has webhooks of its own, one with a password ("erp-hook-secret"): none may show.
  it.each([
    ['tsv', ['--output', 'tsv'], `ID\tops\t${MASK}`],
    ['csv', ['--output', 'csv'], `ID,ops,${MASK}`],
    ['ndjson', ['--output', 'ndjson'], `{"id":ID,"http_auth_user":"ops","http_auth_password":"${MASK}"}`],
  ])('%s', async (_name, flags, want) => {
    const r = await bin(['webhooks', 'list', ...flags, '--fields', 'id,http_auth_user,http_auth_password']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split(/\r?\n/)).toContain(want.replace('ID', String(id)));
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).not.toContain('erp-hook-secret');
  });

  it('table (on a terminal): a command and a raw api call', async () => {
    for (const argv of [['webhooks', 'list', '--fields', 'id,http_auth_password'], ['api', `/v1/webhooks`]]) {
      const r = await runCli(argv, { tty: true, env: fx.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(MASK);
      expect(r.stdout).not.toContain(SECRET);
    }
  });

  it('crmctl api (raw calls) masks too', async () => {
    const r = await bin(['api', '/v1/webhooks', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`"http_auth_password": "${MASK}"`);
    expect(r.stdout).not.toContain(SECRET);
  });

  it('--show-secrets prints them', async () => {
    const r = await bin(['webhooks', 'list', '--show-secrets', '--fields', 'id,http_auth_password']);
    expect(r.stdout.split('\n')).toContain(`${id}\t${SECRET}`);
    const raw = await bin(['api', '/v1/webhooks', '--show-secrets']);
    expect(raw.stdout).toContain(`"http_auth_password": "${SECRET}"`);
  });
});

describe('maskSecrets', () => {
  it('masks secret fields at any depth and leaves "no password" (null, empty) alone', () => {
    const rec = { id: 1, http_auth_password: 'x', http_auth_user: 'u', nested: [{ client_secret: 's', name: 'n' }], none: { http_auth_password: null }, empty: { password: '' } };
    expect(maskSecrets(rec)).toEqual({ id: 1, http_auth_password: MASK, http_auth_user: 'u', nested: [{ client_secret: MASK, name: 'n' }], none: { http_auth_password: null }, empty: { password: '' } });
    // Records without secrets are passed through untouched (no copy).
    const plain = { id: 2, title: 't' };
    expect(maskSecrets(plain)).toBe(plain);
  });
});
