import { organizationOps } from '../../api/operations/organizations.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { type Link, linkedNamesView } from '../linked-names.js';
import { upsertCommand } from '../upsert/command.js';

const OWNER: Link[] = [{ column: 'owner', idField: 'owner_id', kind: 'user' }, { column: 'labels', idField: 'label_ids', kind: 'organization-label' }];
const ownerView = linkedNamesView(OWNER);

export const area = defineArea(organizationOps, {
  commands: [upsertCommand(organizationOps, 'organizations'), bulkUpdateCommand('organizations', 'organization', organizationOps)],
  extend: { list: { view: ownerView }, get: { view: linkedNamesView(OWNER, { oneRecord: true, columns: ['id', 'name', 'owner', 'labels', 'add_time', 'update_time'] }) } },
  groups: {
    'organizations followers': 'Users who follow an organization: list, add, remove, changelog',
    'organizations relationships': 'Parent and related organizations: list (both directions), get, create, update, delete',
  },
});
