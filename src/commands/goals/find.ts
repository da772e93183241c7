import { ValidationError } from '../../core/errors.js';
import type { RawInput } from '../../input/operation-input.js';
import type { CommandExtension } from '../operation-command.js';
import { ALL_ACTIVITY_TYPES, ALL_PIPELINES, chosen, optionsFor } from './null-flags.js';

/** Lowest-level goal fields the named flags do not cover; the service matches them as {dotted.field}={value}. */
export const WHERE_FIELDS = ['id', 'owner_id', 'interval', 'duration.start', 'duration.end'];
const ACTIVITY_GOALS = ['activities_completed', 'activities_added'];

function parseWhere(raw: unknown): Array<[string, string]> {
  const items = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
  return items.map((item) => {
    const m = /^([a-z_.]+)=(.+)$/.exec(item);
    if (!m || !WHERE_FIELDS.includes(m[1]!)) {
      throw new ValidationError([{ field: '--where', rule: `must be field=value with field one of ${WHERE_FIELDS.join(', ')} (got ${JSON.stringify(item)})` }]);
    }
    return [m[1]!, m[2]!];
  });
}

/** find: null filters (goals over all pipelines / activity types) and --where for any other goal field. */
export const find: CommandExtension = {
  options: [
    ...optionsFor([ALL_PIPELINES, ALL_ACTIVITY_TYPES]),
    { flags: '--where <field=value>', description: `match another goal field (${WHERE_FIELDS.join(', ')}); repeatable`, repeatable: true },
  ],
  adjust(_ctx, raw: RawInput, opts) {
    const nulls = chosen([ALL_PIPELINES, ALL_ACTIVITY_TYPES], opts);
    if (nulls.includes(ALL_ACTIVITY_TYPES) && !ACTIVITY_GOALS.includes(String(raw.query['type.name']))) {
      throw new ValidationError([{ field: '--all-activity-types', rule: 'is only for --type-name activities_completed or activities_added' }]);
    }
    const query = { ...raw.query };
    for (const f of nulls) query[f.path.join('.')] = null;
    for (const [k, v] of parseWhere(opts.where)) query[k] = v;
    return { ...raw, query };
  },
};
