import { once } from '../../core/once.js';
import * as z from 'zod/mini';
import { defineTable, type OperationTable } from '../operation.js';
import { currency, cursorQuery, visibleToNumber, dateTime, id, offsetQuery, searchQuery } from '../schemas.js';
import { V1_DEAL_FIELDS } from './record-fields.js';
import { followerRows } from './follower-rows.js';
import { actionRow, createRow, cursorPage, deleteRow, getRow, listRow, updateRow } from './rows.js';

/** Fields of a product record. */
const PRODUCT_FIELDS = [
  'id', 'name', 'code', 'unit', 'tax', 'is_deleted', 'is_linkable', 'visible_to', 'owner_id', 'add_time', 'update_time',
  'description', 'category', 'custom_fields', 'billing_frequency', 'billing_frequency_cycles', 'prices',
];
/** Fields of a product variation. */
const VARIATION_FIELDS = ['id', 'name', 'product_id', 'prices'];
/** Fields of a product image. */
const IMAGE_FIELDS = ['id', 'product_id', 'company_id', 'add_time'];

/** One price per currency (the vendor's rule); cost and direct cost are optional. */
const price = once(() => z.object({ price: z.number().check(z.gte(0)), currency: currency(), cost: z.optional(z.number().check(z.gte(0))), direct_cost: z.optional(z.number().check(z.gte(0))) }));
const prices = once(() => z.array(price()).check(z.superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((p, i) => {
    const c = p.currency.toUpperCase();
    if (seen.has(c)) ctx.addIssue({ code: 'custom', path: [i, 'currency'], message: `${c} appears twice; a product has one price per currency` });
    seen.add(c);
  });
})));
const PRODUCT_HELP = {
  prices: 'JSON [{"price":100,"currency":"EUR","cost":40}] — one price per currency',
  visible_to: '1 owner (and followers), 3 group/company, 5 group and sub-groups, 7 company',
  tax: 'tax percentage',
  custom_fields: 'custom field values as JSON {"<field key>": value}',
};

/** Columns and known fields of one product as a read or a write answers it. */
const SHOWN = { columns: ['id', 'name', 'code', 'owner_id', 'add_time', 'update_time'], fields: PRODUCT_FIELDS };
/** Columns and known fields of one variation. */
const VARIATION = { columns: ['id', 'name'], fields: VARIATION_FIELDS };
/** Uploading or replacing the image: the file goes in the `data` form field; the answer is the image record. */
const IMAGE_FILE = { columns: ['id', 'add_time'], fields: IMAGE_FIELDS, upload: { field: 'data' } };

/** Body fields of a create and an update after the name (required on create, optional on update). */
const productBody = () => ({
  code: z.optional(z.string()), description: z.optional(z.string()), unit: z.optional(z.string()), tax: z.optional(z.number().check(z.gte(0))), category: z.optional(z.number()),
  owner_id: z.optional(id()), is_linkable: z.optional(z.boolean()), visible_to: z.optional(visibleToNumber()), prices: z.optional(prices()), custom_fields: z.optional(z.record(z.string(), z.unknown())),
  billing_frequency: z.optional(z.enum(['one-time', 'annually', 'semi-annually', 'quarterly', 'monthly', 'weekly'])), billing_frequency_cycles: z.optional(z.nullable(z.int())),
});

export const productOps = defineTable('products', {
  list: listRow('/api/v2/products', 10, ['products:read', 'products:full'], 'cursor', () => z.object({ owner_id: z.optional(id()), ids: z.optional(z.array(id()).check(z.maxLength(100))), filter_id: z.optional(id()), sort_by: z.optional(z.enum(['id', 'name', 'add_time', 'update_time'])), sort_direction: z.optional(z.enum(['asc', 'desc'])), updated_since: z.optional(dateTime()), custom_fields: z.optional(z.array(z.string().check(z.minLength(1))).check(z.maxLength(15))), ...cursorQuery(500) }), {
    customFields: 'product', command: ['products', 'list'],
    summary: 'List products',
    examples: ['crmctl products list'],
    columns: ['id', 'name', 'code', 'unit', 'tax', 'is_linkable', 'owner_id'],
    fields: PRODUCT_FIELDS,
  }),
  get: getRow('/api/v2/products/{id}', 1, ['products:read', 'products:full'], {
    customFields: 'product', command: ['products', 'get'],
    summary: 'Show one product with its prices',
    examples: ['crmctl products get 1'],
    ...SHOWN,
  }),
  create: createRow('/api/v2/products', 5, ['products:full'], () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), ...productBody() }), {
    help: PRODUCT_HELP,
    customFields: 'product', command: ['products', 'create'],
    summary: 'Create a product (prices per currency in --prices)',
    examples: ['crmctl products create --name "Licence" --code LIC-1 --prices \'[{"price":100,"currency":"EUR"}]\''],
    ...SHOWN,
  }, { successStatus: 201 }),
  update: updateRow('PATCH', '/api/v2/products/{id}', 5, ['products:full'], {
    help: PRODUCT_HELP,
    customFields: 'product', command: ['products', 'update'],
    summary: 'Change a product: only the fields you give change',
    examples: ['crmctl products update 1 --unit seat'],
    ...SHOWN,
  }, {
    body: () => z.object({ name: z.optional(z.string().check(z.trim()).check(z.minLength(1))), ...productBody() }),
  }),
  delete: deleteRow('/api/v2/products/{id}', 3, ['products:full'], {
    command: ['products', 'delete'],
    summary: 'Delete a product',
    examples: ['crmctl products delete 1'],
  }),
  search: listRow('/api/v2/products/search', 20, ['products:read', 'products:full', 'search:read'], 'cursor', () => searchQuery({ term: z.string(), fields: z.optional(z.array(z.enum(['code', 'custom_fields', 'name']))), exact_match: z.optional(z.boolean()), include_fields: z.optional(z.array(z.enum(['product.price']))), ...cursorQuery(500) }), {
    command: ['products', 'search'],
    summary: 'Search products by name, code or custom fields',
    examples: ['crmctl products search --term acme'],
    unwrap: 'items',
    columns: ['item.id', 'item.name', 'item.code', 'result_score'],
  }),
  duplicate: actionRow('/api/v2/products/{id}/duplicate', 5, ['products:full'], {
    command: ['products', 'duplicate'],
    summary: 'Copy a product',
    examples: ['crmctl products duplicate 1'],
    ...SHOWN,
  }, { successStatus: 201 }),
  variations: listRow('/api/v2/products/{id}/variations', 10, ['products:read', 'products:full'], 'cursor', cursorPage, {
    command: ['products', 'variations', 'list'],
    summary: 'List the variations of a product',
    examples: ['crmctl products variations list 1'],
    ...VARIATION,
  }),
  addVariation: createRow('/api/v2/products/{id}/variations', 5, ['products:full'], () => z.object({ name: z.string().check(z.trim()).check(z.minLength(1)), prices: z.optional(prices()) }), {
    command: ['products', 'variations', 'add'],
    summary: 'Add a variation to a product',
    examples: ['crmctl products variations add 1 --name "Large"'],
    ...VARIATION,
  }, { successStatus: 201 }),
  updateVariation: updateRow('PATCH', '/api/v2/products/{id}/variations/{product_variation_id}', 5, ['products:full'], {
    command: ['products', 'variations', 'update'],
    summary: 'Change a variation of a product',
    examples: ['crmctl products variations update 1 1 --name "XL"'],
    ...VARIATION,
  }, { body: () => z.object({ name: z.optional(z.string()), prices: z.optional(prices()) }) }),
  deleteVariation: deleteRow('/api/v2/products/{id}/variations/{product_variation_id}', 3, ['products:full'], {
    command: ['products', 'variations', 'delete'],
    summary: 'Delete a variation of a product',
    examples: ['crmctl products variations delete 1 1'],
  }),
  image: getRow('/api/v2/products/{id}/images', 10, ['products:read', 'products:full'], {
    command: ['products', 'image', 'get'],
    summary: 'Show the image of a product (its URL)',
    examples: ['crmctl products image get 1'],
    columns: ['id', 'name', 'add_time'],
    fields: ['id', 'product_id', 'company_id', 'public_url', 'add_time', 'mime_type', 'name'],
  }),
  uploadImage: actionRow('/api/v2/products/{id}/images', 20, ['products:full'], {
    command: ['products', 'image', 'upload'],
    summary: 'Upload an image for a product from a file',
    examples: ['crmctl products image upload 1 --file ./licence.png'],
    ...IMAGE_FILE,
  }, { successStatus: 201, encoding: 'multipart' }),
  replaceImage: updateRow('PUT', '/api/v2/products/{id}/images', 20, ['products:full'], {
    command: ['products', 'image', 'replace'],
    summary: 'Replace the image of a product with a file',
    examples: ['crmctl products image replace 1 --file ./licence-v2.png'],
    ...IMAGE_FILE,
  }, { encoding: 'multipart', effect: 'destructive' }),
  deleteImage: deleteRow('/api/v2/products/{id}/images', 6, ['products:full'], {
    command: ['products', 'image', 'delete'],
    summary: 'Delete the image of a product',
    examples: ['crmctl products image delete 1'],
  }),
  ...followerRows({
    area: 'products', noun: 'product', read: ['products:read', 'products:full'], write: ['products:full'],
    v1Columns: ['id', 'user_id', 'add_time'], v1Fields: ['user_id', 'id', 'product_id', 'add_time'], v1Paged: true, v1Created: true, changelogSummary: 'Who started or stopped following a product',
  }),
  deals: listRow('/api/v1/products/{id}/deals', 20, ['deals:read', 'deals:full'], 'offset', () => z.object({ status: z.optional(z.enum(['open', 'won', 'lost', 'deleted', 'all_not_deleted'])), ...offsetQuery() }), {
    command: ['products', 'deals'],
    summary: 'List the deals a product is attached to',
    examples: ['crmctl products deals 1'],
    columns: ['id', 'title', 'label', 'status', 'value', 'currency', 'pipeline_id'],
    fields: V1_DEAL_FIELDS,
  }),
  files: listRow('/api/v1/products/{id}/files', 20, ['products:read', 'products:full'], 'offset', () => z.object({ sort: z.optional(z.string()), ...offsetQuery() }), {
    command: ['products', 'files'],
    summary: 'List the files attached to a product',
    examples: ['crmctl products files 1'],
    columns: ['id', 'name', 'add_time', 'update_time'],
    fields: ['id', 'product_id', 'add_time', 'update_time', 'file_name', 'file_size', 'active_flag', 'inline_flag', 'remote_location', 'remote_id', 's3_bucket', 'product_name', 'url', 'name', 'description'],
  }, { maxLimit: 100 }),
  permittedUsers: getRow('/api/v1/products/{id}/permittedUsers', 10, ['products:read', 'products:full'], {
    command: ['products', 'permitted-users'],
    summary: 'List the users who may see a product',
    examples: ['crmctl products permitted-users 1'],
  }),
} satisfies OperationTable);
