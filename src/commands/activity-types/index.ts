import { activityTypeOperations } from '../../api/operations/activity-types.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: activityTypeOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
