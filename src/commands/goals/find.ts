import { goalOperations } from '../../api/operations/goals.js';
import type { CommandSpec } from '../../core/command.js';
import { ValidationError } from '../../core/errors.js';
import { commandFromOperation, runOperation, type BuiltInput } from '../from-operation.js';
import { ALL_ACTIVITY_TYPES, ALL_PIPELINES, chosen, optionsFor } from './null-flags.js';

const findOp = goalOperations.find((o) => o.id === 'goals.find')!;
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

const generated = commandFromOperation(findOp);
export const findCommand: CommandSpec = {
  ...generated,
  generated: false,
  options: [
    ...(generated.options ?? []),
    ...optionsFor([ALL_PIPELINES, ALL_ACTIVITY_TYPES]),
    { flags: '--where <field=value>', description: `match another goal field (${WHERE_FIELDS.join(', ')}); repeatable`, repeatable: true },
  ],
  async run(ctx, { args, opts }) {
    const nulls = chosen([ALL_PIPELINES, ALL_ACTIVITY_TYPES], opts);
    const where = parseWhere(opts.where);
    if (nulls.includes(ALL_ACTIVITY_TYPES) && !ACTIVITY_GOALS.includes(String(opts.typeName))) {
      throw new ValidationError([{ field: '--all-activity-types', rule: 'is only for --type-name activities_completed or activities_added' }]);
    }
    const rest = { ...opts };
    delete rest.where;
    delete rest.allPipelines;
    delete rest.allActivityTypes;
    const transform = (input: BuiltInput): BuiltInput => {
      const query = { ...input.query };
      for (const f of nulls) query[f.path.join('.')] = null;
      for (const [k, v] of where) query[k] = v;
      return { ...input, query };
    };
    await runOperation(ctx, findOp, args, rest, { transform });
  },
};
