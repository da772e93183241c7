// Fault injection, and the sandbox as a separate process surviving kill -9.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, test } from 'vitest';
import { boot } from './helpers.js';
import { buildServerMain } from './build-child.js';
import { startSandbox } from '../../src/sandbox/index.js';

describe('faults', () => {
  test('5xx: 502/503/504 with a JSON error body; control and OAuth untouched', async () => {
    const { call, control, sb } = await boot({ faults: { rate5xx: 1, seed: 3 } });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const r = await call('GET', '/api/v1/leadLabels');
      statuses.add(r.status);
      expect(r.body).toMatchObject({ success: false, error: expect.any(String), data: null });
    }
    expect([...statuses].sort()).toEqual([502, 503, 504]);
    expect((await control('GET', 'info')).status).toBe(200);
    const page = await fetch(`${sb.url}/oauth/authorize?client_id=${sb.clientId}&redirect_uri=${encodeURIComponent('http://127.0.0.1:8250/callback')}`);
    expect(page.status).toBe(200);
    const log = (await control('GET', 'requests')).body.data;
    expect(log.filter((e: any) => e.fault === '5xx')).toHaveLength(30);
  });

  test('429 fault has Retry-After: 1 and is not charged', async () => {
    const { call } = await boot({ faults: { rate429: 1 }, budget: { limit: 500, windowSec: 60 } });
    const r = await call('GET', '/api/v1/leads');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.headers.get('x-ratelimit-remaining')).toBe('500');
  });

  test('reset before the handler: no response, nothing written', async () => {
    const { call, sb } = await boot({ faults: { rateReset: 1, resetAfterCommitShare: 0 } });
    const before = sb.state.leadLabels.size;
    await expect(call('POST', '/api/v1/leadLabels', { body: { name: 'Lost', color: 'red' } })).rejects.toThrow();
    expect(sb.state.leadLabels.size).toBe(before);
  });

  test('reset after commit: no response, but the write happened', async () => {
    const { call, sb } = await boot({ faults: { rateReset: 1, resetAfterCommitShare: 1 } });
    await expect(call('POST', '/api/v1/leadLabels', { body: { name: 'Ghost', color: 'red' } })).rejects.toThrow();
    expect(sb.state.leadLabels.find((l) => l.name === 'Ghost')).toBeTruthy();
  });

  test('latency range is applied', async () => {
    const { call } = await boot({ faults: { latencyMs: [60, 80] } });
    const t = Date.now();
    await call('GET', '/api/v1/leadLabels');
    expect(Date.now() - t).toBeGreaterThanOrEqual(59);
  });

  test('same seed, same fault sequence', async () => {
    const seq = async () => {
      const { call } = await boot({ faults: { rate5xx: 0.3, rate429: 0.2, seed: 42 } });
      const out: number[] = [];
      for (let i = 0; i < 25; i++) out.push((await call('GET', '/api/v1/leadLabels')).status);
      return out;
    };
    const a = await seq();
    const b = await seq();
    expect(a).toEqual(b);
    expect(new Set(a).size).toBeGreaterThan(1);
  });

  test('faults can be switched on and off at runtime', async () => {
    const { call, control } = await boot();
    await control('PUT', 'faults', { rate5xx: 1 });
    expect((await call('GET', '/api/v1/leadLabels')).status).toBeGreaterThanOrEqual(502);
    await control('PUT', 'faults', {});
    expect((await call('GET', '/api/v1/leadLabels')).status).toBe(200);
  });
});

describe('separate process', () => {
  test('server-main prints {url, client_id, client_secret}; state survives kill -9 mid-writes', async () => {
    const main = buildServerMain();
    const dir = mkdtempSync(join(tmpdir(), 'sbx-kill-'));
    const file = join(dir, 'state.json');
    const child = spawn(process.execPath, [main, '--port', '0', '--data', file, '--seed', 'empty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (c) => reject(new Error(`exited ${c}`)));
    });
    const hello = JSON.parse(line);
    expect(hello).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), client_id: expect.any(String), client_secret: expect.any(String) });
    const tok = (await (await fetch(`${hello.url}/__sandbox/tokens`, { method: 'POST', body: '{}' })).json() as any).data.access_token;

    const acked: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const r = await fetch(`${hello.url}/api/v1/leadLabels`, { method: 'POST', headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: `w${w}-${i}`, color: 'green' }) });
          if (r.status === 200) acked.push(((await r.json()) as any).data.id);
        } catch { return; }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    // Kill once enough writes were acknowledged (not after a fixed time: CI machines vary in speed).
    for (let waited = 0; acked.length <= 10 && waited < 20_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    await new Promise((r) => child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r));
    expect(acked.length).toBeGreaterThan(10);

    // The file is whole JSON, and every acknowledged write is in it.
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    const ids = new Set(saved.collections.leadLabels.records.map((r: any) => r.id));
    for (const id of acked) expect(ids.has(id)).toBe(true);
    expect(readdirSync(dir).filter((f) => f !== 'state.json').every((f) => f.endsWith('.tmp'))).toBe(true);

    // A new sandbox loads it.
    const again = await startSandbox({ dataFile: file });
    expect(readdirSync(dir)).toEqual(['state.json']); // stale temp files cleaned on start
    try {
      const r = await fetch(`${again.url}/api/v1/leadLabels`, { headers: { authorization: `Bearer ${tok}` } });
      expect(r.status).toBe(200);
      const names = ((await r.json()) as any).data.map((l: any) => l.id);
      for (const id of acked) expect(names).toContain(id);
    } finally { await again.close(); }
  }, 30_000);
});
