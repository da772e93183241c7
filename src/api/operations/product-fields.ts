import { fieldTableWithV1, type FieldEntity } from './field-api.js';

/** Product fields cannot be made important (there is no stage to highlight them in). */
export const PRODUCT_FIELDS: FieldEntity = {
  command: 'product-fields',
  area: 'productFields',
  noun: 'product',
  read: ['products:read', 'products:full', 'product-fields:full'],
  create: ['products:full', 'product-fields:full'],
  patch: ['products:full', 'product-fields:full'],
  remove: ['products:full', 'product-fields:full'],
  important: false,
  // The v1 create answers 201 for product fields alone (the vendor's documents).
  v1: { read: ['products:read', 'product-fields:full', 'products:full'], write: ['product-fields:full', 'products:full'], createStatus: 201 },
};

export const productFieldOps = fieldTableWithV1({ ...PRODUCT_FIELDS, v1: PRODUCT_FIELDS.v1! });
