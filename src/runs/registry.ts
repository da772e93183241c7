/**
 * The index of runs of one config dir: `<configDir>/runs/<run id>.json`, one small record per run
 * (kind, command line, account, where its journal is, times, status, summary), replaced atomically.
 * A file per run rather than one shared file: concurrent runs never write the same file, and a later
 * `crmctl runs list` reads the folder. The journal stays where the user expects it (`--state`,
 * `<file>.import-state.json`); the record points at it, and follows it when `--new-run` sets an old
 * journal aside (into `<configDir>/runs/journals/`).
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeJsonAtomic } from '../fs/atomic-write.js';
import { sameAccount, type AccountIdentity } from './account.js';
import { readRun, type RunJournal, type RunKind } from './entries.js';
import { runsDir } from './paths.js';

export { runsDir } from './paths.js';
export type { RunKind } from './entries.js';
export type RunStatus = 'running' | 'stopped' | 'done';

export interface RunRecord {
  id: string;
  kind: RunKind;
  command: string[];
  account: AccountIdentity;
  /** Absolute path of the journal. */
  journal: string;
  /** What the run was started on, in words (`leads from leads.csv`). */
  input: string;
  started_at: string;
  /** `running` also for a run killed without a chance to say so. */
  status: RunStatus;
  finished_at?: string;
  /** `1206 created, 0 failed`. */
  summary?: string;
  /** Who or what ran it (src/runs/who.ts); absent in records of an earlier crmctl. */
  who?: 'mcp' | 'ci' | 'terminal' | 'script';
  /** The MCP client's name (its `initialize` clientInfo) and the tool it called, for a run of kind mcp. */
  client?: string;
  tool?: string;
  /** Records it wrote, kept when it stops or ends so `runs list` reads no journal (absent: count the journal). */
  written?: number;
  /** Cost units its requests spent (reads before writes included), as the one HTTP client counted them. */
  cost?: number;
}

const recordPath = (env: NodeJS.ProcessEnv, id: string) => join(runsDir(env), `${id}.json`);

export function saveRecord(env: NodeJS.ProcessEnv, rec: RunRecord): void {
  writeJsonAtomic(recordPath(env, rec.id), { ...rec, journal: resolve(rec.journal) });
}

export function readRecord(env: NodeJS.ProcessEnv, id: string): RunRecord | undefined {
  return readJson<RunRecord>(recordPath(env, id));
}

/**
 * The runs this config dir knows, newest first; with `account`, only that account's (`runs list`:
 * `listRecords(ctx.env, await accountOf(ctx))`).
 */
export function listRecords(env: NodeJS.ProcessEnv, account?: AccountIdentity): RunRecord[] {
  const out = recordFiles(env).map((f) => f.record).filter((r) => !account || sameAccount(r.account, account));
  return out.sort((a, b) => b.started_at.localeCompare(a.started_at));
}

/** A run by its id: its record and its journal as read (`runs show ID`, `undo ID`: from the journal alone). */
export function loadRun(env: NodeJS.ProcessEnv, id: string): { record: RunRecord; journal: RunJournal } | undefined {
  const record = readRecord(env, id);
  return record && { record, journal: readRun(record.journal) };
}

/**
 * Moves a journal out of the user's way (`--new-run`), keeping it: the old run's record now points
 * into `<configDir>/runs/journals/`. A rename where it can, else a copy (another file system).
 */
export function setAside(env: NodeJS.ProcessEnv, journal: string, runId: string): string {
  const dir = join(runsDir(env), 'journals');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const to = join(dir, `${runId}.ndjson`);
  try {
    renameSync(journal, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(journal, to);
    unlinkSync(journal);
  }
  const rec = readRecord(env, runId);
  if (rec) saveRecord(env, { ...rec, journal: to });
  return to;
}

export function removeRecord(env: NodeJS.ProcessEnv, id: string): void {
  try {
    unlinkSync(recordPath(env, id));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Every record file of the index (a file being replaced is skipped: the next look sees it whole). */
export function recordFiles(env: NodeJS.ProcessEnv): Array<{ file: string; record: RunRecord }> {
  const dir = runsDir(env);
  if (!existsSync(dir)) return [];
  const out: Array<{ file: string; record: RunRecord }> = [];
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.json')) continue;
    try {
      const r = readJson<RunRecord>(join(dir, f));
      if (r?.id) out.push({ file: join(dir, f), record: r });
    } catch {
      // being replaced
    }
  }
  return out;
}

/** A record, or undefined when there is none (or it is being replaced: the next read sees it whole). */
function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
