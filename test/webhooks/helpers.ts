// Small helpers for the webhook tests: free ports, waiting for a listener, direct calls to the sandbox.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll until fn returns something truthy. */
export async function until<T>(fn: () => Promise<T | undefined | null | false>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

/** Wait until `crmctl webhooks listen` answers its health GET. */
export async function waitForListener(port: number): Promise<void> {
  await until(async () => {
    try {
      return (await fetch(`http://127.0.0.1:${port}/`)).ok;
    } catch {
      return false;
    }
  });
}

export interface Received { body: unknown; headers: IncomingMessage['headers'] }

/** A receiver under the test's control: answers the statuses given in turn (then 200) and keeps what it got. */
export async function recorder(statuses: number[] = []): Promise<{ url: string; got: Received[]; close(): Promise<void>; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      got.push({ body: JSON.parse(text), headers: req.headers });
      res.writeHead(statuses.shift() ?? 200).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, server, close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections(); }) };
}

/** A direct API call to the sandbox (what the CLI refuses to send). */
export async function api(base: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
