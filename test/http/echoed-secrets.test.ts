// A server that echoes the credentials back (as is, URL-encoded, in a header or the body) never gets
// them printed: not by api --include, not in its body, not by --debug; and an API address with a
// password in it is refused (exit 2) without printing the password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { loopback, type Loopback } from './loopback.js';

// Characters that percent-encoding changes, as real tokens carry them (base64's + / =, a colon).
const TOKEN = 'v1:tok+en/with=chars-0123456789';
let api: Loopback;
let b64: Loopback;
const base64 = (s: string) => Buffer.from(s).toString('base64');
/** What a server may echo: the token base64-encoded alone (standard, URL-safe, percent-encoded) and inside longer encoded texts. */
const encodedForms = (t: string) => [base64(t), Buffer.from(t).toString('base64url'), encodeURIComponent(base64(t)), base64(`Bearer ${t}`), base64(`x${t}`), base64(`id:${t}`)];
beforeAll(async () => {
  b64 = await loopback((req, res) => {
    const raw = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const forms = encodedForms(raw);
    const status = req.url?.startsWith('/api/v1/leadLabels') ? 400 : 200;
    res.writeHead(status, { 'content-type': 'application/json', 'x-echo-b64': forms[0]! });
    // /api/v2/deals: the token starts 10 characters before the 2,000 at which --debug cuts a body short.
    const long = req.url?.startsWith('/api/v2/deals') ? { success: true, data: { pad: 'a'.repeat(1952), x: raw } } : undefined;
    res.end(JSON.stringify(long ?? (status === 400 ? { success: false, error: `token ${forms.join(' / ')} is not valid`, error_info: `seen ${forms[3]}` } : { success: true, data: { forms } })));
  });
  api = await loopback((req, res) => {
    const echoed = req.headers.authorization ?? '';
    const raw = echoed.replace(/^Bearer /, '');
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': raw, 'x-echo-encoded': encodeURIComponent(raw), 'set-cookie': 'session=abc123456789' });
    res.end(JSON.stringify({ success: true, data: { seen: raw, url: `https://x.example/cb?token=${encodeURIComponent(raw)}`, lower: encodeURIComponent(raw).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()) } }));
  });
});
afterAll(async () => {
  await api.close();
  await b64.close();
});

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

// Issue 29.7: the base64 forms of a secret were printed as is.
describe('a secret echoed base64-encoded (alone, URL-safe, percent-encoded, or inside a longer encoded text) is redacted', () => {
  /** The token can be read back from no base64 run of the output, in either alphabet. */
  const decodable = (out: string) =>
    [...out.matchAll(/[A-Za-z0-9+/_%-]{8,}={0,2}/g)].some((m) => {
      const run = decodeURIComponent(m[0]);
      return [Buffer.from(run, 'base64'), Buffer.from(run, 'base64url')].some((b) => b.toString('latin1').includes(TOKEN));
    });

  it('--debug: the answer\'s headers and body carry no encoded form of the token', async () => {
    const r = await runCli(['api', '/api/v2/persons', '--debug'], { env: env({ CRMCTL_API_DOMAIN: b64.url }) });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stderr + r.stdout;
    for (const f of encodedForms(TOKEN)) expect(out).not.toContain(f);
    expect(decodable(out)).toBe(false);
    expect(r.stderr).toContain('< x-echo-b64: [redacted]');
    // The encoded forms inside longer texts keep only the characters that their neighbours decide.
    expect(r.stderr).toContain(`"${base64(`Bearer ${TOKEN}`).slice(0, 10)}[redacted]`);
    // Before the fix the base64 run decoded back to the token:
    expect(decodable(base64(`Bearer ${TOKEN}`))).toBe(true);
  });

  it('an error answer quoting the token base64-encoded: the error message on stderr carries none of it (exit 2)', async () => {
    const r = await runCli(['lead-labels', 'list', '--debug'], { env: env({ CRMCTL_API_DOMAIN: b64.url }) });
    expect(r.code).toBe(2);
    const out = r.stderr + r.stdout;
    for (const f of encodedForms(TOKEN)) expect(out).not.toContain(f);
    expect(decodable(out)).toBe(false);
    expect(r.stderr).toMatch(/^error: The service answered 400 for GET \/api\/v1\/leadLabels: token \[redacted\] \/ \[redacted\] \/ \[redacted\] \/ QmVhcmVyIH\[redacted\]/m);
  });
});

it('--debug cuts a long answer after redacting it: a token across the cut leaves no first half', async () => {
  const r = await runCli(['api', '/api/v2/deals', '--debug'], { env: env({ CRMCTL_API_DOMAIN: b64.url }) });
  expect(r.code, r.stderr).toBe(0);
  const body = r.stderr.split('\n').find((l) => l.startsWith('< {'))!;
  expect(body.endsWith('"x":"[redacted]… (2003 chars)')).toBe(true);
  expect(r.stderr).not.toContain(TOKEN.slice(0, 8));
});
