/**
 * The backup directory, the contract backup writes and restore, diff and `sandbox start --from` read
 * (docs/migrations.md ("What backup writes")): where each part lives, the manifest's shape, and the one check of its version.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

export const FORMAT = 'crmctl-backup/1';
const MAJOR = 1;

export const MANIFEST = 'manifest.json';

/** Where each part of a backup lives, relative to its directory. */
export const paths = {
  manifest: (dir: string) => join(dir, MANIFEST),
  config: (dir: string) => join(dir, 'config'),
  fields: (dir: string, itemType: string) => join(dir, 'fields', `${itemType}.json`),
  records: (dir: string, kind: string) => join(dir, 'records', `${kind}.ndjson`),
  recordsDir: (dir: string) => join(dir, 'records'),
  files: (dir: string) => join(dir, 'files'),
  file: (dir: string, id: string | number) => join(dir, 'files', String(id)),
  run: (dir: string) => join(dir, '.run'),
  journal: (dir: string) => join(dir, '.run', 'journal.ndjson'),
  restore: (dir: string, accountKey: string) => join(dir, 'restore', accountKey),
  idmap: (dir: string, accountKey: string) => join(dir, 'restore', accountKey, 'idmap'),
} as const;

export interface ManifestKind {
  /** Relative to the backup directory: `records/deals.ndjson`. */
  file: string;
  count: number;
  /** `sha256:<hex>` of the file's bytes. */
  sha256: string;
  /** Ids of configuration and users, for reading links by name: never restored as records. */
  reference?: boolean;
}

export interface Manifest {
  format: string;
  crmctl_version: string;
  account: { api_origin: string; company_id: number | null; user_id: number | null; company_name: string | null };
  /** Service time (its Date header), not the local clock. */
  started_at: string;
  finished_at: string;
  kinds: Record<string, ManifestKind>;
  files: { count: number; bytes: number; skipped: number };
  /** What the backup left out on purpose (--skip, --no-file-bytes) and the reads it chose not to make. */
  options: { skip: string[]; file_bytes: boolean; thorough: boolean };
  cost: { spent: number };
}

/** Is this directory a backup (it has a manifest)? Pull directories and fixtures have none. */
export function isBackupDir(dir: string): boolean {
  try {
    return statSync(dir).isDirectory() && existsSync(paths.manifest(dir));
  } catch {
    return false;
  }
}

/**
 * The manifest of a finished backup. No manifest is an unfinished backup (exit 2 naming --resume);
 * an unknown major version is refused (exit 2), so a reader never guesses at a format it does not know.
 */
export function readManifest(dir: string, flagName = 'DIR'): Manifest {
  const file = paths.manifest(dir);
  if (!existsSync(file)) {
    const unfinished = existsSync(paths.journal(dir));
    throw new UsageError(
      `${flagName} ${dir}: ${unfinished ? 'is an unfinished backup (it has no manifest.json yet)' : 'is not a backup (no manifest.json)'}`,
      unfinished ? `Finish it first: crmctl backup --out ${dir} --resume` : `Write one with: crmctl backup --out ${dir}`,
    );
  }
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (err) {
    throw new UsageError(`${file}: is not valid JSON (${(err as Error).message})`);
  }
  const match = /^crmctl-backup\/(\d+)$/.exec(String(m?.format ?? ''));
  if (!match) throw new UsageError(`${file}: format ${JSON.stringify(m?.format)} is not a crmctl backup (expected ${FORMAT})`);
  if (Number(match[1]) !== MAJOR) throw new UsageError(`${file}: format ${m.format} is not one this crmctl reads (it reads ${FORMAT})`, 'Use the crmctl version that wrote it, or a newer one.');
  return m;
}
