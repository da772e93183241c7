import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configDir } from '../config/store.js';
import { CliError } from '../core/errors.js';
import { writeJsonAtomic } from '../fs/atomic-write.js';
import { acquireLock } from '../fs/lock.js';
import { accountKey, type AccountIdentity } from '../runs/account.js';
import type { Finding } from './types.js';

/**
 * What `crmctl watch` saw last time, per account: <config dir>/watch/<account key>.json, keyed by the
 * one account identity every per-account state uses (src/runs/account.ts: API origin, company, user),
 * as the runs and the changes feed's watermark are. A profile logged in again to another company, or
 * two profiles of two companies, never read each other's findings (a finding of one account would
 * otherwise hide or fake one of another); two profile names of one login share them.
 */

/** Where an older crmctl kept the state: by profile, company and a hash of the API origin. Moved once. */
export interface LegacyWatchKey {
  profile: string;
  companyId: number | string;
  baseUrl: string;
}

interface WatchFile {
  version: 1;
  profile?: string;
  company_id: number | string | null;
  updated_at: string;
  as_of: string;
  /** Finding key → when it was first reported. */
  seen: Record<string, string>;
}

export interface WatchDiff {
  /** Findings not seen on the last run (every finding on the first run). */
  fresh: Finding[];
  /** Findings seen before and still there. */
  still: Finding[];
  /** Keys seen last time that are gone now (fixed, or their record deleted). */
  gone: string[];
  /** When the last run was; undefined on the first. */
  last: string | undefined;
}

/** A run that has held the lock this long has crashed without its process ending. */
const LOCK_STALE_MS = 3 * 3_600_000;

export class WatchStore {
  readonly path: string;

  constructor(env: NodeJS.ProcessEnv, readonly account: AccountIdentity, legacy?: LegacyWatchKey) {
    const dir = join(configDir(env), 'watch');
    this.path = join(dir, `${accountKey(account)}.json`);
    if (legacy) this.legacyPath = join(dir, legacyName(legacy));
  }

  private readonly legacyPath: string | undefined;

  /**
   * Held while a run compares and saves: a second run at once is refused (it would report the same
   * findings). Under it, a state an older crmctl kept under the profile's name is moved here, once.
   */
  async lock(): Promise<() => void> {
    const release = await acquireLock(`${this.path}.lock`, { wait: false, staleMs: LOCK_STALE_MS, what: `The watch state ${this.path}` });
    if (this.legacyPath && !existsSync(this.path) && existsSync(this.legacyPath)) {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      renameSync(this.legacyPath, this.path);
    }
    return release;
  }

  private load(): WatchFile | undefined {
    if (!existsSync(this.path)) return undefined;
    try {
      const f = JSON.parse(readFileSync(this.path, 'utf8')) as WatchFile;
      // Written for this account only; a file that says otherwise was copied or edited: not trusted.
      if (f.version !== 1 || String(f.company_id) !== String(this.account.company_id) || typeof f.seen !== 'object') return undefined;
      return f;
    } catch (err) {
      throw new CliError(`The watch state ${this.path} is not valid JSON (${(err as Error).message}).`, undefined, `Delete it (or run crmctl watch --reset): the next run reports every finding as new.`);
    }
  }

  diff(findings: readonly Finding[]): WatchDiff {
    const f = this.load();
    const seen = f?.seen ?? {};
    const now = new Set(findings.map((x) => x.key));
    return {
      fresh: findings.filter((x) => !(x.key in seen)),
      still: findings.filter((x) => x.key in seen),
      gone: Object.keys(seen).filter((k) => !now.has(k)),
      last: f?.updated_at,
    };
  }

  /** Keeps the findings of this run (first-seen times kept); a finding fixed and back later is new again. */
  save(findings: readonly Finding[], asOf: string): void {
    const before = this.load()?.seen ?? {};
    const stamp = new Date().toISOString();
    const seen: Record<string, string> = {};
    for (const x of findings) seen[x.key] = before[x.key] ?? stamp;
    const file: WatchFile = { version: 1, company_id: this.account.company_id, updated_at: stamp, as_of: asOf, seen };
    writeJsonAtomic(this.path, file);
  }

  /** Forgets what was seen: the next run reports every finding as new. */
  reset(): boolean {
    // The old file too: otherwise the next run would move it in and its findings would count as seen.
    const files = [this.path, this.legacyPath].filter((f): f is string => f !== undefined && existsSync(f));
    for (const f of files) rmSync(f, { force: true });
    return files.length > 0;
  }
}

/** The file name an older crmctl gave the state: `<profile>.<company id>.<hash of the API origin>.json`. */
function legacyName(k: LegacyWatchKey): string {
  const safe = (s: string) => s.replace(/[^\w.-]/g, '_');
  const tag = createHash('sha256').update(k.baseUrl).digest('hex').slice(0, 12);
  return `${safe(k.profile)}.${safe(String(k.companyId))}.${tag}.json`;
}
