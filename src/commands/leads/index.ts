import { leadOps } from '../../api/operations/leads.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { type Link, linkedNamesView } from '../linked-names.js';
import { archive, unarchive } from './archive.js';
import { channels } from './channels.js';
import { convertCommand } from './convert.js';

const LEAD_LINKS: Link[] = [
  { column: 'person', idField: 'person_id', kind: 'person' },
  { column: 'organization', idField: 'organization_id', kind: 'organization' },
  { column: 'owner', idField: 'owner_id', kind: 'user' },
  // Labels by name (the lead label list, read once per command), not their UUIDs.
  { column: 'labels', idField: 'label_ids', kind: 'lead-label' },
];

export const area = defineArea(leadOps, {
  extend: {
    list: { view: linkedNamesView(LEAD_LINKS) },
    // One lead: its creator by name too, and the value with its currency.
    get: { view: linkedNamesView([...LEAD_LINKS, { column: 'creator', idField: 'creator_id', kind: 'user' }], { money: [{ column: 'value', field: 'value' }], oneRecord: true }) },
  },
  commands: [bulkUpdateCommand('leads', 'lead', leadOps, '<lead-id>,<lead-id>'), convertCommand, archive, unarchive, channels],
});
