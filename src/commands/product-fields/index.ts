import { productFieldOps } from '../../api/operations/product-fields.js';
import { fieldArea } from '../fields/area.js';

export const area = fieldArea(productFieldOps, 'product-fields', 'product');
