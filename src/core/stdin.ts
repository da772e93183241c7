import type { Readable } from 'node:stream';

/** A stream gave more bytes than its reader allows; reading stopped there. */
export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/**
 * Whole of a stream as bytes (decoded by the caller, which knows which flag to blame for bad UTF-8).
 * With `maxBytes`, stops at the first chunk past it and throws TooLargeError: a cap that holds while
 * the bytes arrive, not after they were all kept.
 */
export async function readAllBytes(stream: Readable, maxBytes = Infinity): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
    size += b.length;
    if (size > maxBytes) throw new TooLargeError(maxBytes);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** Whole of stdin as text (pasted redirect URLs, secrets). */
export async function readAll(stream: Readable, maxBytes = Infinity): Promise<string> {
  return (await readAllBytes(stream, maxBytes)).toString('utf8');
}
