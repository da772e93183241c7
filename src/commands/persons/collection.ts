import { personOperations } from '../../api/operations/persons.js';
import type { CommandSpec } from '../../core/command.js';
import { AuthError } from '../../core/errors.js';
import { commandFromOperation, runOperation } from '../from-operation.js';

const op = personOperations.find((o) => o.id === 'persons.collection')!;

/** The service answers 403 to anyone but a global admin, whatever the token's scopes; say so. */
const ADMIN_ONLY =
  'The person collection is open to global admins only: a regular user gets 403 even with contacts scopes. ' +
  'Run it as a global admin, or use `crmctl persons list --all` (v2, cursor-paged) instead.';

export const collectionCommand: CommandSpec = {
  ...commandFromOperation(op),
  generated: false,
  async run(ctx, { args, opts }) {
    try {
      await runOperation(ctx, op, args, opts);
    } catch (err) {
      if (err instanceof AuthError && err.message.includes('(403)')) throw new AuthError(err.message, ADMIN_ONLY);
      throw err;
    }
  },
};
