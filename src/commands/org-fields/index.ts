import { organizationFieldOperations } from '../../api/operations/organization-fields.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';
import { createCommand, updateCommand } from './create-update.js';
import { addOptionsCommand, deleteOptionsCommand, updateOptionsCommand } from './options.js';

/** list, get, delete, delete-many and stages are generated; create, update and the option verbs add friendly flags and checks. */
export const area: AreaModule = {
  commands: [
    ...organizationFieldOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation),
    createCommand,
    updateCommand,
    addOptionsCommand,
    updateOptionsCommand,
    deleteOptionsCommand,
  ],
  groups: { 'org-fields options': 'Options of enum and set organization fields (add, relabel, delete; all or nothing)' },
};
