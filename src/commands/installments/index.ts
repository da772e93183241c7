import { dealInstallmentOperations } from '../../api/operations/deal-installments.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: dealInstallmentOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
