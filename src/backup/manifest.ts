/**
 * The manifest of a finished backup: every records file counted and hashed from what is on disk (read
 * once, streamed), so the figures are true of the files whatever runs wrote them.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BACKUP_KINDS } from './kinds.js';
import { paths, type ManifestKind } from './format.js';

/** Lines and sha256 of one ndjson file. */
export async function countAndHash(file: string): Promise<{ count: number; sha256: string }> {
  const h = createHash('sha256');
  let count = 0;
  for await (const chunk of createReadStream(file)) {
    const b = chunk as Buffer;
    h.update(b);
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) count++;
  }
  return { count, sha256: `sha256:${h.digest('hex')}` };
}

/** Lines and sha256 of a file as it is written (a backup's records file written whole by one run). */
export class RunningHash {
  private readonly h = createHash('sha256');
  private count = 0;

  /** `text` as written: a page's bytes (encoded once for the hash and the file), or a string. */
  add(text: string | Uint8Array, lines: number): void {
    if (typeof text === 'string') this.h.update(text, 'utf8');
    else this.h.update(text);
    this.count += lines;
  }

  result(): { count: number; sha256: string } {
    return { count: this.count, sha256: `sha256:${this.h.copy().digest('hex')}` };
  }
}

/** Every records file of the directory, in the kinds' order; `known`: figures of files hashed as they were written. */
export async function manifestKinds(dir: string, known: Map<string, { count: number; sha256: string }> = new Map()): Promise<Record<string, ManifestKind>> {
  const out: Record<string, ManifestKind> = {};
  for (const k of BACKUP_KINDS) {
    const file = paths.records(dir, k.name);
    if (!existsSync(file)) continue;
    out[k.name] = { file: relative(dir, file), ...(known.get(k.name) ?? (await countAndHash(file))), ...(k.reference ? { reference: true } : {}) };
  }
  return out;
}

/** The files' bytes on disk: how many and how large. */
export function filesOnDisk(dir: string): { count: number; bytes: number } {
  const d = paths.files(dir);
  if (!existsSync(d)) return { count: 0, bytes: 0 };
  let count = 0;
  let bytes = 0;
  for (const f of readdirSync(d)) {
    if (f.endsWith('.partial')) continue;
    count++;
    bytes += statSync(`${d}/${f}`).size;
  }
  return { count, bytes };
}
