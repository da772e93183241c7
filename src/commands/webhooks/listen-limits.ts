import type { IncomingMessage, ServerResponse } from 'node:http';
import { readAllBytes, TooLargeError } from '../../core/stdin.js';

/** A webhook payload is a record and its previous version: a few KB, far below this. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Deliveries handled at once; the service sends one at a time per webhook, so more is a flood. */
export const DEFAULT_MAX_CONCURRENT = 16;
/** Deliveries waiting for --forward (the one being forwarded included): a burst of events, not a backlog. */
export const DEFAULT_MAX_FORWARD_QUEUE = 100;
/** Bytes of payload waiting for --forward: 16 bodies of the largest size --max-body takes by default. */
export const DEFAULT_MAX_FORWARD_BYTES = 16 * DEFAULT_MAX_BODY_BYTES;

/**
 * Refuses an answer and closes the connection, so a client that keeps sending a huge body is cut off
 * instead of being read to the end (Node would otherwise drain it to reuse the socket).
 */
export function refuse(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close', ...headers });
  // Taken now: once the answer is finished the response lets go of its socket.
  const socket = res.socket;
  res.end(JSON.stringify(body), () => socket?.destroy());
}

/**
 * The body of a delivery, or undefined after answering 413: refused at once when Content-Length says
 * it is too big, else counted as it streams and cut off at the first byte past the cap, so memory
 * stays bounded by the cap times the concurrency whatever clients send.
 */
export async function readBodyCapped(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<Buffer | undefined> {
  const tooLarge = () => refuse(res, 413, { error: `body larger than ${maxBytes} bytes (--max-body)` });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    tooLarge();
    return undefined;
  }
  try {
    return await readAllBytes(req, maxBytes);
  } catch (err) {
    if (!(err instanceof TooLargeError)) throw err;
    tooLarge();
    return undefined;
  }
}
