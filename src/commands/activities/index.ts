import { activityOps } from '../../api/operations/activities.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { linkedNamesView } from '../linked-names.js';

const activityTableView = linkedNamesView([
  { column: 'deal', idField: 'deal_id', kind: 'deal' },
  { column: 'person', idField: 'person_id', kind: 'person' },
  { column: 'organization', idField: 'org_id', kind: 'organization' },
  { column: 'owner', idField: 'owner_id', kind: 'user' },
]);

export const area = defineArea(activityOps, { extend: { list: { view: activityTableView }, get: { view: activityTableView } }, commands: [bulkUpdateCommand('activities', 'activity', activityOps)] });
