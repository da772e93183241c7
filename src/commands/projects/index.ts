import { projectOps } from '../../api/operations/projects.js';
import { defineArea } from '../define-area.js';
import { type Link, linkedNamesView } from '../linked-names.js';
import { withCustomFields } from './custom-fields.js';

/** Board, phase and owner by name in place of their ids (a phase is named from its board's phase list). */
const PROJECT_LINKS: Link[] = [
  { column: 'board', idField: 'board_id', kind: 'board' },
  { column: 'phase', idField: 'phase_id', kind: 'phase' },
  { column: 'owner', idField: 'owner_id', kind: 'user' },
];
const listView = linkedNamesView(PROJECT_LINKS);

/**
 * create/update: the generated command plus --custom-field KEY=VALUE (the board/phase check is the operation's: src/api/checks/projects.ts).
 * Tables, TSV and CSV show board, phase and owner by name, and one project also its deals, persons and
 * organizations by name and every custom field by name (named-view.ts); json keeps the service's records.
 */
export const area = defineArea(projectOps, {
  extend: {
    create: withCustomFields,
    update: withCustomFields,
    list: { view: listView },
    archived: { view: listView },
    get: {
      view: linkedNamesView(
        [
          ...PROJECT_LINKS,
          { column: 'deals', idField: 'deal_ids', kind: 'deal' },
          { column: 'persons', idField: 'person_ids', kind: 'person' },
          { column: 'organizations', idField: 'org_ids', kind: 'organization' },
        ],
        {
          columns: ['id', 'title', 'description', 'status', 'board', 'phase', 'owner', 'start_date', 'end_date', 'deals', 'persons', 'organizations', 'label_ids', 'health_status', 'add_time', 'update_time', 'status_change_time', 'archive_time'],
          oneRecord: true,
        },
      ),
    },
  },
});
