import { organizationOps } from '../../api/operations/organizations.js';
import { defineArea } from '../define-area.js';

export const area = defineArea(organizationOps, {
  groups: {
    'organizations followers': 'Users who follow an organization: list, add, remove, changelog',
    'organizations relationships': 'Parent and related organizations: list (both directions), get, create, update, delete',
  },
});
