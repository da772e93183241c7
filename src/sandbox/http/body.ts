// Request body reading and parsing. v2 takes JSON only, v1 also form bodies
// (the vendor's documents); token requests are form-encoded.
import type { IncomingMessage } from 'node:http';
import { badRequest, ApiError } from './errors.js';

// Uploads (product images, person pictures) may be large; the vendor's limit for files is 50 MB.
const MAX_BODY = 50 * 1024 * 1024;

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
export function parseBody(buf: Buffer, contentType: string | undefined, accepts: 'json' | 'form' | 'json-or-form' | 'multipart'): unknown {
  if (buf.length === 0) return undefined;
  const ct = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (accepts === 'multipart') {
    if (ct !== 'multipart/form-data') throw new ApiError(415, 'Unsupported Media Type', 'Send the file as multipart/form-data.');
    return parseMultipart(buf, contentType!);
  }
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

/** One part of a multipart body: a file (filename set) or a plain value. */
export interface UploadedPart { filename: string | null; contentType: string | null; data: Buffer }

/** Parses multipart/form-data into {name: part}; text parts without a filename become strings. */
export function parseMultipart(buf: Buffer, contentType: string): Record<string, UploadedPart | string> {
  const m = /boundary="?([^";]+)"?/i.exec(contentType);
  if (!m) throw badRequest('Malformed multipart body', 'The Content-Type has no boundary.');
  const delimiter = Buffer.from(`--${m[1]}`);
  const out: Record<string, UploadedPart | string> = {};
  let pos = buf.indexOf(delimiter);
  if (pos < 0) throw badRequest('Malformed multipart body', 'The body does not contain the boundary.');
  for (;;) {
    pos += delimiter.length;
    if (buf.subarray(pos, pos + 2).toString() === '--') break;
    const headerEnd = buf.indexOf('\r\n\r\n', pos);
    const next = buf.indexOf(delimiter, pos);
    if (headerEnd < 0 || next < 0) throw badRequest('Malformed multipart body', 'A part is not terminated.');
    const headers = buf.subarray(pos, headerEnd).toString('utf8');
    const data = buf.subarray(headerEnd + 4, next - 2); // strip the CRLF before the delimiter
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1] ?? null;
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? null;
    if (name) out[name] = filename === null && type === null ? data.toString('utf8') : { filename, contentType: type, data: Buffer.from(data) };
    pos = next;
  }
  return out;
}
