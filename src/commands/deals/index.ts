import { dealOps } from '../../api/operations/deals.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { linkedNamesView } from '../linked-names.js';
import { dealTableView } from './table-view.js';
import { dealValueNotice } from './value-notice.js';
import { upsertCommand } from '../upsert/command.js';

export const area = defineArea(dealOps, {
  commands: [upsertCommand(dealOps, 'deals'), bulkUpdateCommand('deals', 'deal', dealOps)],
  extend: {
    list: { view: dealTableView },
    // One deal as the web app's detail view shows it: names for ids, value with its currency (custom fields by name: named-view.ts).
    get: {
      view: linkedNamesView(
        [
          { column: 'pipeline', idField: 'pipeline_id', kind: 'pipeline' },
          { column: 'stage', idField: 'stage_id', kind: 'stage' },
          { column: 'owner', idField: 'owner_id', kind: 'user' },
          { column: 'organization', idField: 'org_id', kind: 'organization' },
          { column: 'person', idField: 'person_id', kind: 'person' },
          { column: 'labels', idField: 'label_ids', kind: 'deal-label' },
        ],
        { columns: ['id', 'title', 'status', 'value', 'pipeline', 'stage', 'owner', 'organization', 'person', 'labels'], money: [{ column: 'value', field: 'value', currency: 'currency' }], oneRecord: true },
      ),
    },
    archived: { view: dealTableView },
    addProduct: { after: dealValueNotice },
    addProducts: { after: dealValueNotice },
    updateProduct: { after: dealValueNotice },
    deleteProduct: { after: dealValueNotice },
    deleteProducts: { after: dealValueNotice },
  },
  groups: {
    'deals followers': 'Users who follow a deal: list, add, remove, changelog',
    'deals products': 'Products on a deal: list, add one or many, update, delete (the deal value follows)',
    'deals discounts': 'Discounts on a deal: list, add, update, delete',
    'deals participants': 'Persons taking part in a deal: list, add, delete, changelog',
  },
});
