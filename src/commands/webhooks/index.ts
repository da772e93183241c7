import { webhookOperations } from '../../api/operations/webhooks.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: webhookOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
