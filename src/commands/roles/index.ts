import { roleOperations } from '../../api/operations/roles.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: roleOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
