import { organizationOps } from '../../api/operations/organizations.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { linkedNamesView } from '../linked-names.js';
import { upsertCommand } from '../upsert/command.js';

export const area = defineArea(organizationOps, {
  commands: [upsertCommand(organizationOps, 'organizations'), bulkUpdateCommand('organizations', 'organization', organizationOps)],
  extend: { list: { view: linkedNamesView([{ column: 'owner', idField: 'owner_id', kind: 'user' }]) } },
  groups: {
    'organizations followers': 'Users who follow an organization: list, add, remove, changelog',
    'organizations relationships': 'Parent and related organizations: list (both directions), get, create, update, delete',
  },
});
