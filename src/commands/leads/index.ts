import { leadOps } from '../../api/operations/leads.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { linkedNamesView } from '../linked-names.js';
import { archive, unarchive } from './archive.js';
import { channels } from './channels.js';
import { convertCommand } from './convert.js';

export const area = defineArea(leadOps, {
  extend: {
    list: {
      view: linkedNamesView([
        { column: 'person', idField: 'person_id', kind: 'person' },
        { column: 'organization', idField: 'organization_id', kind: 'organization' },
        { column: 'owner', idField: 'owner_id', kind: 'user' },
      ]),
    },
  },
  commands: [bulkUpdateCommand('leads', 'lead', leadOps, '<lead-id>,<lead-id>'), convertCommand, archive, unarchive, channels],
});
