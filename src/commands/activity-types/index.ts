import { activityTypeOperations } from '../../api/operations/activity-types.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

/** Every activity-type verb is generated from its operation row (key_string is refused by the body schema). */
export const area: AreaModule = { commands: activityTypeOperations.map(commandFromOperation) };
