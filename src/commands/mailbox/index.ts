import { mailboxOperations } from '../../api/operations/mailbox.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: mailboxOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
