// A server that echoes the credentials back (as is, URL-encoded, in a header or the body) never gets
// them printed: not by api --include, not in its body, not by --debug; and an API address with a
// password in it is refused (exit 2) without printing the password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { loopback, type Loopback } from './loopback.js';

// Characters that percent-encoding changes, as real tokens carry them (base64's + / =, a colon).
const TOKEN = 'v1:tok+en/with=chars-0123456789';
let api: Loopback;
beforeAll(async () => {
  api = await loopback((req, res) => {
    const echoed = req.headers.authorization ?? '';
    const raw = echoed.replace(/^Bearer /, '');
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': raw, 'x-echo-encoded': encodeURIComponent(raw), 'set-cookie': 'session=abc123456789' });
    res.end(JSON.stringify({ success: true, data: { seen: raw, url: `https://x.example/cb?token=${encodeURIComponent(raw)}`, lower: encodeURIComponent(raw).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()) } }));
  });
});
afterAll(async () => api.close());

const env = (extra: Record<string, string> = {}) => ({ CRMCTL_ACCESS_TOKEN: TOKEN, CRMCTL_API_DOMAIN: api.url, CRMCTL_CONFIG_DIR: tempConfigDir(), ...extra });
const forms = [TOKEN, encodeURIComponent(TOKEN), encodeURIComponent(TOKEN).toLowerCase()];

describe('echoed credentials are redacted in what crmctl prints', () => {
  it('api --include: headers and body, raw and URL-encoded', async () => {
    const r = await runCli(['api', '/api/v1/leadLabels', '--include'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    for (const f of forms) expect(r.stdout).not.toContain(f);
    expect(r.stdout).toContain('X-Echo: [redacted]\n');
    expect(r.stdout).toContain('X-Echo-Encoded: [redacted]\n');
    expect(r.stdout).toContain('Set-Cookie: [redacted]\n');
    expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('\n\n') + 2)).data).toEqual({ seen: '[redacted]', url: 'https://x.example/cb?token=[redacted]', lower: '[redacted]' });
  });

  it('--debug shows the answer without the echoed token in any form', async () => {
    const r = await runCli(['api', '/api/v1/leadLabels', '--debug'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    for (const f of forms) expect(r.stderr + r.stdout).not.toContain(f);
    expect(r.stderr).toContain('< x-echo-encoded: [redacted]');
  });

  it('a password in CRMCTL_API_DOMAIN is refused, and not printed', async () => {
    const r = await runCli(['lead-labels', 'list', '--debug'], { env: env({ CRMCTL_API_DOMAIN: 'https://admin:hunter2-secret@crm.example.com' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('hunter2-secret');
    expect(r.stderr).toContain('error: CRMCTL_API_DOMAIN: must not contain a user name or password (got "https://admin:[redacted]@crm.example.com")\n');
    expect(r.stderr).toContain('hint: Give the address alone, e.g. https://yourcompany.example.com; the token goes in CRMCTL_ACCESS_TOKEN or CRMCTL_API_TOKEN.\n');
  });
});
