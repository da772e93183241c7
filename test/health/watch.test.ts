// crmctl watch: only findings new since the last run, kept per profile and per account (never shared
// between two accounts), exit 8 on new findings at or above --fail-on, and --post to an incoming
// webhook with nothing of the login in it.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';
import { demoSandboxPerTest } from '../automation/helpers.js';

let fx: SandboxFixture;
demoSandboxPerTest((f) => (fx = f));

/** A fresh config directory per test: the watch state lives there. */
const fresh = (): Record<string, string> => ({ ...fx.env, CRMCTL_CONFIG_DIR: tempConfigDir() });
const CHECKS = ['--checks', 'invalid-emails,duplicate-persons,stale-deals'];

async function addPersonWithBadEmail(env: Record<string, string>): Promise<number> {
  const r = await runCli(['persons', 'create', '--data', JSON.stringify({ name: 'Evan Typo', emails: [{ value: 'evan@typo', primary: true, label: 'work' }] }), '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).id;
}

describe('crmctl watch', () => {
  it('reports everything on the first run (exit 8), nothing on the next (exit 0), then only what is new', async () => {
    const env = fresh();
    const first = await runCli(['watch', ...CHECKS, '--json'], { env });
    expect(first.code).toBe(8);
    const all = JSON.parse(first.stdout) as Array<{ check: string; ids: number[] }>;
    expect(all.length).toBeGreaterThan(4);
    expect(first.stderr).toMatch(/^watch: \d+ new findings \(\d+ error, \d+ warning\) at or above warning; exit 8\.\n$/);

    const second = await runCli(['watch', ...CHECKS, '--json'], { env });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual([]);

    const id = await addPersonWithBadEmail(env);
    const third = await runCli(['watch', ...CHECKS], { env });
    expect(third.code).toBe(8);
    expect(third.stdout).toBe(`error\tinvalid-emails\tperson\t${id}\tEvan Typo\te-mail "evan@typo": the domain "typo" is not a host name\n`);
    expect(third.stderr).toBe('watch: 1 new finding (1 error) at or above warning; exit 8.\n');
  });

  it('--fail-on error: new warnings are printed but do not fail', async () => {
    const env = fresh();
    const r = await runCli(['watch', '--checks', 'stale-deals', '--fail-on', 'error'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('warning\tstale-deals\tdeal\t');
  });

  it('--baseline records the account as it is: nothing printed, and the next run has nothing new', async () => {
    const env = fresh();
    const b = await runCli(['watch', ...CHECKS, '--baseline'], { env });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toBe('');
    expect(b.stderr).toMatch(/^watch: recorded \d+ findings .* as seen; the next run reports only new ones\.\n$/);
    const next = await runCli(['watch', ...CHECKS], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('');
  });

  it('--reset forgets; the next run reports everything again', async () => {
    const env = fresh();
    await runCli(['watch', ...CHECKS, '--baseline'], { env });
    const reset = await runCli(['watch', '--reset'], { env });
    expect(reset.code).toBe(0);
    expect(reset.stderr).toMatch(/^Forgot the findings watch saw on company \d+\.\n$/);
    expect((await runCli(['watch', ...CHECKS], { env })).code).toBe(8);
  });
});

describe('crmctl watch: one state per profile and account', () => {
  let other: SandboxFixture | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
  });

  it('a second account under the same profile and config directory sees its own findings as new', async () => {
    const env = fresh();
    expect((await runCli(['watch', ...CHECKS, '--baseline'], { env })).code).toBe(0);
    // The same seed, so the same findings (same keys): shared state would hide every one of them.
    other = await startFixture({ seed: 'demo' });
    const envB = { ...env, CRMCTL_ACCESS_TOKEN: other.env.CRMCTL_ACCESS_TOKEN!, CRMCTL_API_DOMAIN: other.env.CRMCTL_API_DOMAIN! };
    const b = await runCli(['watch', ...CHECKS, '--json'], { env: envB });
    expect(b.code).toBe(8);
    expect(JSON.parse(b.stdout).length).toBeGreaterThan(4);
    expect(readdirSync(join(env.CRMCTL_CONFIG_DIR!, 'watch')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
    // And the first account is still as it was: nothing new there.
    const a = await runCli(['watch', ...CHECKS], { env });
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe('');
  });
});

describe('crmctl watch: the state keyed by the account (as runs and the changes feed key theirs)', () => {
  it('is kept as <host>.c<company>.u<user>.json; a state an older crmctl kept per profile is moved there once, its findings still seen', async () => {
    const env = fresh();
    expect((await runCli(['watch', ...CHECKS, '--baseline'], { env })).code).toBe(0);
    const dir = join(env.CRMCTL_CONFIG_DIR!, 'watch');
    const url = new URL(fx.sandbox.url);
    const key = `http_${url.hostname}_${url.port}.c1.u1.json`.replace(/[^\w.-]/g, '_');
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([key]);
    // As an older crmctl named it: <profile>.<company>.<hash of the API address>.json.
    const legacy = `default.1.${createHash('sha256').update(fx.sandbox.url).digest('hex').slice(0, 12)}.json`;
    renameSync(join(dir, key), join(dir, legacy));
    const r = await runCli(['watch', ...CHECKS], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, legacy))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toEqual([key]);
  });
});

describe('crmctl watch --post', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  /** A local incoming-webhook receiver: what it was sent, answering `status`. */
  async function receiver(status: number) {
    const got: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        got.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    close = () => new Promise<void>((r) => server.close(() => r()));
    const port = (server.address() as { port: number }).port;
    return { url: `http://127.0.0.1:${port}/services/T000/B000/secret-path`, got };
  }

  it('sends {text, findings} of the new findings as JSON, with no credential of the login', async () => {
    const env = fresh();
    await runCli(['watch', ...CHECKS, '--baseline'], { env });
    const id = await addPersonWithBadEmail(env);
    const rx = await receiver(200);
    const r = await runCli(['watch', ...CHECKS, '--post', rx.url], { env });
    expect(r.code).toBe(8);
    expect(rx.got).toHaveLength(1);
    const sent = rx.got[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/services/T000/B000/secret-path');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers.cookie).toBeUndefined();
    expect(sent.body).not.toContain(env.CRMCTL_ACCESS_TOKEN);
    const body = JSON.parse(sent.body);
    expect(Object.keys(body).sort()).toEqual(['findings', 'text']);
    expect(body.findings.map((f: { check: string; ids: number[] }) => [f.check, f.ids])).toEqual([['invalid-emails', [id]]]);
    expect(body.text).toMatch(/^crmctl watch: 1 new finding \(1 error\) on .* \(profile default, as of \d{4}-\d{2}-\d{2}\)\n• \[error\] invalid-emails person \d+ Evan Typo: e-mail "evan@typo": the domain "typo" is not a host name$/);
  });

  it('a receiver that fails: exit 1 naming its host only (the path is the webhook\'s secret); the findings stay new', async () => {
    const env = fresh();
    await runCli(['watch', ...CHECKS, '--baseline'], { env });
    await addPersonWithBadEmail(env);
    const rx = await receiver(500);
    const r = await runCli(['watch', ...CHECKS, '--post', rx.url], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: --post: ${new URL(rx.url).origin} answered 500; the findings stay new for the next run.`);
    expect(r.stderr).not.toContain('secret-path');
    const again = await runCli(['watch', ...CHECKS], { env });
    expect(again.code).toBe(8);
    expect(again.stdout).toContain('Evan Typo');
  });

  it.each([
    ['http://hooks.example.com/x', '--post: must be https (plain http only to this machine: 127.0.0.1, localhost, [::1]); got http://hooks.example.com'],
    ['https://user:pw@hooks.example.com/x', '--post: must not carry a user name or password (https://hooks.example.com)'],
    ['not a url', '--post: must be a full https URL of an incoming webhook'],
  ])('%s is refused before anything is read (exit 2)', async (url, message) => {
    const r = await runCli(['watch', '--post', url], { env: fresh() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${message}`);
    expect(await fx.requests()).toEqual([]);
  });

  it('the API address itself is refused: findings never go to the service', async () => {
    const r = await runCli(['watch', '--post', `${fx.sandbox.url}/hooks`], { env: fresh() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: --post: must not be the API address ${fx.sandbox.url}`);
    expect(await fx.requests()).toEqual([]);
  });
});
