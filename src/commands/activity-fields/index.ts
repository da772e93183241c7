import { activityFieldOperations } from '../../api/operations/activity-fields.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: activityFieldOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
