import { personOperations } from '../../api/operations/persons.js';
import type { AreaModule } from '../../core/command.js';
import { commandFromOperation } from '../from-operation.js';
import { collectionCommand } from './collection.js';
import { permittedUsersCommand } from './permitted-users.js';
import { productsCommand } from './products.js';
import { switchedCommand } from './switch.js';

const op = (id: string) => personOperations.find((o) => o.id === id)!;
const V1 = (what: string) => ({ flag: '--v1', description: `use the v1 form of ${what}` });

export const area: AreaModule = {
  commands: [
    ...personOperations.filter((o) => !o.cli.handWritten).map(commandFromOperation),
    switchedCommand(op('persons.list'), op('persons.listV1'), V1('the list (offset-paged; --user-id, --first-char, --sort)')),
    switchedCommand(op('persons.get'), op('persons.getV1'), V1('the person (every count, related objects)')),
    switchedCommand(op('persons.files'), op('persons.filesV1'), V1('the files list (/v1/persons/{id}/files; sorts on more fields)')),
    switchedCommand(op('persons.followers'), op('persons.followersV1'), V1('the followers list (follower ids, not paged)')),
    collectionCommand,
    productsCommand,
    permittedUsersCommand,
  ],
};
