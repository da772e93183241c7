import { permissionSetOperations } from '../../api/operations/permission-sets.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: permissionSetOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
