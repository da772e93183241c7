import { noteOperations } from '../../api/operations/notes.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: noteOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
