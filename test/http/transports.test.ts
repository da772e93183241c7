import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type SandboxFixture } from '../helpers/sandbox.js';

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => fx.close());

/** Both wires give the same results: node:http (default) and undici (CRMCTL_HTTP_TRANSPORT=undici). */
describe.each(['node', 'undici'])('transport %s', (transport) => {
  it('lists, creates (201) and maps errors the same way', async () => {
    const env = { ...fx.env, CRMCTL_HTTP_TRANSPORT: transport };
    const list = await runCli(['lead-labels', 'list', '--json'], { env });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).map((l: { name: string }) => l.name)).toEqual(expect.arrayContaining(['Hot', 'Cold', 'Warm']));
    const created = await runCli(['lead-labels', 'create', '--name', `via ${transport}`, '--color', 'gray', '--json'], { env });
    expect(JSON.parse(created.stdout)).toMatchObject({ name: `via ${transport}`, color: 'gray' });
    const missing = await runCli(['leads', 'get', '6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f'], { env });
    expect(missing.code).toBe(5);
    expect(missing.stderr).toContain('requested lead not found');
    const refused = await runCli(['lead-labels', 'list'], { env: { ...env, CRMCTL_ACCESS_TOKEN: 'not-a-token' } });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('unauthorized access');
  });

  it('retries a 503 on a read and reports exit 1 after the last retry', async () => {
    const env = { ...fx.env, CRMCTL_HTTP_TRANSPORT: transport, CRMCTL_MAX_RETRIES: '2' };
    await fetch(`${fx.sandbox.url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rate5xx: 1, seed: 3 }) });
    await fx.clearRequests();
    try {
      const r = await runCli(['lead-labels', 'list'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/The service answered 50[234] for GET \/api\/v1\/leadLabels/);
      expect((await fx.requests()).length).toBe(3);
    } finally {
      await fetch(`${fx.sandbox.url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    }
  });

  it('never resends a create after a gateway error: exit 1, one request', async () => {
    const env = { ...fx.env, CRMCTL_HTTP_TRANSPORT: transport };
    await fetch(`${fx.sandbox.url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rate5xx: 1, seed: 4 }) });
    await fx.clearRequests();
    try {
      const r = await runCli(['lead-labels', 'create', '--name', 'once', '--color', 'red'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('not resent to avoid a duplicate');
      expect((await fx.requests()).filter((q) => q.method === 'POST')).toHaveLength(1);
    } finally {
      await fetch(`${fx.sandbox.url}/__sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    }
  });
});

describe('node transport: https loads on the first https request', () => {
  it('an https URL is spoken to with TLS (a plain HTTP server answers the handshake with garbage), an http URL without', async () => {
    const { nodeTransport } = await import('../../src/http/transport-node.js');
    const t = nodeTransport(2);
    try {
      const plain = await t.request(`${fx.sandbox.url}/api/v1/leadLabels`, { method: 'GET', headers: { authorization: `Bearer ${fx.env.CRMCTL_ACCESS_TOKEN}` }, timeoutMs: 5_000 });
      expect(plain.status).toBe(200);
      const tls = t.request(`${fx.sandbox.url.replace('http:', 'https:')}/api/v1/leadLabels`, { method: 'GET', headers: {}, timeoutMs: 5_000 });
      await expect(tls).rejects.toMatchObject({ code: expect.stringMatching(/^(EPROTO|ERR_SSL_WRONG_VERSION_NUMBER|ECONNRESET)$/) });
    } finally {
      await t.close();
    }
  });
});
