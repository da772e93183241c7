/**
 * The settings of the record of changes (docs/undo.md, "What is recorded"): whether runs keep a
 * journal and a record at all, and how long finished runs are kept. Environment variables, so a
 * script, CI or a benchmark sets them per command without touching a profile.
 */

import { UsageError } from '../core/errors.js';

const ON = ['on', '1', 'true', 'yes'];
const OFF = ['off', '0', 'false', 'no'];

/**
 * Off only when asked (`CRMCTL_RECORD=off`): a run then keeps no journal and no record (no --resume, no
 * undo). A value it does not know is refused (exit 2, before anything is sent): a mistyped "off" must
 * not leave the record on unnoticed, nor a mistyped "on" turn it off.
 */
export function recordingOn(env: NodeJS.ProcessEnv): boolean {
  const v = env.CRMCTL_RECORD?.trim().toLowerCase();
  // The limits are read here too, where a run or a write starts: a bad one is refused before anything is
  // sent, not an hour later when a pass prunes (and then only in a debug line).
  if (v === undefined || v === '' || ON.includes(v)) return retentionOf(env) !== undefined;
  if (OFF.includes(v)) return false;
  throw new UsageError(`CRMCTL_RECORD: must be on or off (got ${JSON.stringify(env.CRMCTL_RECORD)})`, 'Unset it to keep the record of changes, or set CRMCTL_RECORD=off.');
}

export interface Retention {
  /** Finished runs older than this are pruned (days). */
  maxAgeDays: number;
  /** When what runs keep under the config dir weighs more, the oldest finished runs go first (bytes). */
  maxBytes: number;
}

/**
 * CRMCTL_RUNS_KEEP_DAYS (default 90) and CRMCTL_RUNS_MAX_MB (default 200). A value that is not a positive
 * number is refused (exit 2, before the run sends anything), not taken as the default: a limit the user
 * meant to set would otherwise prune by another one.
 */
export function retentionOf(env: NodeJS.ProcessEnv): Retention {
  const num = (name: 'CRMCTL_RUNS_KEEP_DAYS' | 'CRMCTL_RUNS_MAX_MB', dflt: number) => {
    const v = env[name];
    if (v === undefined || v.trim() === '') return dflt;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${name}: must be a positive number (got ${JSON.stringify(v)})`, `Unset it for the default (${dflt}).`);
    return n;
  };
  return { maxAgeDays: num('CRMCTL_RUNS_KEEP_DAYS', 90), maxBytes: num('CRMCTL_RUNS_MAX_MB', 200) * 1024 * 1024 };
}
