import { phaseOperations } from '../../api/operations/phases.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: phaseOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
