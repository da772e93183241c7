import type { Readable } from 'node:stream';

/** Whole of stdin as text (for `--data -`, `--content-file -`, pasted redirect URLs). */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
