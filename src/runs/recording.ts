/**
 * The settings of the record of changes (docs/undo.md, "What is recorded"): whether runs keep a
 * journal and a record at all, and how long finished runs are kept. Environment variables, so a
 * script, CI or a benchmark sets them per command without touching a profile.
 */

/** Off only when asked (`CRMCTL_RECORD=off`): a run then keeps no journal and no record (no --resume, no undo). */
export function recordingOn(env: NodeJS.ProcessEnv): boolean {
  const v = env.CRMCTL_RECORD?.trim().toLowerCase();
  return !(v === 'off' || v === '0' || v === 'false' || v === 'no');
}

export interface Retention {
  /** Finished runs older than this are pruned (days). */
  maxAgeDays: number;
  /** When what runs keep under the config dir weighs more, the oldest finished runs go first (bytes). */
  maxBytes: number;
}

/** CRMCTL_RUNS_KEEP_DAYS (default 90) and CRMCTL_RUNS_MAX_MB (default 200); a value that is not a positive number keeps the default. */
export function retentionOf(env: NodeJS.ProcessEnv): Retention {
  const num = (v: string | undefined, dflt: number) => {
    const n = Number(v);
    return v !== undefined && v.trim() !== '' && Number.isFinite(n) && n > 0 ? n : dflt;
  };
  return { maxAgeDays: num(env.CRMCTL_RUNS_KEEP_DAYS, 90), maxBytes: num(env.CRMCTL_RUNS_MAX_MB, 200) * 1024 * 1024 };
}
