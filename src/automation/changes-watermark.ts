/**
 * The feed's watermark: per profile and per set of kinds, a small file in the config directory
 * (<config dir>/changes/<profile>.<kinds>.json) holding the boundary of the last run that finished
 * writing. Replaced atomically, and only after the run's output was written and flushed.
 */
import { join } from 'node:path';
import { configDir } from '../config/store.js';
import { acquireLock } from '../fs/lock.js';
import { readJson, removeIfExists, writeJsonAtomic } from './durable.js';
import { CHANGE_TYPES, type Boundary, type ChangeType } from './changes-feed.js';

interface WatermarkFile extends Boundary {
  version: 1;
  profile: string;
  types: ChangeType[];
  updated_at: string;
}

/** A run that has held the lock this long has crashed without its process ending (a dead holder is seen at once). */
export const LOCK_STALE_MS = 6 * 3_600_000;

export class Watermark {
  readonly path: string;

  constructor(env: NodeJS.ProcessEnv, readonly profile: string, readonly types: readonly ChangeType[]) {
    const safe = profile.replace(/[^\w.-]/g, '_');
    this.path = join(configDir(env), 'changes', `${safe}.${types.join('+')}.json`);
  }

  /** The kinds in one order, whatever order `--types` named them in: one watermark per set. */
  static normalise(types: readonly ChangeType[]): ChangeType[] {
    return CHANGE_TYPES.filter((t) => types.includes(t));
  }

  load(): Boundary | undefined {
    const f = readJson<WatermarkFile>(this.path);
    return f ? { time: f.time, seen: f.seen ?? [] } : undefined;
  }

  save(b: Boundary): void {
    const file: WatermarkFile = { version: 1, profile: this.profile, types: [...this.types], time: b.time, seen: b.seen, updated_at: new Date().toISOString() };
    writeJsonAtomic(this.path, file);
  }

  /** Held while a run that may move the watermark reads and writes; a second run is refused at once. */
  lock(): Promise<() => void> {
    return acquireLock(`${this.path}.lock`, { wait: false, staleMs: LOCK_STALE_MS, what: `The changes watermark ${this.path}` });
  }

  reset(): void {
    removeIfExists(this.path);
  }
}
