import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/store.js';
import { CliError } from '../core/errors.js';
import { writeJsonAtomic } from '../fs/atomic-write.js';
import { acquireLock } from '../fs/lock.js';
import type { Finding } from './types.js';

/**
 * What `crmctl watch` saw last time, per profile AND per account: <config dir>/watch/<profile>.<company
 * id>.<address hash>.json. The account is the company the login belongs to (users/me) at its API
 * address, so a profile logged in again to another company, or two profiles of two companies, never
 * read each other's findings (a finding of one account would otherwise hide or fake one of another).
 */

export interface AccountId {
  profile: string;
  companyId: number | string;
  /** The API origin; its hash is in the file name (a host name says which company it is). */
  baseUrl: string;
}

interface WatchFile {
  version: 1;
  profile: string;
  company_id: number | string;
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

  constructor(env: NodeJS.ProcessEnv, readonly account: AccountId) {
    const safe = (s: string) => s.replace(/[^\w.-]/g, '_');
    const tag = createHash('sha256').update(account.baseUrl).digest('hex').slice(0, 12);
    this.path = join(configDir(env), 'watch', `${safe(account.profile)}.${safe(String(account.companyId))}.${tag}.json`);
  }

  /** Held while a run compares and saves: a second run at once is refused (it would report the same findings). */
  lock(): Promise<() => void> {
    return acquireLock(`${this.path}.lock`, { wait: false, staleMs: LOCK_STALE_MS, what: `The watch state ${this.path}` });
  }

  private load(): WatchFile | undefined {
    if (!existsSync(this.path)) return undefined;
    try {
      const f = JSON.parse(readFileSync(this.path, 'utf8')) as WatchFile;
      // Written for this account only; a file that says otherwise was copied or edited: not trusted.
      if (f.version !== 1 || String(f.company_id) !== String(this.account.companyId) || typeof f.seen !== 'object') return undefined;
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
    const file: WatchFile = { version: 1, profile: this.account.profile, company_id: this.account.companyId, updated_at: stamp, as_of: asOf, seen };
    writeJsonAtomic(this.path, file);
  }

  /** Forgets what was seen: the next run reports every finding as new. */
  reset(): boolean {
    if (!existsSync(this.path)) return false;
    rmSync(this.path, { force: true });
    return true;
  }
}
