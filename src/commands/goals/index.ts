import { goalOperations } from '../../api/operations/goals.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: goalOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
