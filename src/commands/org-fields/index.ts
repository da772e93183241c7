import { organizationFieldOperations } from '../../api/operations/organization-fields.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';

export const area: AreaModule = { commands: organizationFieldOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation) };
