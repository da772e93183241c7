import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reader } from '../api/entry-types.js';
import { configDir } from '../config/store.js';
import type { FieldInfo } from './types.js';

// Field metadata kept between commands, so that a command showing or taking names pays at most one
// metadata read (and none while the cache is fresh). One file per profile and API address under the
// config directory: <config dir>/cache/fields-<profile>-<address hash>.json, { <schema>: { at, fields } }.

/** How long field metadata is trusted: 5 minutes (CRMCTL_FIELDS_TTL_SEC overrides; 0 turns the cache off). */
export const DEFAULT_TTL_SEC = 300;

export interface CacheLocation {
  file: string;
  ttlMs: number;
}

type CacheFile = Record<string, { at: number; fields: FieldInfo[] }>;

/** Where a reader's field metadata is cached: only a reader with a profile (a CLI Context) has a place on disk. */
export async function cacheLocationOf(reader: Reader): Promise<CacheLocation | undefined> {
  if (!reader.env || !reader.profileName) return undefined;
  const raw = reader.env.CRMCTL_FIELDS_TTL_SEC;
  const sec = raw !== undefined && raw !== '' && Number.isFinite(Number(raw)) ? Math.max(0, Number(raw)) : DEFAULT_TTL_SEC;
  const profile = await reader.profileName();
  let address = '';
  try {
    address = (await (await reader.credentials?.())?.get())?.baseUrl ?? '';
  } catch {
    // No credentials yet: the read that follows says why; the cache is keyed by the profile alone.
  }
  const tag = createHash('sha256').update(address).digest('hex').slice(0, 12);
  return { file: join(configDir(reader.env), 'cache', `fields-${profile.replace(/[^\w.-]/g, '_')}-${tag}.json`), ttlMs: sec * 1000 };
}

function readFile(file: string): CacheFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as CacheFile) : {};
  } catch {
    return {};
  }
}

/** The cached fields of a schema when younger than the TTL. */
export function loadCached(where: CacheLocation, schema: string, now: number): FieldInfo[] | undefined {
  const hit = readFile(where.file)[schema];
  if (!hit || !Array.isArray(hit.fields) || typeof hit.at !== 'number') return undefined;
  return now - hit.at < where.ttlMs && hit.at <= now ? hit.fields : undefined;
}

/**
 * Keeps (or, with `fields` undefined, forgets) a schema's fields; `schema` undefined forgets them all.
 * A cache that cannot be written is skipped: false says so.
 */
export function storeCached(where: CacheLocation, schema: string | undefined, fields: FieldInfo[] | undefined, now: number): boolean {
  const data = schema ? readFile(where.file) : {};
  if (schema && fields) data[schema] = { at: now, fields };
  else if (schema) delete data[schema];
  try {
    mkdirSync(join(where.file, '..'), { recursive: true, mode: 0o700 });
    const tmp = `${where.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    renameSync(tmp, where.file);
    return true;
  } catch {
    // A read-only config directory only costs the next command one more read.
    return false;
  }
}
