// Flags that send an explicit null, which a typed flag cannot: the service reads a null
// pipeline or activity-type list as "all of them" and a null end as an open-ended goal.
import type { OptionSpec } from '../../core/command.js';
import { ValidationError } from '../../core/errors.js';
import { setPath } from '../../input/coerce.js';
import type { RawInput } from '../../input/operation-input.js';

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

/** Sets the chosen nulls in the body (over --data), so the schemas check them like any other input. */
export function bodyNulls(flags: NullFlag[]) {
  return (_ctx: unknown, raw: RawInput, opts: Record<string, unknown>): RawInput => {
    const on = chosen(flags, opts);
    if (!on.length) return raw;
    const body = raw.body && typeof raw.body === 'object' ? structuredClone(raw.body as Record<string, unknown>) : {};
    for (const f of on) setPath(body, f.path, null);
    return { ...raw, body };
  };
}
