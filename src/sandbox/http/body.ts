// Request body reading and parsing. v2 takes JSON only, v1 also form bodies
// (the vendor's documents); token requests are form-encoded.
import type { IncomingMessage } from 'node:http';
import { badRequest, ApiError } from './errors.js';

const MAX_BODY = 5 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new ApiError(413, 'Request entity too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

export function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const p = new URLSearchParams(text);
  for (const k of new Set(p.keys())) {
    const all = p.getAll(k);
    out[k] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

/** Parse according to Content-Type and what the route accepts. Empty body -> undefined. */
export function parseBody(buf: Buffer, contentType: string | undefined, accepts: 'json' | 'form' | 'json-or-form'): unknown {
  if (buf.length === 0) return undefined;
  const ct = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const text = buf.toString('utf8');
  const isForm = ct === 'application/x-www-form-urlencoded';
  if (isForm) {
    if (accepts === 'json') throw new ApiError(415, 'Unsupported Media Type', 'Send the body as application/json.');
    return parseForm(text);
  }
  if (accepts === 'form') throw new ApiError(415, 'Unsupported Media Type', 'Send the body as application/x-www-form-urlencoded.');
  // JSON is also assumed when the client forgot the header, as lenient servers do.
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('Invalid JSON in request body', 'The request body must be valid JSON.');
  }
}
