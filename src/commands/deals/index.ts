import { dealOps } from '../../api/operations/deals.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { dealTableView } from './table-view.js';
import { dealValueNotice } from './value-notice.js';
import { upsertCommand } from '../upsert/command.js';

export const area = defineArea(dealOps, {
  commands: [upsertCommand(dealOps, 'deals'), bulkUpdateCommand('deals', 'deal', dealOps)],
  extend: {
    list: { view: dealTableView },
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
