import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { loopback, type Loopback } from './loopback.js';

const TOKEN = 'tok-origin-test-0123456789';
let api: Loopback;
let other: Loopback;
beforeAll(async () => {
  api = await loopback((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":[]}'));
  other = await loopback((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":"other host"}'));
});
afterAll(async () => {
  await api.close();
  await other.close();
});

/** Paths that a URL parser would resolve to another host, or collapse through dot segments. */
const refused = (port: number): Array<[string, string]> => [
  [`//127.0.0.1:${port}/a`, 'must not start with // or /\\ (that names another host)'],
  [`/\\127.0.0.1:${port}/a`, 'must not start with // or /\\ (that names another host)'],
  [`/\\\\127.0.0.1:${port}/a`, 'must not start with // or /\\ (that names another host)'],
  [`/api/v1\\..\\..\\/a`, 'must not contain a backslash'],
  [`/api/v1/leads/..`, 'must not contain a "." or ".." segment'],
  [`/api/v1/leads/%2e%2E/x`, 'must not contain a "." or ".." segment'],
  [`/api/v1/leads/.\t./x`, 'must not contain control characters'],
];

describe.each(['node', 'undici'])('credentials never leave the API origin (transport %s)', (transport) => {
  const env = () => ({ CRMCTL_ACCESS_TOKEN: TOKEN, CRMCTL_API_DOMAIN: api.url, CRMCTL_CONFIG_DIR: tempConfigDir(), CRMCTL_HTTP_TRANSPORT: transport });

  it('api --raw refuses a protocol-relative, backslash or dot-segment path: exit 2, naming it, nothing sent anywhere', async () => {
    for (const [path, rule] of refused(other.port)) {
      api.seen.length = 0;
      other.seen.length = 0;
      const r = await runCli(['api', 'GET', path, '--raw'], { env: env() });
      expect(r.code, path).toBe(2);
      expect(r.stderr).toBe(`error: <path>: ${rule} (got ${JSON.stringify(path)})\nhint: Nothing was sent: credentials go only to the profile's API address.\n`);
      expect(r.stdout).toBe('');
      expect(api.seen).toEqual([]);
      expect(other.seen).toEqual([]);
    }
  });

  it('a path that only looks like another host stays a path on the API host', async () => {
    for (const path of [`/%2f127.0.0.1:${other.port}/a`, `/%2F%2F127.0.0.1:${other.port}/a`]) {
      api.seen.length = 0;
      other.seen.length = 0;
      const r = await runCli(['api', 'GET', path, '--raw'], { env: env() });
      expect(r.code, path).toBe(0);
      expect(api.seen).toEqual([{ method: 'GET', url: path, authorization: `Bearer ${TOKEN}` }]);
      expect(other.seen).toEqual([]);
    }
  });

  it('a path without a leading slash (https:/x) is refused before anything is read or sent', async () => {
    other.seen.length = 0;
    const r = await runCli(['api', 'GET', `http:/127.0.0.1:${other.port}/a`, '--raw'], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: <path>: must start with /, e.g. /api/v1/leads (got "http:/127.0.0.1:${other.port}/a")\n`);
    expect(other.seen).toEqual([]);
  });
});

describe('the one HTTP client checks the final URL, whatever door the path came through', () => {
  it('buildUrl refuses a path that names another host or collapses, and keeps the base path', async () => {
    const { buildUrl } = await import('../../src/http/client.js');
    expect(() => buildUrl('http://127.0.0.1:1', '//127.0.0.1:2/a')).toThrow('<path>: must not start with // or /\\ (that names another host) (got "//127.0.0.1:2/a"); nothing was sent.');
    expect(() => buildUrl('http://127.0.0.1:1', '/api/v1/callLogs/..')).toThrow('<path>: must not contain a "." or ".." segment (got "/api/v1/callLogs/.."); nothing was sent.');
    expect(buildUrl('http://127.0.0.1:1/base', '/api/v1/x', { a: 1 })).toBe('http://127.0.0.1:1/base/api/v1/x?a=1');
  });
});
