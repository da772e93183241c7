import { personOperations } from '../../api/operations/persons.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: personOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
