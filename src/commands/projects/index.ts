import { projectOperations } from '../../api/operations/projects.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: projectOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
