import { phaseOperations } from '../../api/operations/phases.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import type { RunHooks } from '../from-operation.js';
import { commandFromOperation, runOperation } from '../from-operation.js';
import { deletePreflight, phasePreflight } from './checks.js';

const op = (id: string) => phaseOperations.find((o) => o.id === id)!;
const generated = phaseOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation);

/** The generated command with a read-only check of the account before the write. */
function checked(id: string, preflight: NonNullable<RunHooks['preflight']>): CommandSpec {
  const operation = op(id);
  return { ...commandFromOperation(operation), generated: false, run: (ctx, i) => runOperation(ctx, operation, i.args, i.opts, { preflight }) };
}

export const area: AreaModule = {
  commands: [
    ...generated,
    checked('phases.create', phasePreflight),
    checked('phases.update', phasePreflight),
    checked('phases.delete', deletePreflight),
  ],
};
