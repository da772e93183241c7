// Flags that send an explicit null, which a typed flag cannot: the service reads a null
// pipeline or activity-type list as "all of them" and a null end as an open-ended goal.
import type { OptionSpec } from '../../core/command.js';
import type { Context } from '../../core/context.js';
import { ValidationError } from '../../core/errors.js';
import { readAll } from '../../core/stdin.js';
import { readMaybeFile } from '../coerce.js';

export interface NullFlag {
  /** camelCase option name. */
  opt: string;
  flag: string;
  path: string[];
  /** The typed flag it contradicts. */
  conflicts: { opt: string; flag: string };
  description: string;
}

export const ALL_PIPELINES: NullFlag = {
  opt: 'allPipelines', flag: '--all-pipelines', path: ['type', 'params', 'pipeline_id'],
  conflicts: { opt: 'pipelineIds', flag: '--pipeline-ids' }, description: 'track deals of every pipeline (sends pipeline_id null)',
};
export const ALL_ACTIVITY_TYPES: NullFlag = {
  opt: 'allActivityTypes', flag: '--all-activity-types', path: ['type', 'params', 'activity_type_id'],
  conflicts: { opt: 'activityTypeIds', flag: '--activity-type-ids' }, description: 'track every activity type (sends activity_type_id null)',
};
export const OPEN_ENDED: NullFlag = {
  opt: 'openEnded', flag: '--open-ended', path: ['duration', 'end'],
  conflicts: { opt: 'end', flag: '--end' }, description: 'no end date (sends duration.end null)',
};

export const optionsFor = (flags: NullFlag[]): OptionSpec[] => flags.map((f) => ({ flags: f.flag, description: f.description }));

/** Which null flags were given; a null flag together with its typed flag is a contradiction (exit 2). */
export function chosen(flags: NullFlag[], opts: Record<string, unknown>): NullFlag[] {
  const on = flags.filter((f) => opts[f.opt]);
  for (const f of on) {
    if (opts[f.conflicts.opt] !== undefined) throw new ValidationError([{ field: f.flag, rule: `cannot be combined with ${f.conflicts.flag}` }]);
  }
  return on;
}

/** Options with the nulls folded into --data (typed flags still override it), so the builder validates them. */
export async function withNulls(ctx: Context, flags: NullFlag[], opts: Record<string, unknown>): Promise<Record<string, unknown>> {
  const on = chosen(flags, opts);
  const out = { ...opts };
  for (const f of flags) delete out[f.opt];
  if (!on.length) return out;
  let body: Record<string, unknown> = {};
  if (opts.data !== undefined) {
    const text = opts.data === '-' ? await readAll(ctx.io.stdin) : readMaybeFile(String(opts.data), '--data');
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ValidationError([{ field: '--data', rule: 'must be JSON' }]);
    }
  }
  for (const f of on) {
    let cur = body;
    for (const p of f.path.slice(0, -1)) {
      if (cur[p] === null || typeof cur[p] !== 'object') cur[p] = {};
      cur = cur[p] as Record<string, unknown>;
    }
    cur[f.path[f.path.length - 1]!] = null;
  }
  out.data = JSON.stringify(body);
  return out;
}
