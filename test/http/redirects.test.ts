import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { loopback, type Loopback } from './loopback.js';

const TOKEN = 'tok-redirect-test-0123456789';
let api: Loopback;
let other: Loopback;
beforeAll(async () => {
  other = await loopback((_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"success":true,"data":{"id":1}}'));
  // The "API" answers every request with a redirect to the other host.
  api = await loopback((req, res) => res.writeHead(307, { location: `${other.url}/elsewhere${req.url}` }).end());
});
afterAll(async () => {
  await api.close();
  await other.close();
});

const redirected = (status: number, what: string, location: string) =>
  `error: The service answered ${status} for ${what} with a redirect to ${location}; crmctl does not follow redirects (the credentials would go along).\n` +
  `hint: Check the API address (CRMCTL_API_DOMAIN or the profile's apiDomain): it should be the address the service answers at, without a redirect.\n`;

describe.each(['node', 'undici'])('a 3xx answer is an error naming the Location (transport %s)', (transport) => {
  const env = () => ({ CRMCTL_ACCESS_TOKEN: TOKEN, CRMCTL_API_DOMAIN: api.url, CRMCTL_CONFIG_DIR: tempConfigDir(), CRMCTL_HTTP_TRANSPORT: transport });

  it('create, list and delete exit 1 with the Location; nothing reaches the other host', async () => {
    // A write's first request is the record's (src/automation/record-write.ts): a create asks whose account
    // (users/me), a delete reads the record it removes. The redirect stops the command there, before the write.
    const cases: Array<[string[], string]> = [
      [['leads', 'create', '--title', 'x', '--organization-id', '1'], 'GET /api/v1/users/me'],
      [['leads', 'list'], 'GET /api/v1/leads'],
      [['deals', 'delete', '1', '--yes'], 'GET /api/v2/deals/1'],
    ];
    for (const [argv, what] of cases) {
      api.seen.length = 0;
      other.seen.length = 0;
      const r = await runCli(argv, { env: env() });
      const path = what.split(' ')[1]!;
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(redirected(307, what, `${other.url}/elsewhere${api.seen[0]?.url ?? path}`));
      expect(api.seen).toHaveLength(1); // not retried, not followed
      expect(other.seen).toEqual([]);
    }
  });

  it('an import stops at the first redirect: no row is counted, sent or journaled as imported', async () => {
    const dir = tempConfigDir();
    const file = join(dir, 'orgs.csv');
    writeFileSync(file, 'name\nAcme\nGlobex\n');
    api.seen.length = 0;
    other.seen.length = 0;
    const r = await runCli(['import', 'organizations', '--file', file], { env: env() });
    // The run's first request learns whose account the journal belongs to (users/me): it is the one redirected.
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(redirected(307, 'GET /api/v1/users/me', `${other.url}/elsewhere/api/v1/users/me`));
    expect(api.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /api/v1/users/me']);
    expect(existsSync(`${file}.results.ndjson`)).toBe(false);
    expect(other.seen).toEqual([]);
  });

  it('api --include prints the 3xx answer, then exits 1', async () => {
    const r = await runCli(['api', '/api/v1/leadLabels', '--include'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^HTTP/1.1 307 Temporary Redirect\\nLocation: ${other.url}/elsewhere/api/v1/leadLabels\\n`));
    expect(r.stderr).toBe(redirected(307, 'GET /api/v1/leadLabels', `${other.url}/elsewhere/api/v1/leadLabels`));
  });
});

describe.each(['node', 'undici'])('the OAuth token call does not follow a redirect either (transport %s)', (transport) => {
  it('a refresh answered with 307 names the Location; the client secret and refresh token go nowhere else', async () => {
    other.seen.length = 0;
    const r = await runCli(['lead-labels', 'list'], {
      env: {
        CRMCTL_CONFIG_DIR: tempConfigDir(),
        CRMCTL_HTTP_TRANSPORT: transport,
        CRMCTL_CLIENT_ID: 'cid',
        CRMCTL_CLIENT_SECRET: 'client-secret-0123456789',
        CRMCTL_REFRESH_TOKEN: 'refresh-0123456789',
        CRMCTL_AUTH_URL: api.url,
        CRMCTL_API_DOMAIN: other.url,
      },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: The OAuth server answered 307 for POST ${api.url}/oauth/token with a redirect to ${other.url}/elsewhere/oauth/token; crmctl does not follow redirects (the credentials would go along).\n` +
        `hint: Check the auth URL (CRMCTL_AUTH_URL or the profile's authUrl): it should be the address the OAuth server answers at.\n`,
    );
    expect(other.seen).toEqual([]);
  });
});
