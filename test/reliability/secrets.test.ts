// Secrets: access tokens, refresh tokens, client secrets and Authorization headers never appear in
// what crmctl prints or leaves behind (--debug traces, error messages, auth status, import results
// and journals, export checkpoints, crash output), even when a misbehaving server echoes them back.
// The config file is 0600 after every write; the login callback listens on 127.0.0.1 only; the
// sandbox refuses expired, revoked and foreign-client tokens; `webhooks listen` refuses bad auth.
// Related: test/auth/login.test.ts (state mismatch, replayed code), test/auth/env.test.ts.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/main.js';
import type { IO } from '../../src/core/io.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli, type RunResult } from '../helpers/cli.js';
import { AUTHORIZE_URL, consent, liveMain, startAuthFixture, type AuthFixture } from '../auth/helpers.js';
import { OTHER_CLIENT } from '../../src/sandbox/index.js';
import { workDir } from '../automation/helpers.js';
import { BIN, STACK_FRAME } from './helpers.js';


let fx: AuthFixture;
/** Every secret this file has seen: minted, refreshed, the client secret. */
const secrets = new Set<string>();
/** Everything crmctl printed or wrote that a user could see or share. */
const outputs: Array<{ what: string; text: string }> = [];
const seen = (what: string, r: RunResult | string) => outputs.push({ what, text: typeof r === 'string' ? r : `${r.stdout}\n${r.stderr}` });
const configFile = () => join(fx.configDir, 'config.json');
const stored = () => JSON.parse(readFileSync(configFile(), 'utf8'));
const mode = () => statSync(configFile()).mode & 0o777;
const noteStoredSecrets = () => {
  for (const p of Object.values(stored().profiles) as Array<Record<string, string>>) for (const k of ['accessToken', 'refreshToken', 'clientSecret']) if (p[k]) secrets.add(p[k]);
};
const run = async (what: string, argv: string[], opts: { env?: Record<string, string>; stdin?: string } = {}) => {
  const r = await runCli(argv, { env: { ...fx.env, ...opts.env }, stdin: opts.stdin });
  seen(what, r);
  return r;
};

beforeAll(async () => {
  fx = await startAuthFixture({ seed: 'demo' });
  secrets.add(fx.sandbox.clientSecret);
  const t = await fx.mint({ lifetimeSec: 1 });
  secrets.add(t.access_token).add(t.refresh_token);
  await fx.seedProfile('default', t);
  expect(mode()).toBe(0o600);
  await fx.expire('default', t); // expired: the first command refreshes
});
afterAll(async () => fx.close());

describe('no secret in anything crmctl prints or writes', () => {
  it('--debug traces across a refresh, reads, writes and errors', async () => {
    const r = await run('list with refresh --debug', ['lead-labels', 'list', '--debug']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/refreshing the access token/);
    expect(r.stderr).toMatch(/authorization: \[redacted\]/i);
    noteStoredSecrets();
    expect((await run('create --debug', ['leads', 'create', '--title', 'Secret test', '--person-id', '1', '--debug'])).code).toBe(0);
    expect((await run('404 --debug', ['leads', 'get', '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f', '--debug'])).code).toBe(5);
    expect((await run('400 --debug', ['api', 'POST', '/api/v1/leads', '-f', 'title=x', '-F', 'organization_id=999', '--debug'])).code).not.toBe(0);
    expect((await run('api --include --debug', ['api', 'GET', '/api/v1/users/me', '--include', '--debug'])).code).toBe(0);
  });

  it('auth status, token-free listings, and errors after the tokens are refused', async () => {
    expect((await run('auth status', ['auth', 'status'])).code).toBe(0);
    expect((await run('auth status --json --debug', ['auth', 'status', '--json', '--debug'])).code).toBe(0);
    expect((await run('profiles list', ['auth', 'profiles', 'list', '--json'])).code).toBe(0);
    // A profile whose refresh token is refused and whose access token was revoked: the 401 path.
    const t = await fx.mint();
    secrets.add(t.access_token).add(t.refresh_token);
    await fx.seedProfile('broken', t, { refreshToken: 'refused-refresh-token-0123456789' });
    secrets.add('refused-refresh-token-0123456789');
    await fetch(`${fx.sandbox.url}/oauth/revoke`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${fx.sandbox.clientId}:${fx.sandbox.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.access_token, token_type_hint: 'access_token' }).toString(),
    });
    const r = await run('401 then refused refresh --debug', ['lead-labels', 'list', '--profile', 'broken', '--debug']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/crmctl auth login --profile broken/);
  });

  it('import results file and journal (with failed rows), export checkpoint and partial output', async () => {
    const dir = workDir();
    const f = join(dir, 'leads.ndjson');
    writeFileSync(f, [{ title: 'Sec 1', person_id: 1 }, { title: 'Sec 2', organization_id: 999 }, { title: 'Sec 3', person_id: 2 }].map((x) => JSON.stringify(x)).join('\n'));
    const r = await run('import --debug', ['import', 'leads', '--file', f, '--debug']);
    expect(r.code).toBe(7);
    seen('import results', readFileSync(`${f}.results.ndjson`, 'utf8'));
    seen('import journal', readFileSync(`${f}.import-state.json`, 'utf8'));

    // An export killed after its first checkpoint (latency keeps it mid-way).
    await fx.ctl('POST', 'bulk', { collection: 'leads', count: 600 });
    await fx.ctl('PUT', 'faults', { latencyMs: 150 });
    const out = join(dir, 'leads-export.ndjson');
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'export', 'leads', '--out', out, '--page-size', '50', '--debug'], { env: cleanEnv(fx.env), stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      // Killed once a page is journaled: a journal that exists but holds no page yet (killed as it opens) is no run to resume.
      const paged = () => existsSync(`${out}.checkpoint.json`) && readFileSync(`${out}.checkpoint.json`, 'utf8').includes('"status":"done"');
      const timer = setInterval(() => paged() && child.kill('SIGKILL'), 5);
      child.on('close', () => {
        clearInterval(timer);
        seen('export killed --debug', text);
        resolve();
      });
    });
    await fx.ctl('PUT', 'faults', {});
    expect(existsSync(`${out}.checkpoint.json`)).toBe(true);
    seen('export checkpoint', readFileSync(`${out}.checkpoint.json`, 'utf8'));
    seen('export partial output', readFileSync(out, 'utf8'));
    const resumed = await run('export --resume', ['export', 'leads', '--out', out, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
  }, 60_000);

  it('a server that echoes the Authorization header back: errors, debug traces and crash output stay clean', async () => {
    const token = 'echoed-token-5f0e8b1c9a7d4e2f';
    secrets.add(token);
    // Reflects the credentials in a JSON error, a plain-text error, and a truncated (unparseable) 200.
    const server: Server = createServer((req, res) => {
      const auth = String(req.headers.authorization ?? '');
      if (req.url!.startsWith('/api/v1/leadLabels')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"success":true,"data":[{"name":"${auth}"`); // broken JSON: an unexpected failure path
      } else if (req.url!.startsWith('/api/v1/users/me')) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`bad credentials: ${auth}`);
      } else {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: `token ${auth} is broken`, error_info: auth }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const addr = server.address();
    const env = { CRMCTL_ACCESS_TOKEN: token, CRMCTL_API_DOMAIN: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, CRMCTL_MAX_RETRIES: '0' };
    try {
      const crash = await run('unparseable 200 --debug', ['lead-labels', 'list', '--debug'], { env });
      expect(crash.code).toBe(1);
      expect(crash.stdout).toBe('');
      expect(crash.stderr).toMatch(/with a body that is not valid JSON/);
      const text = await run('text 400 --debug', ['api', 'GET', '/api/v1/users/me', '--debug'], { env });
      expect(text.code).not.toBe(0);
      const json = await run('json 500 --debug', ['leads', 'list', '--debug'], { env });
      expect(json.code).not.toBe(0);
      const plain = await run('json 500', ['leads', 'list'], { env });
      expect(plain.stderr).toMatch(/^error: /);
      expect(plain.stderr).not.toMatch(STACK_FRAME);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('crash output: an unexpected error that carries the token is printed redacted, with source lines instead of raw stack frames', async () => {
    const token = (await fx.mint()).access_token;
    secrets.add(token);
    for (const debug of [false, true]) {
      let err = '';
      const stderr = new PassThrough();
      stderr.on('data', (d) => (err += d));
      // A stdout that fails with a plain Error (not a CliError) quoting the credentials: main's last-resort path.
      const stdout = new PassThrough();
      stdout.write = () => {
        throw new Error(`disk exploded while writing for Bearer ${token}`);
      };
      const io: IO = { stdin: Readable.from([]), stdout, stderr, isStdinTTY: false, isStdoutTTY: false, isStderrTTY: false, columns: 0 };
      const env = cleanEnv({ CRMCTL_ACCESS_TOKEN: token, CRMCTL_API_DOMAIN: fx.sandbox.url, CRMCTL_CONFIG_DIR: fx.configDir });
      // tsv: the text report (with json or ndjson output the same report is one JSON line: test/ux/agents.test.ts).
      const code = await main(['lead-labels', 'list', '--output', 'tsv', ...(debug ? ['--debug'] : [])], io, env);
      seen(`crash${debug ? ' --debug' : ''}`, err);
      expect(code).toBe(1);
      expect(err).toMatch(/error: unexpected failure: disk exploded while writing for Bearer \[redacted\]/);
      expect(err).toMatch(/^(at: | {4})src\/output\/render\.ts:\d+$/m);
      expect(err).toMatch(/^hint: report it with the lines above and crmctl \d+\.\d+\.\d+/m);
      expect(err).not.toMatch(STACK_FRAME);
    }
  });

  it('nothing printed or written above holds a secret', () => {
    noteStoredSecrets();
    expect(outputs.length).toBeGreaterThan(15);
    expect(secrets.size).toBeGreaterThan(5);
    const leaks: string[] = [];
    for (const o of outputs) for (const s of secrets) if (o.text.includes(s)) leaks.push(`${o.what}: contains ${s.slice(0, 6)}…`);
    expect(leaks).toEqual([]);
    process.stdout.write(`secrets: ${outputs.length} outputs checked against ${secrets.size} secrets\n`);
  });
});

describe('the config file is 0600 after every write', () => {
  it('refresh, profile use, profile remove and logout each leave it 0600 (even after a chmod 644)', async () => {
    const t = await fx.mint();
    await fx.seedProfile('second', t);
    const steps: Array<[string, string[]]> = [
      ['auth refresh', ['auth', 'refresh', '--profile', 'second']],
      ['profiles use', ['auth', 'profiles', 'use', 'second']],
      ['profiles use back', ['auth', 'profiles', 'use', 'default']],
      ['profiles remove', ['auth', 'profiles', 'remove', 'broken', '--yes']],
      ['logout', ['auth', 'logout', '--profile', 'second']],
    ];
    for (const [what, argv] of steps) {
      chmodSync(configFile(), 0o644);
      const before = readFileSync(configFile(), 'utf8');
      const r = await run(what, argv);
      expect(r.code, `${what}: ${r.stderr}`).toBe(0);
      expect(readFileSync(configFile(), 'utf8'), `${what} wrote nothing`).not.toBe(before);
      expect(mode(), what).toBe(0o600);
      expect(() => stored()).not.toThrow();
    }
    expect(readdirSync(fx.configDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('login callback', () => {
  /** Addresses in LISTEN state for a TCP port, from /proc/net/tcp{,6} (hex address:port). */
  function listeners(port: number): string[] {
    const out: string[] = [];
    for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
      if (!existsSync(f)) continue;
      for (const line of readFileSync(f, 'utf8').split('\n').slice(1)) {
        const [, local, , state] = line.trim().split(/\s+/);
        if (!local || state !== '0A') continue;
        const [addr, p] = local.split(':');
        if (parseInt(p!, 16) === port) out.push(addr!);
      }
    }
    return out;
  }

  it('listens on 127.0.0.1 only while waiting; a forged state is refused and nothing is stored', async () => {
    const auth = await startAuthFixture({ autoApprove: true });
    try {
      const cli = liveMain(['auth', 'login', '--profile', 'cb', '--auth-url', auth.sandbox.url, '--client-id', auth.sandbox.clientId, '--client-secret-stdin', '--callback-port', String(auth.callbackPort), '--no-browser', '--timeout', '20'], auth.env);
      cli.write(`${auth.sandbox.clientSecret}\n`);
      const [, url] = await cli.waitFor(AUTHORIZE_URL);
      if (existsSync('/proc/net/tcp')) expect(listeners(auth.callbackPort)).toEqual(['0100007F']); // 127.0.0.1, no IPv6/any
      const location = new URL(await consent(url!));
      location.searchParams.set('state', 'forged');
      expect((await fetch(location)).status).toBe(400);
      const r = await cli.done;
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/state mismatch/);
      expect(r.stderr).not.toContain(auth.sandbox.clientSecret);
      expect(r.stderr).not.toContain(location.searchParams.get('code')!);
      expect(existsSync(join(auth.configDir, 'config.json'))).toBe(false);
      expect(listeners(auth.callbackPort)).toEqual([]);
    } finally {
      await auth.close();
    }
  });

  it('a replayed code is refused by the service (and not printed)', async () => {
    const auth = await startAuthFixture({ autoApprove: true });
    try {
      const args = ['auth', 'login', '--profile', 'cb', '--auth-url', auth.sandbox.url, '--client-id', auth.sandbox.clientId, '--client-secret-stdin', '--callback-port', String(auth.callbackPort), '--no-browser', '--timeout', '20'];
      const first = liveMain(args, auth.env);
      first.write(`${auth.sandbox.clientSecret}\n`);
      const loc = await consent((await first.waitFor(AUTHORIZE_URL))[1]!);
      await fetch(loc);
      expect((await first.done).code).toBe(0);
      expect(statSync(join(auth.configDir, 'config.json')).mode & 0o777).toBe(0o600);
      const code = new URL(loc).searchParams.get('code')!;
      const second = liveMain(args, auth.env);
      second.write(`${auth.sandbox.clientSecret}\n`);
      await second.waitFor(AUTHORIZE_URL);
      second.write(`${code}\n`);
      const r = await second.done;
      expect(r.code).toBe(4);
      expect(r.stderr).not.toContain(code);
    } finally {
      await auth.close();
    }
  });
});

describe('the sandbox refuses tokens it should not accept (401 body)', () => {
  const call = (token: string) => fetch(`${fx.sandbox.url}/api/v1/leadLabels`, { headers: { authorization: `Bearer ${token}` } });
  const expect401 = async (res: Response) => {
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false, error: 'unauthorized access', errorCode: 401 });
  };

  it('expired', async () => {
    const t = await fx.mint({ lifetimeSec: 1 });
    expect((await call(t.access_token)).status).toBe(200);
    await fx.ctl('POST', 'clock', { advance_sec: 2 });
    await expect401(await call(t.access_token));
  });

  it('revoked', async () => {
    const t = await fx.mint();
    expect((await call(t.access_token)).status).toBe(200);
    const rev = await fetch(`${fx.sandbox.url}/oauth/revoke`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${fx.sandbox.clientId}:${fx.sandbox.clientSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.access_token, token_type_hint: 'access_token' }).toString(),
    });
    expect(rev.status).toBe(200);
    await expect401(await call(t.access_token));
  });

  it('issued to another client', async () => {
    const t = await fx.ctl<{ access_token: string }>('POST', 'tokens', { client_id: OTHER_CLIENT.clientId, lifetime_sec: 3600 });
    await expect401(await call(t.access_token));
  });

  it('made up', async () => {
    await expect401(await call('not-a-token-at-all'));
  });
});

describe('webhooks listen', () => {
  it('refuses a wrong or missing basic auth (401) and accepts the right one; the password is never printed', async () => {
    const password = 'hook-pass-7d1e0c';
    const cli = liveMain(['webhooks', 'listen', '--port', '0', '--user', 'crm', '--password-stdin', '--max-events', '1', '--timeout', '20'], fx.env);
    cli.write(`${password}\n`);
    cli.endInput();
    const [, url] = await cli.waitFor(/Listening for webhook deliveries on (\S+)/);
    const post = (auth?: string) => fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : {}) }, body: JSON.stringify({ meta: { action: 'create', entity: 'lead' }, data: { id: 1 } }) });
    for (const bad of [undefined, 'crm:wrong', 'other:hook-pass-7d1e0c', `crm:${password}x`]) {
      const res = await post(bad);
      expect(res.status, String(bad)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
    expect((await post(`crm:${password}`)).status).toBeLessThan(300);
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(`${r.stdout}${r.stderr}`).not.toContain(password);
  });
});
