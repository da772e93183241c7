import { productOps } from '../../api/operations/products.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { linkedNamesView } from '../linked-names.js';
import { upsertCommand } from '../upsert/command.js';

export const area = defineArea(productOps, {
  commands: [upsertCommand(productOps, 'products'), bulkUpdateCommand('products', 'product', productOps)],
  // One product: its owner by name and its prices with their currencies.
  extend: { get: { view: linkedNamesView([{ column: 'owner', idField: 'owner_id', kind: 'user' }], { columns: ['id', 'name', 'code', 'prices', 'owner', 'add_time', 'update_time'], money: [{ column: 'prices', field: 'prices' }], oneRecord: true }) } },
  groups: {
    'products followers': 'Users who follow a product: list, add, remove, changelog',
    'products variations': 'Variations of a product with their own prices: list, add, update, delete',
    'products image': 'The product image: get, upload, replace, delete',
  },
});
