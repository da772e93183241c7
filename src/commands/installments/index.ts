import { dealInstallmentOperations } from '../../api/operations/deal-installments.js';
import type { AreaModule, CommandSpec } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

// Path params are `{id}` (the deal) and `{installment_id}`; the help names them for what they are.
const ARG_HELP: Record<string, string> = { id: 'deal id', installment_id: 'installment id (see crmctl installments list)' };

const describeArgs = (spec: CommandSpec): CommandSpec => ({
  ...spec,
  args: spec.args?.map((a) => ({ ...a, description: ARG_HELP[a.name] ?? a.description })),
});

// The product rule (one-time products only) cannot be read through the interface, so the service's 400 decides it.
export const area: AreaModule = { commands: dealInstallmentOperations.map(commandFromOperation).map(describeArgs) };
