// `webhooks listen` bounds what a sender can make it hold: a body over --max-body is answered 413
// (from Content-Length before reading, or as it streams) and the connection is closed; past
// --max-concurrent deliveries in progress the next one is answered 503.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { freePort, waitForListener } from './helpers.js';

async function startListener(extra: string[]) {
  const port = await freePort();
  const done = runCli(['webhooks', 'listen', '--port', String(port), '--timeout', '20', '--max-events', '1', ...extra], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
  await waitForListener(port);
  return { port, done };
}

/** A POST whose body is written in chunks (no Content-Length); resolves with the answer, or with what ended it. */
function chunkedPost(port: number, chunks: string[], opts: { hold?: Promise<void>; rest?: string } = {}): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    });
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    void (async () => {
      for (const c of chunks) req.write(c);
      await opts.hold;
      req.end(opts.rest);
    })();
  });
}

describe('webhooks listen: body size and concurrency caps', () => {
  it('a declared or streamed body over --max-body gets 413 and is not printed; a small one is', async () => {
    const { port, done } = await startListener(['--max-body', '1000']);
    const big = JSON.stringify({ event: 'added.lead', pad: 'x'.repeat(5000) });
    const declared = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'body larger than 1000 bytes (--max-body)' });
    expect(declared.headers.get('connection')).toBe('close');

    const streamed = await chunkedPost(port, Array.from({ length: 20 }, () => 'x'.repeat(500)));
    // Either the 413 arrives, or the socket is cut while we still send: never a 200.
    if ('status' in streamed) expect(streamed).toEqual({ status: 413, body: '{"error":"body larger than 1000 bytes (--max-body)"}' });
    else expect(streamed.error).toMatch(/^(ECONNRESET|EPIPE)$/);

    const small = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event":"added.lead","current":{"id":"L1"}}' });
    expect(small.status).toBe(200);
    const r = await done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"event":"added.lead","current":{"id":"L1"}}\n');
    expect(r.stderr).toContain('refused a delivery larger than 1000 bytes (--max-body)');
  });

  it('past --max-concurrent deliveries in progress the next one gets 503; the held one still lands', async () => {
    const { port, done } = await startListener(['--max-concurrent', '1']);
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const first = chunkedPost(port, ['{"event":"added.lead",'], { hold, rest: '"current":{"id":"L1"}}' });
    // Wait until the listener has the first delivery in progress: its health GET is refused then too.
    let busy: Response | undefined;
    for (let i = 0; i < 250; i++) {
      busy = await fetch(`http://127.0.0.1:${port}/`);
      if (busy.status === 503) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(busy!.status).toBe(503);
    expect(await busy!.json()).toEqual({ error: 'busy: at most 1 deliveries at once (--max-concurrent)' });
    expect(busy!.headers.get('retry-after')).toBe('1');
    release();
    expect(await first).toEqual({ status: 200, body: '{"ok":true}' });
    const r = await done;
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"event":"added.lead","current":{"id":"L1"}}\n');
    expect(r.stderr).toContain('refused a delivery: 1 already in progress (--max-concurrent 1)');
  });

  it('--max-body and --max-concurrent must be positive integers (exit 2)', async () => {
    const r = await runCli(['webhooks', 'listen', '--max-body', '0'], { env: { CRMCTL_CONFIG_DIR: tempConfigDir() } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --max-body: must be a positive integer (got "0")\n');
  });
});
