import { goalOperations } from '../../api/operations/goals.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { commandFromOperation, runOperation } from '../from-operation.js';
import { findCommand } from './find.js';
import { ALL_ACTIVITY_TYPES, ALL_PIPELINES, OPEN_ENDED, optionsFor, withNulls } from './null-flags.js';

const op = (id: string) => goalOperations.find((o) => o.id === id)!;
const NULLS = [ALL_PIPELINES, ALL_ACTIVITY_TYPES, OPEN_ENDED];

/** create and update: the generated command plus the flags that send null. */
function withNullFlags(id: string): CommandSpec {
  const o = op(id);
  const generated = commandFromOperation(o);
  return {
    ...generated,
    generated: false,
    options: [...(generated.options ?? []), ...optionsFor(NULLS)],
    run: async (ctx, { args, opts }) => runOperation(ctx, o, args, await withNulls(ctx, NULLS, opts)),
  };
}

/** find, create and update are hand-tuned (null flags, --where); delete and results are generated. */
export const area: AreaModule = {
  commands: [
    findCommand,
    withNullFlags('goals.create'),
    withNullFlags('goals.update'),
    ...goalOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation),
  ],
};
