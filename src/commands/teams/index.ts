import { legacyTeamOperations } from '../../api/operations/legacy-teams.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: legacyTeamOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
