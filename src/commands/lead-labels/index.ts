import { leadLabelOperations } from '../../api/operations/lead-labels.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

/** Every lead-label verb is generated from its operation row; nothing here needs hand-tuning. */
export const area: AreaModule = { commands: leadLabelOperations.map(commandFromOperation) };
