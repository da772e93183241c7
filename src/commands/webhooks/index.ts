import { webhookOperations } from '../../api/operations/webhooks.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';
import { createCommand, listCommand } from './list-create.js';
import { listenCommand } from './listen.js';

/** list and create mask passwords (hand-written); delete is generated; listen is a local receiver. */
export const area: AreaModule = {
  commands: [...webhookOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation), listCommand, createCommand, listenCommand],
};
