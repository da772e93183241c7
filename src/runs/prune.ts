/**
 * Rotation of the record of changes: finished runs older than CRMCTL_RUNS_KEEP_DAYS go, then, while
 * what runs keep under `<configDir>/runs/` weighs more than CRMCTL_RUNS_MAX_MB, the oldest finished
 * runs (src/runs/recording.ts). A run that is running, stopped or was killed (its record never said
 * done) is never pruned: it may be resumed or undone. A journal outside the config dir (an import's
 * `--state`, the user's file) is left where it is; only its record goes.
 */
import { existsSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative, isAbsolute } from 'node:path';
import { removeIfExists } from '../fs/remove.js';
import { retentionOf } from './recording.js';
import { recordFiles, runsDir } from './registry.js';

/** A pass reads every record: done at most once an hour per config dir (the marker's time says when). */
const EVERY_MS = 60 * 60 * 1000;

/** Prunes when the last pass is older than an hour; returns the ids pruned. */
export function pruneRunsNow(env: NodeJS.ProcessEnv, now = Date.now()): string[] {
  const marker = join(runsDir(env), '.pruned');
  try {
    if (existsSync(marker) && now - statSync(marker).mtimeMs < EVERY_MS) return [];
    if (!existsSync(runsDir(env))) return [];
    if (existsSync(marker)) utimesSync(marker, now / 1000, now / 1000);
    else writeFileSync(marker, '', { mode: 0o600 });
  } catch {
    return [];
  }
  return pruneRuns(env, now);
}

/** One pass, whatever the marker says (tests, and `pruneRunsNow`). */
export function pruneRuns(env: NodeJS.ProcessEnv, now = Date.now()): string[] {
  const { maxAgeDays, maxBytes } = retentionOf(env);
  const dir = runsDir(env);
  const inside = (p: string) => {
    const rel = relative(dir, p);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  const size = (p: string) => {
    try {
      return statSync(p).size;
    } catch {
      return 0;
    }
  };
  const runs = recordFiles(env).map(({ file, record }) => {
    const journal = inside(record.journal) ? record.journal : undefined;
    return { file, record, journal, bytes: size(file) + (journal ? size(journal) : 0) };
  });
  let total = runs.reduce((n, r) => n + r.bytes, 0);
  const pruned: string[] = [];
  const drop = (r: (typeof runs)[number]) => {
    removeIfExists(r.file);
    if (r.journal) removeIfExists(r.journal);
    total -= r.bytes;
    pruned.push(r.record.id);
  };
  // Oldest first; only finished runs.
  const finished = runs.filter((r) => r.record.status === 'done').sort((a, b) => a.record.started_at.localeCompare(b.record.started_at));
  const cutoff = now - maxAgeDays * 86_400_000;
  for (const r of finished) {
    const at = Date.parse(r.record.finished_at ?? r.record.started_at);
    if (Number.isFinite(at) && at < cutoff) drop(r);
    else if (total > maxBytes) drop(r);
  }
  return pruned;
}
