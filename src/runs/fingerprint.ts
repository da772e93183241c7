/**
 * What a run was started on, reduced to one string: a journal is only continued by a command that
 * gives the same input (the same file content, the same selection and changes, the same list query).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** JSON with keys in order: the same values given in another order are the same input. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export function hashOf(text: string): string {
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The content hash of a file, streamed (an import file may be large). */
export async function hashFile(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return `sha256:${h.digest('hex')}`;
}
