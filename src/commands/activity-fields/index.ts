import { activityFieldOperations } from '../../api/operations/activity-fields.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

/** Activity field metadata is read-only: list and get, both generated. */
export const area: AreaModule = { commands: activityFieldOperations.map(commandFromOperation) };
