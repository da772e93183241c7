import { subscriptionOperations } from '../../api/operations/subscriptions.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: subscriptionOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
