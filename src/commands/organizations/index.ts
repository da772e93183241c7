import { organizationOps } from '../../api/operations/organizations.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { type Link, linkedNamesView } from '../linked-names.js';
import { upsertCommand } from '../upsert/command.js';

const OWNER: Link[] = [{ column: 'owner', idField: 'owner_id', kind: 'user' }];
const ownerView = linkedNamesView(OWNER);

export const area = defineArea(organizationOps, {
  commands: [upsertCommand(organizationOps, 'organizations'), bulkUpdateCommand('organizations', 'organization', organizationOps)],
  extend: { list: { view: ownerView }, get: { view: linkedNamesView(OWNER, { oneRecord: true }) } },
  groups: {
    'organizations followers': 'Users who follow an organization: list, add, remove, changelog',
    'organizations relationships': 'Parent and related organizations: list (both directions), get, create, update, delete',
  },
});
