import type { Readable } from 'node:stream';

/** Whole of stdin as bytes (decoded by the caller, which knows which flag to blame for bad UTF-8). */
export async function readAllBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

/** Whole of stdin as text (pasted redirect URLs, secrets). */
export async function readAll(stream: Readable): Promise<string> {
  return (await readAllBytes(stream)).toString('utf8');
}
