import { productOps } from '../../api/operations/products.js';
import { bulkUpdateCommand } from '../bulk/bulk-update.js';
import { defineArea } from '../define-area.js';
import { upsertCommand } from '../upsert/command.js';

export const area = defineArea(productOps, {
  commands: [upsertCommand(productOps, 'products'), bulkUpdateCommand('products', 'product', productOps)],
  groups: {
    'products followers': 'Users who follow a product: list, add, remove, changelog',
    'products variations': 'Variations of a product with their own prices: list, add, update, delete',
    'products image': 'The product image: get, upload, replace, delete',
  },
});
