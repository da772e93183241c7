import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface Loopback {
  url: string;
  port: number;
  seen: Seen[];
  close(): Promise<void>;
}

/** A tiny server on 127.0.0.1 that records what reached it (and whether a credential came along). */
export async function loopback(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Loopback> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization ?? (req.headers['x-api-token'] as string | undefined) });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
