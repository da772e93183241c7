/**
 * The feed's watermark: per account and per set of kinds, a small file in the config directory
 * (<config dir>/changes/<account>.<kinds>.json, the account of src/runs/account.ts as `accountKey` names it) holding the
 * boundary of the last run that finished writing. Replaced atomically, and only after the run's output
 * was written and flushed. Keyed by account, not by profile: the same profile name (or env credentials,
 * which run under the default profile's name) can reach another account.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/store.js';
import { acquireLock } from '../fs/lock.js';
import { accountKey, type AccountIdentity } from '../runs/account.js';
import { readJson, removeIfExists, writeJsonAtomic } from './durable.js';
import { CHANGE_TYPES, type Boundary, type ChangeType } from './changes-feed.js';

interface WatermarkFile extends Boundary {
  version: 1;
  account: { origin: string; company_id: number | null; user_id: number | null };
  profile: string;
  types: ChangeType[];
  /** When the watermark was written, on the service's clock. */
  updated_at: string;
}

/** A run that has held the lock this long has crashed without its process ending (a dead holder is seen at once). */
export const LOCK_STALE_MS = 6 * 3_600_000;

export class Watermark {
  readonly path: string;
  /** The file of an older crmctl, keyed by profile name: adopted once when the profile's own login runs. */
  private readonly legacyPath: string | undefined;

  /**
   * `legacyProfile`: the profile whose stored login this run uses (not env credentials), whose watermark
   * of an older crmctl (<profile>.<kinds>.json) this account takes over.
   */
  constructor(env: NodeJS.ProcessEnv, readonly account: AccountIdentity, readonly profile: string, readonly types: readonly ChangeType[], legacyProfile?: string) {
    const dir = join(configDir(env), 'changes');
    this.path = join(dir, `${accountKey(account)}.${types.join('+')}.json`);
    this.legacyPath = legacyProfile === undefined ? undefined : join(dir, `${legacyProfile.replace(/[^\w.-]/g, '_')}.${types.join('+')}.json`);
  }

  /** The kinds in one order, whatever order `--types` named them in: one watermark per set. */
  static normalise(types: readonly ChangeType[]): ChangeType[] {
    return CHANGE_TYPES.filter((t) => types.includes(t));
  }

  load(): Boundary | undefined {
    const f = readJson<WatermarkFile>(this.path) ?? (this.legacyPath ? readJson<Omit<WatermarkFile, 'account'>>(this.legacyPath) : undefined);
    return f ? { time: f.time, seen: f.seen ?? [] } : undefined;
  }

  /** `serviceNow`: epoch ms on the service's clock, for updated_at (the watermark itself is a record time). */
  save(b: Boundary, serviceNow: number): void {
    const a = this.account;
    const file: WatermarkFile = {
      version: 1,
      account: { origin: a.origin, company_id: a.company_id, user_id: a.user_id },
      profile: this.profile,
      types: [...this.types],
      time: b.time,
      seen: b.seen,
      updated_at: new Date(serviceNow).toISOString(),
    };
    writeJsonAtomic(this.path, file);
    if (this.legacyPath && existsSync(this.legacyPath)) removeIfExists(this.legacyPath);
  }

  /** Held while a run that may move the watermark reads and writes; a second run is refused at once. */
  lock(): Promise<() => void> {
    return acquireLock(`${this.path}.lock`, { wait: false, staleMs: LOCK_STALE_MS, what: `The changes watermark ${this.path}` });
  }

  reset(): void {
    removeIfExists(this.path);
    if (this.legacyPath) removeIfExists(this.legacyPath);
  }
}
